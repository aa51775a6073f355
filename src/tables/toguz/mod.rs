//! Endgame tables for Toguz Kumalak: every position with few stones left on the board, solved by
//! retrograde analysis.
//!
//! As in the Awari databases, the stores are left out of the index: what is stored is how many of
//! the stones still on the board the side to move can secure, whatever the stores hold. Who wins
//! then follows from the stores at probe time: the mover's final total is their store plus what
//! they secure. (The majority rule, "a store above half wins at once", only cuts short games
//! whose winner is already fixed, so it changes no result and the table can ignore it.)
//!
//! Positions where neither side can force the game to end (stones circling the board) have no
//! single value without the repetition rule, so each entry is a pair of bounds:
//! - `low`: stones the mover can force, the game ending in finite time, however the opponent plays;
//! - `high`: stones beyond which the opponent can hold the mover, the game ending in finite time.
//!
//! `low == high` for almost every position; a result is proven when the bounds decide it (the
//! mover's store plus `low` above half of all stones is a win, and so on). Forced wins found this
//! way never repeat a position, so the referee's repetition draw cannot intervene.
//!
//! Index ([`index`]): the board seen from the mover, its tuzdik pair and stone count, then the
//! arrangement of the stones ranked by the combinatorial number system.
//!
//! Build ([`build`]): stone count by stone count upwards, captures leading to smaller, solved
//! tables, quiet moves solved by iterating to a fixed point.
//!
//! The file ([`Tables::save`]) is the shared table format
//! ([`crate::tables::storage::file_format`]) with the entries as payload: one byte a position
//! (`low | high << 4`) up to [`MAX_STONES_LIMIT`] stones; above, on 2x5 only (Bestemshe's solve),
//! two bytes (`low`, `high`), and only the layers of the start's parity (captures are even there,
//! so a game never reaches the others).

mod build;
mod index;

pub use build::ToguzBuildStats;

use std::path::Path;

use super::storage::file_format::{self, Kind, Problem};

use super::storage::slot::Slot;
use crate::games::{Toguz, Variant};

/// Largest stone count a table of one byte an entry holds (two 4-bit bounds).
pub const MAX_STONES_LIMIT: usize = 15;
/// Largest stone count of the wide tables (a byte a bound), built for Bestemshe's solution: the
/// largest stone count's graph must fit in memory (C(49, 9) positions of 40 stones, 2x5).
pub const WIDE_STONES_LIMIT: usize = 40;

/// Who takes the stones left on the board when the side to move is stuck: the one rule in which
/// the rule sets a table can be built for differ (`protocol/rules-toguz-kumalak.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StuckRule {
    /// otau's: the stones go to the owner of the row they lie on (the stuck side's opponent).
    RowOwner,
    /// PlayStrategy's Bestemshe: the game ends with the stores as they stand.
    NoOne,
}

impl StuckRule {
    /// The byte the file header keeps it in.
    fn byte(self) -> u8 {
        match self {
            StuckRule::RowOwner => 0,
            StuckRule::NoOne => 1,
        }
    }
}

/// A table's answer for a position: bounds on the stones the side to move secures from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoneBounds {
    /// Stones the side to move secures at least.
    pub low: u32,
    /// Stones the side to move secures at most.
    pub high: u32,
}

/// The tables of one Toguz board size, for every stone count up to `max_stones`.
pub struct Tables {
    variant: Variant,
    max_stones: usize,
    stuck: StuckRule,
    /// Per stone count, per tuzdik pair (`mine * holes + theirs`, 0 = none): the offset of that
    /// class in `data`, or `usize::MAX` for a pair the rules forbid.
    offsets: Vec<Vec<usize>>,
    /// Bounds, `low | high << 4`, or `low, high` when wide. Layers that are not built (the other
    /// parity of a wide board without tuzdiks: captures are even there, so a game never changes
    /// the parity of its board) take no room.
    data: Vec<u8>,
}

impl Tables {
    /// Bytes the tables of a variant take up to `max_stones` on the board.
    pub fn size_for(variant: Variant, max_stones: usize) -> usize {
        Tables::layout(variant, max_stones).1 * entry_width(max_stones)
    }

    /// Two bytes an entry (`low`, `high`) instead of two nibbles: above [`MAX_STONES_LIMIT`].
    #[inline]
    fn is_wide(&self) -> bool {
        entry_width(self.max_stones) == 2
    }

    /// Who takes the stones left when a side cannot move, as the tables were built.
    pub fn stuck_rule(&self) -> StuckRule {
        self.stuck
    }

    /// The board size the tables are for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Stones on the board up to which the tables reach.
    pub fn max_stones(&self) -> usize {
        self.max_stones
    }

    /// Bytes the tables take in memory.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// The bounds of a position, if its stones are within the tables.
    #[inline]
    pub fn probe(&self, pos: &Toguz) -> Option<StoneBounds> {
        let i = self.index(pos)?;
        Some(self.entry(i))
    }

    /// The bounds at an index.
    #[inline]
    fn entry(&self, i: usize) -> StoneBounds {
        if self.is_wide() {
            StoneBounds {
                low: self.data[2 * i] as u32,
                high: self.data[2 * i + 1] as u32,
            }
        } else {
            let e = self.data[i];
            StoneBounds {
                low: (e & 15) as u32,
                high: (e >> 4) as u32,
            }
        }
    }

    /// Stores the bounds at an index.
    fn set_entry(&mut self, i: usize, low: u8, high: u8) {
        if self.is_wide() {
            self.data[2 * i] = low;
            self.data[2 * i + 1] = high;
        } else {
            self.data[i] = low | high << 4;
        }
    }

    /// Writes the tables to `path` in the table file format (parameters: holes, most stones,
    /// the stuck rule).
    pub fn save(&self, path: &Path) -> Result<(), file_format::Error> {
        file_format::write(path, Kind::Toguz, self.params(), &self.data)
    }

    /// The file header's parameters: holes, most stones, the stuck rule.
    fn params(&self) -> [u8; 3] {
        [
            self.variant.holes() as u8,
            self.max_stones as u8,
            self.stuck.byte(),
        ]
    }

    /// The SHA-256 of the tables' content ([`file_format::Digest::of_table`]): what a proof over them
    /// records, and checks before it trusts them (about a second for Bestemshe's 544 MB).
    pub fn digest(&self) -> file_format::Digest {
        file_format::Digest::of_table(Kind::Toguz, self.params(), &self.data)
    }

    /// Reads tables written by [`Tables::save`], checking the header, the size the board and
    /// stone count need, and the checksum.
    pub fn load(path: &Path) -> Result<Tables, file_format::Error> {
        let ([holes, max_stones, stuck], data) = file_format::read(path, Kind::Toguz)?;
        let bad = |why: String| file_format::Error::new(path, Problem::Header(why));
        if !matches!(holes, 5 | 7 | 9)
            || max_stones as usize > stones_limit(Variant::Toguz { holes })
        {
            return Err(bad(format!(
                "Toguz tables of {holes} holes up to {max_stones} stones: the boards have 5, 7 \
                 or 9 holes, the tables at most {MAX_STONES_LIMIT} stones ({WIDE_STONES_LIMIT} \
                 on 2x5)"
            )));
        }
        let stuck = match stuck {
            0 => StuckRule::RowOwner,
            1 => StuckRule::NoOne,
            other => return Err(bad(format!("stuck rule {other}: 0 or 1"))),
        };
        let (variant, max_stones) = (Variant::Toguz { holes }, max_stones as usize);
        let (offsets, total) = Tables::layout(variant, max_stones);
        let bytes = total * entry_width(max_stones);
        if data.len() != bytes {
            return Err(bad(format!(
                "{} bytes of entries, {variant} up to {max_stones} stones has {bytes}",
                data.len()
            )));
        }
        Ok(Tables {
            variant,
            max_stones,
            stuck,
            offsets,
            data,
        })
    }
}

/// The most stones on the board a board's tables can reach: wide tables on 2x5 only.
fn stones_limit(variant: Variant) -> usize {
    if variant.holes() == 5 {
        WIDE_STONES_LIMIT
    } else {
        MAX_STONES_LIMIT
    }
}

/// Bytes an entry takes: two nibbles up to [`MAX_STONES_LIMIT`] stones, two bytes above.
fn entry_width(max_stones: usize) -> usize {
    if max_stones > MAX_STONES_LIMIT {
        2
    } else {
        1
    }
}

/// Stones on the board up to which `otau tables` builds each Toguz board: as far as about a
/// minute of building on one core allows, and memory of the order of the default hash.
pub fn default_max_stones(variant: Variant) -> usize {
    match variant.holes() {
        9 => 8,
        7 => 10,
        _ => 15,
    }
}

/// The tables of this process, one slot a board size.
static TOGUZ: [Slot<Tables>; 3] = [Slot::new(), Slot::new(), Slot::new()];

fn slot(variant: Variant) -> &'static Slot<Tables> {
    &TOGUZ[match variant.holes() {
        9 => 0,
        7 => 1,
        _ => 2,
    }]
}

/// Makes `tables` the ones the search probes for their board size, unless tables for that size
/// were already loaded or installed in this process (then gives them back).
pub fn install(tables: Tables) -> Result<(), Tables> {
    slot(tables.variant()).install(tables)
}

/// The tables of a board size if they have been read (or installed) already: never waits. The
/// search probes through this, after [`is_read`] said the read was over.
pub fn loaded(variant: Variant) -> Option<&'static Tables> {
    slot(variant).loaded()
}

/// Whether the first read of a board size's tables is over (found or not): then [`loaded`] has
/// its final answer.
pub fn is_read(variant: Variant) -> bool {
    slot(variant).is_read()
}

/// The tables of a board size, loaded from the cache directory on first call (None when the file
/// is missing or refused, see [`Tables::load`], or tables are turned off by `OTAU_NO_TABLES`).
/// The first call reads 57 MB (2x9): a search never makes it, see [`crate::search`]'s table
/// loading.
pub fn tables(variant: Variant) -> Option<&'static Tables> {
    slot(variant).get_or_load(|| {
        if std::env::var_os("OTAU_NO_TABLES").is_some() {
            return None;
        }
        let path = super::usable_cache_dir()?.join(super::file_name(variant));
        match Tables::load(&path) {
            Ok(t) => Some(t),
            Err(e) if e.is_missing() => None,
            Err(e) => {
                super::report_problem(format!("{e}; searching without these tables"));
                None
            }
        }
    })
}
