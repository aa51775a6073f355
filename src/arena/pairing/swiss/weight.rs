//! The edge weights of the pairing graph: unsigned integers of `64 * N` bits, wide enough for
//! every criterion of the Dutch system to have its own field (a few hundred bits for a field of
//! 40 players). Only what the weighted matching and the weights' assembly need: addition,
//! subtraction (never below zero: the matching keeps every difference it takes non-negative),
//! comparison, shifts, and the fields' assembly.

use std::cmp::Ordering;

/// An unsigned integer of `N` 64-bit limbs, least significant first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weight<const N: usize>([u64; N]);

impl<const N: usize> Default for Weight<N> {
    fn default() -> Self {
        Weight([0; N])
    }
}

impl<const N: usize> Weight<N> {
    pub const BITS: u32 = 64 * N as u32;

    pub fn zero() -> Self {
        Self::default()
    }

    pub fn from_u64(value: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = value;
        Weight(limbs)
    }

    /// `1 << bit`.
    pub fn bit(bit: u32) -> Self {
        let mut limbs = [0; N];
        limbs[(bit / 64) as usize] = 1 << (bit % 64);
        Weight(limbs)
    }

    /// The lowest 64 bits (the tests' small weights).
    #[cfg(test)]
    pub fn low(&self) -> u64 {
        self.0[0]
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&limb| limb == 0)
    }

    pub fn add(&self, other: &Self) -> Self {
        let mut result = [0; N];
        let mut carry = false;
        for (index, slot) in result.iter_mut().enumerate() {
            let (sum, overflow_a) = self.0[index].overflowing_add(other.0[index]);
            let (sum, overflow_b) = sum.overflowing_add(u64::from(carry));
            *slot = sum;
            carry = overflow_a || overflow_b;
        }
        debug_assert!(!carry, "weight overflow");
        Weight(result)
    }

    pub fn add_u64(&self, value: u64) -> Self {
        self.add(&Self::from_u64(value))
    }

    /// `self - other`; `other` is never larger.
    pub fn sub(&self, other: &Self) -> Self {
        let mut result = [0; N];
        let mut borrow = false;
        for (index, slot) in result.iter_mut().enumerate() {
            let (difference, under_a) = self.0[index].overflowing_sub(other.0[index]);
            let (difference, under_b) = difference.overflowing_sub(u64::from(borrow));
            *slot = difference;
            borrow = under_a || under_b;
        }
        debug_assert!(!borrow, "weight underflow");
        Weight(result)
    }

    pub fn sub_u64(&self, value: u64) -> Self {
        self.sub(&Self::from_u64(value))
    }

    pub fn shl(&self, bits: u32) -> Self {
        let mut result = [0; N];
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        for index in (limbs..N).rev() {
            let source = index - limbs;
            let mut limb = self.0[source] << rest;
            if rest > 0 && source > 0 {
                limb |= self.0[source - 1] >> (64 - rest);
            }
            result[index] = limb;
        }
        Weight(result)
    }

    /// `self >> 1`.
    pub fn half(&self) -> Self {
        let mut result = [0; N];
        for (index, slot) in result.iter_mut().enumerate() {
            let high = if index + 1 < N {
                self.0[index + 1] << 63
            } else {
                0
            };
            *slot = (self.0[index] >> 1) | high;
        }
        Weight(result)
    }

    /// The weight with a new field of `bits` bits appended below: `(self << bits) + value`.
    pub fn field(&self, bits: u32, value: &Self) -> Self {
        self.shl(bits).add(value)
    }

    /// [`Weight::field`] with a small value.
    pub fn field_u64(&self, bits: u32, value: u64) -> Self {
        self.field(bits, &Self::from_u64(value))
    }
}

impl<const N: usize> PartialOrd for Weight<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for Weight<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        for index in (0..N).rev() {
            match self.0[index].cmp(&other.0[index]) {
                Ordering::Equal => continue,
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Weight<3>;

    #[test]
    fn arithmetic_carries_across_limbs() {
        let big = W::bit(64).sub_u64(1);
        assert_eq!(big.add_u64(1), W::bit(64));
        assert_eq!(W::bit(130).half(), W::bit(129));
        assert_eq!(W::from_u64(3).shl(127), W::bit(127).add(&W::bit(128)));
        assert!(W::bit(64) > W::from_u64(u64::MAX));
        assert_eq!(W::from_u64(1).field_u64(70, 5), W::bit(70).add_u64(5));
    }
}
