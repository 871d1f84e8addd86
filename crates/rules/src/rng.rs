//! The generator behind every game with chance in it: SplitMix64 and an
//! unbiased draw below a bound.
//!
//! 2048 draws its spawns and Tetris shuffles its bags with it. Both are part
//! of the rules: the same state must give the same spawn or bag on every
//! machine and in every version, so neither may change without a new code
//! version of every game that uses them. The state lives in the position
//! (and its code), never in a global or the clock.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014), exactly as Vigna's `splitmix64.c` and Java's
/// `SplittableRandom` compute it. Its whole state is one `u64`, and a
/// generator seeded with `s` has state `s`: the state *is* a seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n`, without modulo bias: Lemire's
    /// multiply-shift with rejection ("Fast random integer generation in an
    /// interval", ACM TOMACS 2019). The high 64 bits of `x · n` are the
    /// result unless the low 64 bits fall below `2^64 mod n`, in which case
    /// `x` is drawn again. `n = 0` gives 0 and draws nothing.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        let n = u64::from(n);
        if n == 0 {
            return 0;
        }
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        // The threshold 2^64 mod n is below n, so the division that finds
        // it is needed only when the low half is below n (rarely).
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        // m < 2^64 · n, so the high half is below n ≤ u32::MAX.
        (m >> 64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference outputs of Vigna's `splitmix64.c`: the first values of
    /// Apache Commons RNG's `SplitMix64Test` (seed `0x1a2b3c4d5e6f7531`) and
    /// of Rosetta Code's "Pseudo-random numbers/Splitmix64" (seed 1234567).
    #[test]
    fn matches_the_reference_outputs() {
        let mut g = SplitMix64(0x1a2b_3c4d_5e6f_7531);
        for e in [
            0x4141_3027_68c9_e9d0,
            0x64df_48c4_eab5_1b1a,
            0x4e72_3b53_dbd9_01b3,
            0xead8_3944_09dd_6454,
        ] {
            assert_eq!(g.next_u64(), e);
        }
        let mut g = SplitMix64(1_234_567);
        for e in [
            0x599e_d017_fb08_fc85,
            0x2c73_f084_5854_0fa5,
            0x883e_bce5_a3f2_7c77,
            0x3fbe_f740_e917_7b3f,
            0xe3b8_3467_08cb_5ecd,
        ] {
            assert_eq!(g.next_u64(), e);
        }
    }

    #[test]
    fn below_stays_below_and_rejects_the_biased_zone() {
        let mut g = SplitMix64(7);
        for n in 1..40 {
            for _ in 0..100 {
                assert!(g.below(n) < n);
            }
        }
        assert_eq!(g.below(0), 0);
        assert_eq!(SplitMix64(3).below(1), 0);
    }
}
