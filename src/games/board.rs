//! The board every game embeds: the ring of holes, the two stores, the side to move and the
//! full-move number. Each game's position is this [`BoardState`] plus the few fields only that game
//! has (Toguz Kumalak's tuzdiks, Giuthi's seed count, Modiar's first-move flag), and the accessors
//! every game shares are written once, over it (see [`super::Game::state`]).
//!
//! Bottom layer: imports only [`super::types`].

use super::types::{Side, MAX_RING};

/// The state every game's position has. A plain value (32 bytes): search copies positions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardState {
    /// Stones per ring place (South's holes then North's); places past `2 * holes` stay 0.
    pub ring: [u8; MAX_RING],
    /// Stones each side has won so far (a store on the board or a pile beside it), South's first.
    pub stores: [u16; 2],
    /// Holes per row.
    pub holes: u8,
    /// The side to move.
    pub side: Side,
    /// Full-move number of the position string (starts at 1, grows after North's turn).
    pub fullmove: u32,
}

impl BoardState {
    /// A start board: `seeds` stones in each of the `2 * holes` holes, South to move, move 1.
    pub const fn start(holes: usize, seeds: u8) -> BoardState {
        let mut ring = [0u8; MAX_RING];
        let mut place = 0;
        while place < 2 * holes {
            ring[place] = seeds;
            place += 1;
        }
        BoardState {
            ring,
            stores: [0, 0],
            holes: holes as u8,
            side: Side::South,
            fullmove: 1,
        }
    }

    /// Holes per row.
    #[inline]
    pub fn n(&self) -> usize {
        self.holes as usize
    }

    /// The ring places holding stones, as bits (bit `i` for ring index `i`). Eight places a
    /// word, without a branch: each byte's top bit is set where the place holds stones, then one
    /// multiply gathers the eight top bits. Listing or counting moves this way costs the same few
    /// instructions however many holes hold stones.
    #[inline]
    pub fn nonempty(&self) -> u32 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const TOP: u64 = 0x8080_8080_8080_8080;
        // Byte i's top bit (bit 8i + 7) times bit 7 (7 - i) of this lands on bit 56 + i; the other
        // products of the top bits fall on distinct bits below 56 or above 63.
        const GATHER: u64 = 0x0002_0408_1020_4081;
        let mut bits = 0;
        for (word, chunk) in self.ring.chunks(8).enumerate() {
            let mut bytes = [0u8; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            let x = u64::from_le_bytes(bytes);
            // Adding 0x7f to the low 7 bits carries into the top bit unless they are all 0.
            let top = (((x & LOW7) + LOW7) | x) & TOP;
            bits |= ((top.wrapping_mul(GATHER) >> 56) as u32) << (8 * word);
        }
        bits
    }

    /// The holes of a player's row holding stones, as bits (bit `i` for their hole `i + 1`).
    #[inline]
    pub fn nonempty_row(&self, side: Side) -> u32 {
        let n = self.n();
        (self.nonempty() >> (side.index() * n)) & ((1 << n) - 1)
    }

    /// The stones in a player's holes, from their own hole 1.
    #[inline]
    pub fn row(&self, side: Side) -> &[u8] {
        let n = self.n();
        &self.ring[side.index() * n..side.index() * n + n]
    }

    /// Stones a player has won so far.
    #[inline]
    pub fn store(&self, side: Side) -> u32 {
        self.stores[side.index()] as u32
    }

    /// Each player's store plus the stones on their own row: the totals when a game ends with
    /// each side keeping what lies on its side.
    pub fn totals_with_rows(&self) -> [u32; 2] {
        Side::BOTH
            .map(|side| self.store(side) + self.row(side).iter().map(|&x| x as u32).sum::<u32>())
    }

    /// Passes the turn to the other side, counting the full move after North's turn.
    #[inline]
    pub fn pass_turn(&mut self) {
        if self.side == Side::North {
            self.fullmove = next_fullmove(self.fullmove);
        }
        self.side = self.side.other();
    }
}

/// The largest full-move number: the most a field of 9 digits holds. A position there stays
/// there (the number no longer grows), so every position a game reaches prints a number its
/// parser reads back.
pub const MAX_FULLMOVE: u32 = 999_999_999;

/// The full-move number after a North move: one more, up to [`MAX_FULLMOVE`].
pub fn next_fullmove(n: u32) -> u32 {
    n.saturating_add(1).min(MAX_FULLMOVE)
}
