//! How a weakened level picks its move: by a seed, among the lines whose
//! score is within a margin of the best. Shared by the two-player games.

use qipan_rules::rng::SplitMix64;

use crate::Line;

/// The first move of a line drawn by `seed` (mixed with `salt`, something
/// of the position, so one seed does not pick the same rank every move)
/// among `lines` (best first) whose `rank` is at least the best's less
/// `margin`. A best line that `decided` says is a forced win is always
/// taken, and so is the best line when `margin` is 0.
pub(crate) fn pick_near_best<M: Copy, S>(
    lines: &[Line<M, S>],
    margin: i64,
    rank: impl Fn(&S) -> i64,
    decided: impl Fn(&S) -> bool,
    seed: u64,
    salt: u64,
) -> Option<M> {
    let best = lines.first()?;
    if margin == 0 || decided(&best.score) {
        return best.pv.first().copied();
    }
    let floor = rank(&best.score) - margin;
    let near: Vec<&Line<M, S>> = lines.iter().filter(|l| rank(&l.score) >= floor).collect();
    let mut rng = SplitMix64(seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let pick = rng.below(u32::try_from(near.len()).unwrap_or(u32::MAX)) as usize;
    near.get(pick)
        .and_then(|l| l.pv.first())
        .or(best.pv.first())
        .copied()
}

/// A draw below `n` by `seed` and `salt` (0 when `n` is 0).
pub(crate) fn draw(seed: u64, salt: u64, n: u32) -> u32 {
    SplitMix64(seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)).below(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(m: u8, s: i64) -> Line<u8, i64> {
        Line {
            pv: vec![m],
            score: s,
        }
    }

    #[test]
    fn picks_only_within_the_margin_and_always_a_decided_best() {
        let lines = [line(1, 100), line(2, 90), line(3, 40)];
        let picks: std::collections::BTreeSet<u8> = (0..64)
            .filter_map(|seed| pick_near_best(&lines, 20, |s| *s, |_| false, seed, 5))
            .collect();
        assert_eq!(picks.into_iter().collect::<Vec<_>>(), vec![1, 2]);
        for seed in 0..16 {
            assert_eq!(
                pick_near_best(&lines, 1000, |s| *s, |s| *s >= 100, seed, 5),
                Some(1)
            );
            assert_eq!(
                pick_near_best(&lines, 0, |s| *s, |_| false, seed, 5),
                Some(1)
            );
        }
        assert_eq!(
            pick_near_best::<u8, i64>(&[], 10, |s| *s, |_| false, 1, 1),
            None
        );
    }
}
