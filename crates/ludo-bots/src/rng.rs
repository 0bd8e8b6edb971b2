//! Seeded random numbers for CPU players and simulations: SplitMix64, small, fast, the same
//! sequence for the same seed on every platform (WebAssembly included).

/// A seeded pseudo-random generator (SplitMix64). Not for dice that people bet on: the server
/// derives its throws from a cryptographic seed instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole sequence follows from `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n` > 0), without modulo bias (Lemire's method).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut product = u64::from(self.next_u64() as u32) * u64::from(n);
        if (product as u32) < n {
            // Only then can the low bits fall in the biased zone: reject it.
            let threshold = n.wrapping_neg() % n;
            while (product as u32) < threshold {
                product = u64::from(self.next_u64() as u32) * u64::from(n);
            }
        }
        (product >> 32) as u32
    }

    /// One fair die: 1..=6.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// A generator for a sub-task (a game, a seat) whose sequence is independent of this one's.
    pub fn fork(&mut self) -> Rng {
        Rng::new(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn dice_are_fair_within_sampling_error() {
        let mut rng = Rng::new(1);
        let mut counts = [0u32; 6];
        let n = 600_000;
        for _ in 0..n {
            counts[rng.die() as usize - 1] += 1;
        }
        // Each face expects 100,000 with a standard deviation of about 289: six sigmas is 1,734.
        for c in counts {
            assert!((98_266..=101_734).contains(&c), "{counts:?}");
        }
    }
}
