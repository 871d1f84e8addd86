//! Scores of the two-player alpha-beta searches: a win `n` plies from the
//! root is `MATE - n`, a loss `-(MATE - n)`, anything nearer zero an
//! evaluation. Shared by gomoku and quoridor.

/// The score of a win on the next ply.
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond this (either way) are wins or losses.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;

/// What a score says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A win this many plies from the root.
    Win(u32),
    /// A loss this many plies from the root.
    Loss(u32),
    /// No forced result: the evaluation.
    Eval(i32),
}

/// Reads a search score.
pub(crate) fn verdict(v: i32) -> Verdict {
    if v > MATE_BOUND {
        Verdict::Win((MATE - v) as u32)
    } else if v < -MATE_BOUND {
        Verdict::Loss((MATE + v) as u32)
    } else {
        Verdict::Eval(v)
    }
}

/// An order on verdicts: sooner wins first, evaluations, later losses.
pub(crate) fn rank(v: Verdict) -> i64 {
    match v {
        Verdict::Win(n) => i64::from(MATE) - i64::from(n),
        Verdict::Loss(n) => -i64::from(MATE) + i64::from(n),
        Verdict::Eval(e) => i64::from(e),
    }
}

/// A score as a transposition table keeps it: wins and losses counted from
/// the node (`ply` plies below the root), so that they read right wherever
/// the node turns up again.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`] at a node `ply` plies below the root.
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_back_and_travel_through_the_table() {
        assert_eq!(verdict(MATE - 3), Verdict::Win(3));
        assert_eq!(verdict(-(MATE - 4)), Verdict::Loss(4));
        assert_eq!(verdict(120), Verdict::Eval(120));
        assert!(rank(Verdict::Win(1)) > rank(Verdict::Win(5)));
        assert!(rank(Verdict::Win(99)) > rank(Verdict::Eval(5_000)));
        assert!(rank(Verdict::Loss(9)) > rank(Verdict::Loss(2)));
        // A win 5 plies from the root, found 2 plies down, is a win in 3
        // from that node, and a win in 4 when the node comes back at ply 1.
        let stored = to_table(MATE - 5, 2);
        assert_eq!(stored, MATE - 3);
        assert_eq!(from_table(stored, 1), MATE - 4);
        assert_eq!(from_table(to_table(-(MATE - 6), 3), 3), -(MATE - 6));
        assert_eq!(to_table(77, 9), 77);
    }
}
