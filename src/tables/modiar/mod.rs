//! Modiar solved by retrograde analysis: the value of every board, and perfect play from it.
//!
//! The full statement of what the table means is in `protocol/rules-modiar.md` ("The solution");
//! in short:
//!
//! One entry per board: 0..=42 stones on six holes, C(48, 6) = 12,271,512 entries, each from the
//! mover's point of view (the mover's three holes first), so "South to move" and the mirrored
//! "North to move" share it. Piles are not part of the index: captured stones are out of play,
//! so what remains to be won depends on the board alone (as in the Awari databases). An entry
//! with `n` stones on the board holds ([`ModiarEntry`]):
//!
//! - `value`: the margin (the mover's share of the `n` stones minus the opponent's) the mover
//!   secures with best play;
//! - `game_lower`/`game_upper`: what the mover, and the opponent, can force whatever rule ends an
//!   endless game (as long as it shares out the board's stones somehow). Where they meet, the
//!   value holds under the real, history-based repetition rule: the forcing strategies never
//!   repeat a position. They meet in all but 7,652 entries, and at the start;
//! - `lower`/`upper`: the same with captures counted at the smaller board's table value;
//! - where `lower < upper` neither side can force play out of a capture-free cycle: following
//!   Romein and Bal, a position on a cycle of such positions (`cyclic`) takes the value of the
//!   game ending there, each player keeping their own row (clamped into `[lower, upper]`), and the
//!   others their minimax value. Only there can the table and the repetition rule disagree.
//!
//! # Algorithm
//!
//! Boards are solved in order of the stones on them: a capture leads to a smaller board whose
//! value is known, so within one stone count only capture-free moves link positions. For each
//! count both pairs of bounds are least fixpoints of
//! `lower(p) = max over moves of (capture value, -upper(child))` and
//! `upper(p) = max over moves of (capture value, -lower(child))`, started from `-n`/`+n` and
//! iterated in synchronous rounds (each round recomputes, from the previous round's bounds, the
//! positions a change could affect, found through a reverse edge list). The round in which a
//! bound last changed is kept: it is the progress measure that lets the engine actually force a
//! forced value instead of wandering round a cycle. Then the positions with `lower < upper` are
//! split into strongly connected components (Tarjan): components with a cycle are the cyclic
//! positions, and the others get their minimax value in the order Tarjan emits them (successors
//! first).
//!
//! The first move of the game (no capture allowed) is not in the table: it happens once, from the
//! start, and [`ModiarTable::value`] takes the best of its three moves.
//!
//! The files: [`index`] (the index of a board), [`build`] (the retrograde analysis), [`play`]
//! (values and the engine's choice of move), [`history`] (exact values under the real,
//! history-based repetition rule where the table's rest on the convention), [`store`] (the cache
//! file and the process's table).

pub mod build;
pub mod history;
pub mod index;
pub mod play;
pub mod store;

pub use build::ModiarBuildStats;
pub use history::RealRule;
pub use index::{index, layer_offset, layer_size, MAX_STONES, POSITIONS};
pub use play::MoveValue;
pub use store::{cache_file_name, Provenance};

use self::index::turned;
use crate::games::modiar::{Board, Modiar};
use crate::games::{Game, Side};

/// One entry of the Modiar solution, from the mover's point of view (see the module
/// documentation); not a transposition table's `search::tt::TtEntry`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ModiarEntry {
    /// The mover's margin with best play (see the module's documentation).
    pub value: i32,
    /// The margin the mover can force with captures counted at the smaller board's table value.
    pub lower: i32,
    /// The margin the opponent can hold the mover to, the same way.
    pub upper: i32,
    /// Bounds that hold whatever rule ends an endless game, as long as it shares out the stones
    /// then on the board somehow: the mover secures at least `game_lower` even if every endless
    /// game gave all the board's stones to the opponent, and the opponent holds the mover to at
    /// most `game_upper` even if it gave them all to the mover. Where they meet, the value rests
    /// on no convention at all (the history-based repetition rule included).
    pub game_lower: i32,
    /// See `game_lower`.
    pub game_upper: i32,
    /// The position lies on a cycle of positions whose value neither side can force.
    pub cyclic: bool,
}

/// Marks a cyclic entry in its lower bound's round byte.
const CYCLIC_BIT: u8 = 0x80;

// Byte offsets of the sections of the table blob (the cache file's payload), one byte per entry
// each.
const VALUE: usize = 0;
const LOWER: usize = VALUE + POSITIONS;
const UPPER: usize = LOWER + POSITIONS;
const GAME_LOWER: usize = UPPER + POSITIONS;
const GAME_UPPER: usize = GAME_LOWER + POSITIONS;
const ROUND_LOWER: usize = GAME_UPPER + POSITIONS;
const ROUND_UPPER: usize = ROUND_LOWER + POSITIONS;
const GAME_ROUND_LOWER: usize = ROUND_UPPER + POSITIONS;
const GAME_ROUND_UPPER: usize = GAME_ROUND_LOWER + POSITIONS;
const BLOB: usize = GAME_ROUND_UPPER + POSITIONS;

/// The solved Modiar table (the whole game, not a search's `TranspositionTable`): 9 bytes an entry, about 110 MB, one blob, the cache file's payload.
pub struct ModiarTable {
    blob: Vec<u8>,
    provenance: Provenance,
    stats: Option<ModiarBuildStats>,
}

impl std::fmt::Debug for ModiarTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModiarTable")
            .field("bytes", &self.blob.len())
            .field("provenance", &self.provenance)
            .finish()
    }
}

impl ModiarTable {
    /// Where the table came from (read, built and saved, or built only).
    pub fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    /// Build counts, when this table was built in this process.
    pub fn stats(&self) -> Option<&ModiarBuildStats> {
        self.stats.as_ref()
    }

    /// Size of the table in bytes (the cache file adds a header and a checksum, 32 bytes).
    pub fn bytes(&self) -> usize {
        self.blob.len()
    }

    #[inline]
    fn byte(&self, section: usize, i: usize) -> i32 {
        self.blob[section + i] as i8 as i32
    }

    /// The entry of a board given from the mover's point of view (mover's row first).
    #[inline]
    pub fn entry(&self, board: &Board) -> ModiarEntry {
        let i = index(board);
        ModiarEntry {
            value: self.byte(VALUE, i),
            lower: self.byte(LOWER, i),
            upper: self.byte(UPPER, i),
            game_lower: self.byte(GAME_LOWER, i),
            game_upper: self.byte(GAME_UPPER, i),
            cyclic: self.blob[ROUND_LOWER + i] & CYCLIC_BIT != 0,
        }
    }

    /// The position's board from its mover's point of view.
    fn mover_board(pos: &Modiar) -> Board {
        let b = pos.board();
        match pos.side_to_move() {
            Side::South => b,
            Side::North => turned(&b),
        }
    }
}
