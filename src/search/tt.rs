//! The transposition table: what earlier searches (and other threads) learnt about a position.
//!
//! Shared by all Lazy SMP threads without locks: each slot is two atomic words, the key stored
//! XOR-ed with the data, so a slot torn by two threads writing at once fails the key check and
//! reads as a miss instead of as another position's data (Hyatt's lockless hashing). Slots are
//! grouped four to a 64-byte cluster so a probe touches one cache line.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::games::Move;

/// What the stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at least the score (the search failed high).
    Lower,
    /// At most the score (failed low).
    Upper,
    /// The score is the true value (every move searched within the window).
    Exact,
}

/// One remembered search result (a transposition table slot's content; a solved Modiar
/// position is `tables::modiar::ModiarEntry`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TtEntry {
    /// The best move found, tried first when the position comes again.
    pub best: Option<Move>,
    /// Remaining depth of the search that stored it, in plies.
    pub depth: i32,
    /// What the score says about the true value.
    pub bound: Bound,
    /// Score with mate distances relative to this node (see `score_to_tt`).
    pub score: i32,
}

const CLUSTER: usize = 4;
/// Bytes per slot: two 64-bit words.
const SLOT_BYTES: usize = 16;
/// Depths are stored offset so that quiescence depths (down to -DEPTH_OFFSET) fit in a byte.
const DEPTH_OFFSET: i32 = 16;
const NO_MOVE_CODE: u64 = 0xFE;

/// The transposition table. Its size is fixed at creation (`Hash` in MiB); resizing means building a new one.
pub struct TranspositionTable {
    slots: Vec<AtomicU64>,
    clusters: usize,
    /// Bumped per search so old entries are replaced first and `hashfull` counts this search.
    generation: u8,
}

impl TranspositionTable {
    /// A table of `mb` MiB (at least one cluster).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) << 20;
        let clusters = (bytes / (SLOT_BYTES * CLUSTER)).max(1);
        let slots = (0..clusters * CLUSTER * 2)
            .map(|_| AtomicU64::new(0))
            .collect();
        TranspositionTable {
            slots,
            clusters,
            generation: 0,
        }
    }

    /// Size in MiB, as asked for at creation.
    pub fn size_mb(&self) -> usize {
        (self.clusters * CLUSTER * SLOT_BYTES) >> 20
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for slot in self.slots.iter_mut() {
            *slot.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// Starts a new search: entries from earlier searches become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    #[inline]
    fn cluster_of(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any cluster count, not just powers of two.
        (((key as u128) * (self.clusters as u128)) >> 64) as usize * CLUSTER * 2
    }

    /// Hints the processor to fetch the cluster of `key` while other work goes on.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let base = self.cluster_of(key);
            let ptr = self.slots[base..].as_ptr() as *const i8;
            // SAFETY: prefetching is a hint with no effect on memory; the pointer is in bounds.
            unsafe {
                std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let base = self.cluster_of(key);
        for i in 0..CLUSTER {
            let k = self.slots[base + 2 * i].load(Ordering::Relaxed);
            let data = self.slots[base + 2 * i + 1].load(Ordering::Relaxed);
            if data != 0 && k ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result, replacing this position's old entry or the least valuable slot.
    #[inline]
    pub fn store(&self, key: u64, entry: TtEntry) {
        let base = self.cluster_of(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..CLUSTER {
            let k = self.slots[base + 2 * i].load(Ordering::Relaxed);
            let data = self.slots[base + 2 * i + 1].load(Ordering::Relaxed);
            if data == 0 || k ^ data == key {
                if data != 0 {
                    let old = unpack(data);
                    // Keep a deeper result of the same position unless the new one is exact;
                    // still keep its move if the new search found none.
                    if entry.bound != Bound::Exact
                        && old.depth > entry.depth + 2
                        && generation_of(data) == self.generation
                    {
                        return;
                    }
                    if entry.best.is_none() && old.best.is_some() {
                        let merged = TtEntry {
                            best: old.best,
                            ..entry
                        };
                        self.write(base + 2 * i, key, merged);
                        return;
                    }
                }
                victim = i;
                break;
            }
            // Worth of a slot: its depth, minus a heavy penalty for each generation of age.
            let age = (self.generation.wrapping_sub(generation_of(data)) & 0x3F) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        self.write(base + 2 * victim, key, entry);
    }

    #[inline]
    fn write(&self, slot: usize, key: u64, entry: TtEntry) {
        let data = pack(entry, self.generation);
        self.slots[slot].store(key ^ data, Ordering::Relaxed);
        self.slots[slot + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of slots used by the current search, sampled from the first thousand slots.
    pub fn hashfull(&self) -> u32 {
        let sample = (self.clusters * CLUSTER).min(1000);
        let used = (0..sample)
            .filter(|&i| {
                let data = self.slots[2 * i + 1].load(Ordering::Relaxed);
                data != 0 && generation_of(data) == self.generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

// Data word layout: bits 0..8 move code (0xFE = none), 8..16 depth + offset, 16..18 bound,
// 18..24 generation, 32..48 score as i16, bit 63 set so that a used slot is never all zero.
#[inline]
fn pack(e: TtEntry, generation: u8) -> u64 {
    let mv = e.best.map_or(NO_MOVE_CODE, |m| m.code() as u64);
    let depth = (e.depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    let bound = match e.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    let score = (e.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    mv | depth << 8 | bound << 16 | (generation as u64 & 0x3F) << 18 | score << 32 | 1 << 63
}

#[inline]
fn unpack(data: u64) -> TtEntry {
    let code = (data & 0xFF) as u8;
    TtEntry {
        best: (code as u64 != NO_MOVE_CODE).then(|| Move::from_code(code)),
        depth: ((data >> 8) & 0xFF) as i32 - DEPTH_OFFSET,
        bound: match (data >> 16) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        },
        score: ((data >> 32) & 0xFFFF) as u16 as i16 as i32,
    }
}

#[inline]
fn generation_of(data: u64) -> u8 {
    ((data >> 18) & 0x3F) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let t = TranspositionTable::new(1);
        let e = TtEntry {
            best: Some(Move::hole(7)),
            depth: 9,
            bound: Bound::Lower,
            score: -31000,
        };
        t.store(0xDEAD_BEEF, e);
        assert_eq!(t.probe(0xDEAD_BEEF), Some(e));
        assert_eq!(t.probe(0xDEAD_BEEE), None);
        let pass = TtEntry {
            best: Some(Move::PASS),
            depth: -3,
            bound: Bound::Exact,
            score: 5,
        };
        t.store(42, pass);
        assert_eq!(t.probe(42), Some(pass));
        assert!(t.hashfull() <= 2);
    }

    #[test]
    fn a_move_survives_a_moveless_overwrite() {
        let t = TranspositionTable::new(1);
        let with_move = TtEntry {
            best: Some(Move::hole(3)),
            depth: 4,
            bound: Bound::Exact,
            score: 10,
        };
        t.store(7, with_move);
        t.store(
            7,
            TtEntry {
                best: None,
                depth: 5,
                bound: Bound::Upper,
                score: -20,
            },
        );
        let got = t.probe(7).unwrap();
        assert_eq!(
            (got.best, got.depth, got.score),
            (Some(Move::hole(3)), 5, -20)
        );
    }
}
