//! The evaluation as weights times features, for fitting the weights to
//! positions whose worth is known (perf/strength/runner's `xiangqi-tune`,
//! docs/strength.md).
//!
//! The evaluation of a position is the sum of [`weights`] times
//! [`features`], rounded towards zero (the test below holds the two to [`evaluate`]), except in
//! the positions where a side with nothing that can cross the river
//! leads: its lead counts an eighth, and [`features`] gives none.
//!
//! The weights, in order:
//!
//! - [`PLACES`] values of a piece of each kind on each point, material and
//!   place together, by kind (general, advisor, elephant, horse, chariot,
//!   cannon, soldier), row from the far side's back rank as its side sees
//!   the board (0 the enemy's back rank, 9 its own), and file from the
//!   nearer edge (0 the edge, 4 the central file): the tables are the same
//!   for both wings;
//! - the four mobility weights ([`super::eval`]'s `MOBILITY`);
//! - the weights of four terms ([`super::eval`]'s `TERM_WEIGHTS`, in
//!   sixteenths): the piece pairs, the general's danger, the palace's
//!   shape and the pressure on the enemy palace;
//! - the tempo.
//!
//! Every feature is the side to move's count less the other side's.

use qipan_rules::xiangqi::Position;

use super::board::{Board, KIND};
use super::eval::{self, MOBILITY, PLACE, TEMPO, TERM_WEIGHTS};

/// Place weights: 7 kinds × 10 rows × 5 files.
pub const PLACES: usize = 7 * 10 * 5;
/// Weights in all.
pub const LEN: usize = PLACES + 4 + 4 + 1;

/// The kinds, in the order of the place weights.
pub const KINDS: [&str; 7] = [
    "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
];

/// The weights after the place weights.
pub const TERMS: [&str; 9] = [
    "chariot mobility",
    "horse mobility",
    "horse nearly trapped",
    "cannon mobility",
    "piece pairs",
    "general's danger",
    "palace shape",
    "pressure",
    "tempo",
];

/// The index of the place weight of a piece of kind `kind` on `row` and
/// `file` as its own side sees the board (0, 0 the enemy's back left
/// corner).
pub fn place_index(kind: usize, row: usize, file: usize) -> usize {
    kind * 50 + row * 5 + file.min(8 - file)
}

/// The evaluation's weights.
pub fn weights() -> Vec<f64> {
    let mut w = vec![0.0; LEN];
    for kind in 0..7 {
        // The first slot of the kind, red.
        let id = KIND.iter().position(|&k| k == kind).unwrap_or(0);
        for row in 0..10 {
            for file in 0..9 {
                let sq = (row + 3) * 16 + file + 3;
                w[place_index(kind, row, file)] = f64::from(PLACE[id][sq]);
            }
        }
    }
    for (i, m) in MOBILITY.iter().enumerate() {
        w[PLACES + i] = f64::from(*m);
    }
    for (t, weight) in TERM_WEIGHTS.iter().enumerate() {
        w[PLACES + 4 + t] = f64::from(*weight) / 16.0;
    }
    w[LEN - 1] = f64::from(TEMPO);
    w
}

/// The features of `pos`, as (index, value) pairs, the side to move's
/// counts less the other's; `None` when the evaluation damps a lead (a
/// side with nothing that can cross the river).
pub fn features(pos: &Position) -> Option<Vec<(usize, f64)>> {
    let b = Board::new(pos);
    let n = b.counts;
    let phase = eval::midgame(&n);
    let crossing = [eval::attack(&b, 0, &n), eval::attack(&b, 1, &n)];
    let mut dense = vec![0.0; LEN];
    let mut score = [0i32; 2];
    for side in 0..2 {
        let sign = if side == b.turn { 1.0 } else { -1.0 };
        for id in side * 16..side * 16 + 16 {
            let sq = usize::from(b.at[id]);
            if sq == 0 {
                continue;
            }
            score[side] += 16 * i32::from(PLACE[id][sq]);
            let own = if side == 0 { sq } else { 254 - sq };
            let (row, file) = ((own >> 4) - 3, (own & 15) - 3);
            dense[place_index(KIND[id & 15], row, file)] += sign;
        }
        let counts = eval::mobility_counts(&b, side);
        for (i, c) in counts.iter().enumerate() {
            dense[PLACES + i] += sign * f64::from(*c);
            score[side] += 16 * MOBILITY[i] * c;
        }
        let terms = eval::terms(&b, side, &n, phase, crossing[side ^ 1]);
        for (t, v) in terms.iter().enumerate() {
            dense[PLACES + 4 + t] += sign * f64::from(*v);
        }
        score[side] += eval::weighed(&terms);
    }
    let v = (score[b.turn] - score[b.turn ^ 1]) / 16;
    if eval::damped(v, b.turn, &n) != v {
        return None;
    }
    dense[LEN - 1] = 1.0;
    Some(
        dense
            .into_iter()
            .enumerate()
            .filter(|&(_, x)| x != 0.0)
            .collect(),
    )
}

/// The evaluation of `pos` for the side to move, as the search sees it.
pub fn evaluate(pos: &Position) -> i32 {
    eval::evaluate(&Board::new(pos))
}

#[cfg(test)]
mod tests {
    use qipan_rules::rng::SplitMix64;
    use qipan_rules::xiangqi::Position;

    use super::*;

    /// Weights times features is the evaluation, on the positions of
    /// random games (a lead damped or not).
    #[test]
    fn weights_times_features_is_the_evaluation() {
        let w = weights();
        let mut rng = SplitMix64(31);
        let (mut checked, mut damped) = (0, 0);
        for _ in 0..40 {
            let mut pos = Position::start();
            for _ in 0..160 {
                match features(&pos) {
                    Some(f) => {
                        let sum: f64 = f.iter().map(|&(i, x)| w[i] * x).sum();
                        // The terms are weighed in sixteenths, and the
                        // sum rounded towards zero.
                        let e = f64::from(evaluate(&pos));
                        assert!((sum - e).abs() < 1.0, "{sum} {e} {}", pos.to_fen());
                        checked += 1;
                    }
                    None => damped += 1,
                }
                let moves = pos.legal_actions();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u32) as usize];
                let Ok(next) = pos.play(m) else { break };
                pos = next;
            }
        }
        assert!(
            checked > 4000,
            "{checked} positions checked, {damped} damped"
        );
    }

    #[test]
    fn both_wings_share_a_place() {
        assert_eq!(place_index(3, 2, 1), place_index(3, 2, 7));
        assert_ne!(place_index(3, 2, 1), place_index(3, 2, 2));
        assert_eq!(place_index(6, 9, 8), 6 * 50 + 45);
    }
}
