//! Whether a side still has the material to win: what decides a flag fall.
//!
//! When a side's clock runs out, the game is lost for it only if the
//! opponent could still have won; otherwise it is drawn. The rule is
//! Fairy-Stockfish's `has_insufficient_material` for its `xiangqi`
//! variant, which pychess-variants applies on a flag fall: a side can win
//! if it has at least one chariot, horse, cannon or soldier — wherever
//! that soldier stands, even on the last rank. Generals, advisors and
//! elephants never leave their palace or half, so a side with nothing else
//! cannot give mate. (Fairy-Stockfish reaches this through its general
//! test: advisors and elephants can never reach the enemy palace, and any
//! other piece counts as able to mate because a stalemated side loses in
//! xiangqi.) The opponent's pieces do not matter.

use super::position::Position;
use super::types::{Role, Side};

impl Position {
    /// Whether `side` has a piece that can take part in a mate: a chariot,
    /// horse, cannon or soldier. A side without one cannot win, so when
    /// the other side's flag falls the game is drawn rather than won.
    pub fn has_mating_material(&self, side: Side) -> bool {
        self.pieces().any(|(_, piece)| {
            piece.side == side
                && match piece.role {
                    Role::Chariot | Role::Horse | Role::Cannon | Role::Soldier => true,
                    Role::General | Role::Advisor | Role::Elephant => false,
                }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases of Fairy-Stockfish's own `test_has_insufficient_material`
    /// for xiangqi that are legal positions here, with pyffish 0.0.90's
    /// answers (red insufficient, black insufficient).
    #[test]
    fn as_fairy_stockfish_judges_them() {
        for (fen, red_short, black_short) in [
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                false,
                false,
            ),
            (
                "5k3/4a4/3CN4/9/1PP5p/9/8P/4C4/4A4/2B1K4 w - - 0 46",
                false,
                false,
            ),
            ("4k4/9/9/4p4/9/9/9/9/9/4KR3 w - - 0 1", false, false),
            ("4k4/9/9/9/9/9/9/9/9/3KN4 w - - 0 1", false, true),
            ("4k4/9/4b4/9/9/9/9/4B4/9/3K5 w - - 0 1", true, true),
            ("4k4/9/9/9/9/9/9/9/4A4/4KC3 w - - 0 1", false, true),
            ("3ak4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", true, true),
            ("3Pk4/9/9/9/9/9/9/9/9/2BK5 b - - 0 1", false, true),
        ] {
            let p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(p.has_mating_material(Side::Red), !red_short, "{fen}");
            assert_eq!(p.has_mating_material(Side::Black), !black_short, "{fen}");
        }
    }
}
