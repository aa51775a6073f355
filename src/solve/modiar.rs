//! Modiar solved by retrograde analysis: the value of every board, and perfect play from it.
//!
//! The full statement of what the table means is in `protocol/rules-modiar.md` ("The solution");
//! in short:
//!
//! One entry per board: 0..=42 stones on six holes, C(48, 6) = 12,271,512 entries, each from the
//! mover's point of view (the mover's three holes first), so "South to move" and the mirrored
//! "North to move" share it. Piles are not part of the index: captured stones are out of play,
//! so what remains to be won depends on the board alone (as in the Awari databases). An entry
//! with `n` stones on the board holds ([`Entry`]):
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
//! start, and [`Table::value`] takes the best of its three moves.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::games::modiar::{analyse, Board, HoleStatus, Modiar, HOLES, RING};
use crate::games::{mix64, Game, GameLine, Move, MoveList, Side};

/// Most stones on the board.
pub const MAX_STONES: usize = 42;

/// Binomial coefficients C(n, k) for n <= 48, k <= 6.
const BINOM: [[u32; 7]; 49] = {
    let mut t = [[0u32; 7]; 49];
    let mut n = 0;
    while n < 49 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 7 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Boards with exactly `n` stones: C(n + 5, 5).
pub const fn layer_size(n: usize) -> usize {
    BINOM[n + 5][5] as usize
}

/// Boards with fewer than `n` stones: C(n + 5, 6), where the boards of `n` stones begin.
pub const fn layer_offset(n: usize) -> usize {
    BINOM[n + 5][6] as usize
}

/// Entries in the table: every board of 0..=42 stones, C(48, 6).
pub const POSITIONS: usize = layer_offset(MAX_STONES + 1);

/// Stones on a board and the board's rank among the boards of that many stones (combinatorial
/// number system over the five running sums).
#[inline]
fn rank(b: &Board) -> (usize, usize) {
    let mut sum = 0usize;
    let mut rank = 0usize;
    for (j, &x) in b[..RING - 1].iter().enumerate() {
        sum += x as usize;
        rank += BINOM[sum + j][j + 1] as usize;
    }
    (sum + b[RING - 1] as usize, rank)
}

/// The table index of a board (mover's row first). At most [`MAX_STONES`] stones.
#[inline]
pub fn index(b: &Board) -> usize {
    let (n, r) = rank(b);
    layer_offset(n) + r
}

/// The board as seen by the other player (their row first).
#[inline]
fn turned(b: &Board) -> Board {
    [b[3], b[4], b[5], b[0], b[1], b[2]]
}

/// The margin if the game ended now: the mover's row minus the opponent's.
#[inline]
fn own_rows(b: &Board) -> i32 {
    (b[0] + b[1] + b[2]) as i32 - (b[3] + b[4] + b[5]) as i32
}

/// One table entry, from the mover's point of view (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub value: i32,
    pub lower: i32,
    pub upper: i32,
    /// Bounds that hold whatever rule ends an endless game, as long as it shares out the stones
    /// then on the board somehow: the mover secures at least `game_lower` even if every endless
    /// game gave all the board's stones to the opponent, and the opponent holds the mover to at
    /// most `game_upper` even if it gave them all to the mover. Where they meet, the value rests
    /// on no convention at all (the history-based repetition rule included).
    pub game_lower: i32,
    pub game_upper: i32,
    /// The position lies on a cycle of positions whose value neither side can force.
    pub cyclic: bool,
}

/// What a legal move is worth by the table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveValue {
    pub mv: Move,
    /// Stones the move captures.
    pub captured: u32,
    /// The mover's margin from the stones now on the board: `captured - value(child)`.
    pub value: i32,
}

/// Where a table came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// Read from this cache file.
    Loaded(PathBuf),
    /// Built in this process and saved to this cache file.
    Saved(PathBuf),
    /// Built in this process and kept in memory only (no cache directory, or saving failed).
    InMemory { why: String },
}

/// Counts from a build, for `otau solve` and the tests.
#[derive(Clone, Debug, Default)]
pub struct BuildStats {
    pub elapsed: Duration,
    /// Entries whose bounds differ (value not forced).
    pub unforced: usize,
    /// Of those, entries on a cycle.
    pub cyclic: usize,
    /// Entries whose game-forced bounds differ (value rests on the cycle convention).
    pub game_unforced: usize,
    /// Most rounds one stone count needed.
    pub max_rounds: u32,
}

const MAGIC: &[u8; 8] = b"OTAUMDR\0";
/// Bump whenever the rules or the layout change: an old cache file is then rebuilt.
const FORMAT: u32 = 1;
const HEADER: usize = 8 + 4 + 8;
/// Marks a cyclic entry in its lower bound's round byte.
const CYCLIC_BIT: u8 = 0x80;

// Byte offsets of the sections of the table blob (the cache file is the blob plus a checksum),
// one byte per entry each.
const VALUE: usize = HEADER;
const LOWER: usize = VALUE + POSITIONS;
const UPPER: usize = LOWER + POSITIONS;
const GAME_LOWER: usize = UPPER + POSITIONS;
const GAME_UPPER: usize = GAME_LOWER + POSITIONS;
const ROUND_LOWER: usize = GAME_UPPER + POSITIONS;
const ROUND_UPPER: usize = ROUND_LOWER + POSITIONS;
const GAME_ROUND_LOWER: usize = ROUND_UPPER + POSITIONS;
const GAME_ROUND_UPPER: usize = GAME_ROUND_LOWER + POSITIONS;
const BLOB: usize = GAME_ROUND_UPPER + POSITIONS;

/// The solved table: 9 bytes an entry, about 110 MB, one blob laid out exactly as the cache file.
pub struct Table {
    blob: Vec<u8>,
    provenance: Provenance,
    stats: Option<BuildStats>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("bytes", &self.blob.len())
            .field("provenance", &self.provenance)
            .finish()
    }
}

/// The table of this process (see [`Table::get`]).
static TABLE: OnceLock<Table> = OnceLock::new();

/// The name of the cache file inside the cache directory.
pub fn cache_file_name() -> String {
    format!("modiar-v{FORMAT}.table")
}

impl Table {
    /// The table of this process: loaded from the cache file, or built (under a minute) and saved
    /// there on first use. See [`crate::solve::cache_dir`] for the location.
    pub fn get() -> &'static Table {
        TABLE.get_or_init(|| Table::load_or_build(crate::solve::cache_dir().as_deref()))
    }

    /// The table of this process if [`Table::get`] has finished loading or building it: never
    /// waits (reading takes 0.3-2.4 s, a build about 10 s, far more than a move on a clock).
    pub fn loaded() -> Option<&'static Table> {
        TABLE.get()
    }

    /// Loads the table from `dir`, or builds it and saves it there (written to a temporary file
    /// and renamed, so a reader never sees a partial file). A missing, stale or damaged file is
    /// rebuilt; a directory that cannot be written leaves the table in memory.
    pub fn load_or_build(dir: Option<&Path>) -> Table {
        let Some(dir) = dir else {
            let mut t = Table::build();
            t.provenance = Provenance::InMemory {
                why: "no cache directory".into(),
            };
            return t;
        };
        let path = dir.join(cache_file_name());
        if let Ok(t) = Table::load(&path) {
            return t;
        }
        let mut t = Table::build();
        t.provenance = match t.save(&path) {
            Ok(()) => Provenance::Saved(path),
            Err(e) => Provenance::InMemory {
                why: format!("could not write {}: {e}", path.display()),
            },
        };
        t
    }

    /// Reads and checks a cache file.
    pub fn load(path: &Path) -> std::io::Result<Table> {
        let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
        let mut file = fs::File::open(path)?;
        let len = file.metadata()?.len();
        if len != (BLOB + 8) as u64 {
            return Err(bad("wrong size"));
        }
        let mut blob = vec![0u8; BLOB];
        file.read_exact(&mut blob)?;
        let mut sum = [0u8; 8];
        file.read_exact(&mut sum)?;
        if &blob[..8] != MAGIC
            || blob[8..12] != FORMAT.to_le_bytes()
            || blob[12..20] != (POSITIONS as u64).to_le_bytes()
        {
            return Err(bad("not a Modiar table of this version"));
        }
        if checksum(&blob) != u64::from_le_bytes(sum) {
            return Err(bad("checksum mismatch"));
        }
        Ok(Table {
            blob,
            provenance: Provenance::Loaded(path.to_path_buf()),
            stats: None,
        })
    }

    /// Writes the table to `path` atomically (temporary file in the same directory, then rename).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
        let result = (|| {
            let mut file = fs::File::create(&tmp)?;
            file.write_all(&self.blob)?;
            file.write_all(&checksum(&self.blob).to_le_bytes())?;
            file.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    pub fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    /// Build counts, when this table was built in this process.
    pub fn stats(&self) -> Option<&BuildStats> {
        self.stats.as_ref()
    }

    /// Size of the table in bytes (the cache file is 8 bytes more).
    pub fn bytes(&self) -> usize {
        self.blob.len()
    }

    #[inline]
    fn byte(&self, section: usize, i: usize) -> i32 {
        self.blob[section + i] as i8 as i32
    }

    /// The entry of a board given from the mover's point of view (mover's row first).
    #[inline]
    pub fn entry(&self, board: &Board) -> Entry {
        let i = index(board);
        Entry {
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

    /// Every legal move with its table value (empty when the game is over).
    pub fn move_values(&self, pos: &Modiar) -> Vec<MoveValue> {
        let board = Table::mover_board(pos);
        let a = analyse(&board, 0, !pos.is_first_move());
        (0..HOLES)
            .filter(|&h| a.status[h] == HoleStatus::Legal)
            .map(|h| {
                let captured = a.sowing[h].captured as i32;
                let child = self.entry(&turned(&a.after[h]));
                MoveValue {
                    mv: Move::hole(h),
                    captured: captured as u32,
                    value: captured - child.value,
                }
            })
            .collect()
    }

    /// The margin the side to move secures with best play from the stones on the board (piles
    /// left out): their final share of the board minus the opponent's. On the game's first move
    /// (which captures nothing and is not in the table) it is the best of the three moves.
    pub fn value(&self, pos: &Modiar) -> i32 {
        if pos.is_first_move() {
            return self
                .move_values(pos)
                .iter()
                .map(|m| m.value)
                .max()
                .unwrap_or_else(|| own_rows(&Table::mover_board(pos)));
        }
        self.entry(&Table::mover_board(pos)).value
    }

    /// The bounds the side to move and the opponent can force all the way to the end of the game
    /// (see [`Entry::game_lower`]); equal bounds mean the value does not rest on any convention
    /// for endless play. On the first move: the bounds over its three moves.
    pub fn game_bounds(&self, pos: &Modiar) -> (i32, i32) {
        let board = Table::mover_board(pos);
        if !pos.is_first_move() {
            let e = self.entry(&board);
            return (e.game_lower, e.game_upper);
        }
        let a = analyse(&board, 0, false);
        let (mut lo, mut hi) = (i32::MIN, i32::MIN);
        for h in (0..HOLES).filter(|&h| a.status[h] == HoleStatus::Legal) {
            let child = self.entry(&turned(&a.after[h]));
            lo = lo.max(-child.game_upper);
            hi = hi.max(-child.game_lower);
        }
        if lo == i32::MIN {
            let rows = own_rows(&board);
            return (rows, rows);
        }
        (lo, hi)
    }

    /// The final margin of the whole game with best play, piles included, for the side to move.
    pub fn final_margin(&self, pos: &Modiar) -> i32 {
        let me = pos.side_to_move();
        self.value(pos) + pos.store(me) as i32 - pos.store(me.other()) as i32
    }

    /// Final totals (South, North) with best play from here.
    pub fn final_totals(&self, pos: &Modiar) -> [u32; 2] {
        let board = pos.board_stones() as i32;
        let mover = (board + self.value(pos)) / 2;
        let me = pos.side_to_move();
        let mut totals = [pos.store(Side::South), pos.store(Side::North)];
        totals[me.index()] += mover as u32;
        totals[me.other().index()] += (board - mover) as u32;
        totals
    }

    /// The moves that keep the table's value, the engine's choice first. Empty when the game is
    /// over. The guarantee in full is in `protocol/rules-modiar.md` ("How the engine plays from
    /// it"); in short, every move returned in a non-cyclic position is worth exactly the
    /// position's value, with the progress that makes a forced value happen:
    ///
    /// - `value == game_lower` (every position whose value rests on no convention, the start's
    ///   moves included): a capture worth at least `game_lower` by the smaller board's
    ///   `game_upper`, or a move to a reply whose `game_upper` allows no more than `-game_lower`
    ///   and was settled in an earlier round. Played move after move, such moves never repeat a
    ///   position and end the game with at least the value for real, whatever the opponent does
    ///   and whatever the repetition rule.
    /// - `value == lower > game_lower`: the moves that keep forcing `lower` within the stone
    ///   count, with that fixpoint's progress (one always exists, and each is worth the value).
    /// - other non-cyclic positions: the moves of the minimax value.
    /// - cyclic positions, where the convention scores the position itself and no move need be
    ///   worth its value: the moves of the value where there are any; else, among the moves that
    ///   keep `game_lower` with its progress, those that keep the opponent from forcing less than
    ///   `upper`, rated highest (the highest rated of them if none does).
    ///
    /// The value comes before the game-forced bound: restricting the moves to those that keep
    /// `game_lower` by its progress test first (which judges by the round a reply's bound last
    /// changed, no distance for a weaker target) made the engine give up the value in 336
    /// positions. Among the moves kept, those that also keep `game_lower` with its progress come
    /// first, then the fastest progress within the stone count. On the first move of the game
    /// (which captures nothing and can never recur) the moves of the best value are returned.
    pub fn best_moves(&self, pos: &Modiar) -> MoveList {
        let mut out = MoveList::new();
        let values = self.move_values(pos);
        let Some(best) = values.iter().map(|m| m.value).max() else {
            return out;
        };
        if pos.is_first_move() {
            values
                .iter()
                .filter(|m| m.value == best)
                .for_each(|m| out.push(m.mv));
            return out;
        }
        let board = Table::mover_board(pos);
        let n = board.iter().map(|&x| x as i32).sum::<i32>();
        let i = index(&board);
        let e = self.entry(&board);
        let a = analyse(&board, 0, true);
        let child_index = |m: &MoveValue| index(&turned(&a.after[m.mv.index()]));
        // Whether a move keeps forcing `target`, and its progress rank (lower is faster). The
        // sections name what a capture's smaller board counts for, the reply's upper bound, and
        // the rounds of the bounds in play.
        let forces = |m: &MoveValue,
                      target: i32,
                      [exit, upper, round_upper, round_lower]: [usize; 4]|
         -> Option<u8> {
            let c = child_index(m);
            if target == -n {
                Some(0) // nothing to force: every move gives at least the minimum
            } else if m.captured > 0 {
                (m.captured as i32 - self.byte(exit, c) >= target).then_some(0)
            } else {
                let round = self.blob[round_upper + c];
                (-self.byte(upper, c) >= target && round < self.blob[round_lower + i] & !CYCLIC_BIT)
                    .then_some(round + 1)
            }
        };
        const GAME: [usize; 4] = [GAME_UPPER, GAME_UPPER, GAME_ROUND_UPPER, GAME_ROUND_LOWER];
        const LAYER: [usize; 4] = [VALUE, UPPER, ROUND_UPPER, ROUND_LOWER];
        // Every move rated: (rated value, game progress, layer progress, move), a progress of
        // `u8::MAX` meaning the move does not keep forcing that bound.
        let mut rated: Vec<(i32, u8, u8, MoveValue)> = values
            .iter()
            .map(|m| {
                (
                    m.value,
                    forces(m, e.game_lower, GAME).unwrap_or(u8::MAX),
                    forces(m, e.lower, LAYER).unwrap_or(u8::MAX),
                    *m,
                )
            })
            .collect();
        let keeps_upper = |m: &MoveValue| {
            if m.captured > 0 {
                m.value >= e.upper
            } else {
                -self.byte(LOWER, child_index(m)) >= e.upper
            }
        };
        // The moves that keep the position's value, each with the progress that makes the value
        // happen rather than be promised for ever. The value comes first: where it rests on the
        // convention, keeping the game-forced bound as well is only a preference (64 positions
        // allow no move that does both).
        let keeps = |&(value, game, layer, m): &(i32, u8, u8, MoveValue)| {
            if e.value == e.game_lower {
                game != u8::MAX
            } else if e.value == e.lower {
                layer != u8::MAX
            } else if !e.cyclic {
                value == e.value
            } else {
                value == e.value || keeps_upper(&m)
            }
        };
        // A cyclic position's value scores the position itself, not a move: where no move is
        // worth it, the game-forced bound, the one real guarantee, restricts the moves first
        // (moves that give it up there let the repetition rule end the game below it).
        if e.cyclic && rated.iter().all(|r| r.0 != e.value) {
            rated.retain(|r| r.1 != u8::MAX);
        }
        let mut chosen: Vec<_> = rated.iter().filter(|r| keeps(r)).copied().collect();
        debug_assert!(
            e.cyclic || !chosen.is_empty(),
            "no move keeps the value in {pos}"
        );
        if chosen.is_empty() {
            chosen = rated;
        }
        let top = chosen.iter().map(|r| r.0).max();
        chosen.retain(|r| Some(r.0) == top);
        chosen.sort_by_key(|&(_, game, layer, m)| (game, layer, m.mv));
        for (_, _, _, m) in chosen {
            out.push(m.mv);
        }
        out
    }

    /// Plays the first of [`Table::best_moves`] for both sides from `pos` until the game ends
    /// (by no moves or by the third repetition) or `max_plies` moves were played.
    pub fn principal_variation(&self, pos: &Modiar, max_plies: usize) -> GameLine<Modiar> {
        let mut line = GameLine::new(*pos);
        while !line.is_over() && line.moves().len() < max_plies {
            let best = self.best_moves(line.position());
            let Some(&mv) = best.first() else { break };
            line.play(mv).expect("the table's move is legal");
        }
        line
    }

    /// Builds the table in memory (the retrograde analysis described in the module docs).
    pub fn build() -> Table {
        let started = Instant::now();
        let mut blob = vec![0u8; BLOB];
        blob[..8].copy_from_slice(MAGIC);
        blob[8..12].copy_from_slice(&FORMAT.to_le_bytes());
        blob[12..20].copy_from_slice(&(POSITIONS as u64).to_le_bytes());
        let mut stats = BuildStats::default();
        for n in 0..=MAX_STONES {
            solve_layer(&mut blob, n, &mut stats);
        }
        stats.elapsed = started.elapsed();
        Table {
            blob,
            provenance: Provenance::InMemory {
                why: "built by Table::build".into(),
            },
            stats: Some(stats),
        }
    }
}

/// A 64-bit checksum of the blob (SplitMix64 finaliser over 8-byte words).
fn checksum(data: &[u8]) -> u64 {
    let mut h = 0x6d6f_6469_6172_u64;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        h = mix64(h ^ u64::from_le_bytes(c.try_into().expect("8 bytes")));
    }
    for &b in chunks.remainder() {
        h = mix64(h ^ b as u64);
    }
    h
}

/// No child in this move slot.
const NONE: u32 = u32::MAX;
/// No capture among the moves.
const NO_EXIT: i16 = i16::MIN;

/// Calls `f` with every board of exactly `n` stones.
fn for_each_board(n: usize, mut f: impl FnMut(&Board)) {
    let n = n as u8;
    let mut b = [0u8; RING];
    for a0 in 0..=n {
        b[0] = a0;
        for a1 in 0..=n - a0 {
            b[1] = a1;
            for a2 in 0..=n - a0 - a1 {
                b[2] = a2;
                for a3 in 0..=n - a0 - a1 - a2 {
                    b[3] = a3;
                    for a4 in 0..=n - a0 - a1 - a2 - a3 {
                        b[4] = a4;
                        b[5] = n - a0 - a1 - a2 - a3 - a4;
                        f(&b);
                    }
                }
            }
        }
    }
}

/// Forced bounds of one stone count and the round each became final in.
struct Bounds {
    lower: Vec<i8>,
    upper: Vec<i8>,
    round_lower: Vec<u8>,
    round_upper: Vec<u8>,
    rounds: u32,
}

/// The capture-free moves of one stone count: successors by layer rank, and the reverse edges.
struct Layer {
    n: usize,
    child: Vec<u32>,
    /// `preds[start[q]..start[q + 1]]`: the positions with a move to `q`.
    start: Vec<u32>,
    preds: Vec<u32>,
    terminal: Vec<bool>,
    rows: Vec<i8>,
}

impl Layer {
    #[inline]
    fn children(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        self.child[HOLES * p..HOLES * p + HOLES]
            .iter()
            .filter(|&&c| c != NONE)
            .map(|&c| c as usize)
    }

    /// Two least fixpoints at once, each of `lower = max(exit_lo, -upper(child))`,
    /// `upper = max(exit_hi, -lower(child))` from `-n`/`+n`: the table's bounds (`exits[p][0..2]`,
    /// captures worth their value) and the game-forced bounds (`exits[p][2..4]`, captures worth
    /// the smaller board's game bounds). They share the graph, so one pass serves both. The
    /// iteration goes in rounds: each recomputes, from the previous round's bounds, the
    /// predecessors of what the last round changed, and the round a bound last changed in is
    /// kept as the forcing strategy's progress measure.
    fn bounds(&self, exits: &[[i16; 4]]) -> (Bounds, Bounds) {
        let size = self.rows.len();
        let n = self.n as i8;
        // lower, upper, game lower, game upper
        let mut state = vec![[0i8; 4]; size];
        let mut rounds = vec![[0u8; 4]; size];
        let mut dirty: Vec<u32> = Vec::new();
        for p in 0..size {
            let e = exits[p];
            state[p] = if self.terminal[p] {
                [self.rows[p]; 4]
            } else if self.children(p).next().is_some() {
                dirty.push(p as u32);
                [e[0].max(-n as i16) as i8, n, e[2].max(-n as i16) as i8, n]
            } else {
                e.map(|x| x as i8)
            };
        }
        let mut seen = vec![0u8; size];
        let mut updates: Vec<(u32, [i8; 4])> = Vec::new();
        let mut round = 0u32;
        loop {
            updates.clear();
            for &p in &dirty {
                let p = p as usize;
                let mut v = exits[p];
                for &c in &self.child[HOLES * p..HOLES * p + HOLES] {
                    if c != NONE {
                        let s = state[c as usize].map(|x| x as i16);
                        v = [
                            v[0].max(-s[1]),
                            v[1].max(-s[0]),
                            v[2].max(-s[3]),
                            v[3].max(-s[2]),
                        ];
                    }
                }
                let v = v.map(|x| x as i8);
                if v != state[p] {
                    updates.push((p as u32, v));
                }
            }
            if updates.is_empty() {
                break;
            }
            round += 1;
            assert!(
                round < CYCLIC_BIT as u32,
                "more rounds than the table's round bytes hold"
            );
            dirty.clear();
            for &(p, v) in &updates {
                let p = p as usize;
                for k in 0..4 {
                    if v[k] != state[p][k] {
                        debug_assert!(if k % 2 == 0 {
                            v[k] > state[p][k]
                        } else {
                            v[k] < state[p][k]
                        });
                        rounds[p][k] = round as u8;
                    }
                }
                state[p] = v;
                for &q in &self.preds[self.start[p] as usize..self.start[p + 1] as usize] {
                    if seen[q as usize] != round as u8 {
                        seen[q as usize] = round as u8;
                        dirty.push(q);
                    }
                }
            }
        }
        let split = |k: usize| Bounds {
            lower: state.iter().map(|s| s[k]).collect(),
            upper: state.iter().map(|s| s[k + 1]).collect(),
            round_lower: rounds.iter().map(|r| r[k]).collect(),
            round_upper: rounds.iter().map(|r| r[k + 1]).collect(),
            rounds: round,
        };
        (split(0), split(2))
    }
}

/// Solves the boards of `n` stones, all smaller boards being solved.
fn solve_layer(blob: &mut [u8], n: usize, stats: &mut BuildStats) {
    let size = layer_size(n);
    let base = layer_offset(n);
    let mut layer = Layer {
        n,
        child: vec![NONE; HOLES * size],
        start: vec![0; size + 1],
        preds: Vec::new(),
        terminal: vec![false; size],
        rows: vec![0; size],
    };
    // Best capture by the table's values (twice: lower and upper), and by the game-forced bounds.
    let mut exits = vec![[NO_EXIT; 4]; size];
    let get = |section: usize, i: usize| blob[section + i] as i8 as i16;
    for_each_board(n, |b| {
        let (_, r) = rank(b);
        layer.rows[r] = own_rows(b) as i8;
        let a = analyse(b, 0, true);
        if !a.has_moves() {
            layer.terminal[r] = true;
            return;
        }
        for h in 0..HOLES {
            if a.status[h] != HoleStatus::Legal {
                continue;
            }
            let next = turned(&a.after[h]);
            let captured = a.sowing[h].captured as i16;
            if captured > 0 {
                let i = index(&next);
                let v = captured - get(VALUE, i);
                let e = &mut exits[r];
                *e = [
                    e[0].max(v),
                    e[1].max(v),
                    e[2].max(captured - get(GAME_UPPER, i)),
                    e[3].max(captured - get(GAME_LOWER, i)),
                ];
            } else {
                layer.child[HOLES * r + h] = rank(&next).1 as u32;
            }
        }
    });
    for &c in &layer.child {
        if c != NONE {
            layer.start[c as usize + 1] += 1;
        }
    }
    for i in 0..size {
        layer.start[i + 1] += layer.start[i];
    }
    let mut fill = layer.start.clone();
    layer.preds = vec![0u32; layer.start[size] as usize];
    for (slot, &c) in layer.child.iter().enumerate() {
        if c != NONE {
            layer.preds[fill[c as usize] as usize] = (slot / HOLES) as u32;
            fill[c as usize] += 1;
        }
    }
    drop(fill);

    let (mut forced, game) = layer.bounds(&exits);
    stats.game_unforced += (0..size).filter(|&p| game.lower[p] < game.upper[p]).count();
    stats.max_rounds = stats.max_rounds.max(forced.rounds);
    let exit: Vec<i16> = exits.iter().map(|e| e[0]).collect();
    drop(exits);
    let value = values(&layer, &exit, &mut forced, stats);

    let put = |blob: &mut [u8], section: usize, data: &[u8]| {
        blob[section + base..section + base + size].copy_from_slice(data)
    };
    let bytes = |v: &[i8]| v.iter().map(|&x| x as u8).collect::<Vec<u8>>();
    put(blob, VALUE, &bytes(&value));
    put(blob, LOWER, &bytes(&forced.lower));
    put(blob, UPPER, &bytes(&forced.upper));
    put(blob, GAME_LOWER, &bytes(&game.lower));
    put(blob, GAME_UPPER, &bytes(&game.upper));
    put(blob, ROUND_LOWER, &forced.round_lower);
    put(blob, ROUND_UPPER, &forced.round_upper);
    put(blob, GAME_ROUND_LOWER, &game.round_lower);
    put(blob, GAME_ROUND_UPPER, &game.round_upper);
}

/// The values of one stone count: the forced value where the bounds meet; where they do not,
/// Tarjan's strongly connected components over the unforced positions decide: a component with
/// a cycle takes the own-row margin clamped into the bounds (and is marked cyclic in
/// `round_lower`), any other position its minimax value (components come out successors first).
fn values(layer: &Layer, exit: &[i16], b: &mut Bounds, stats: &mut BuildStats) -> Vec<i8> {
    let size = layer.rows.len();
    let mut value = b.lower.clone();
    let unforced = |p: usize| b.lower[p] < b.upper[p];
    let mut order = vec![NONE; size];
    let mut low = vec![0u32; size];
    let mut on_stack = vec![false; size];
    let mut stack: Vec<u32> = Vec::new();
    let mut calls: Vec<(u32, u8)> = Vec::new();
    let mut counter = 0u32;
    let mut cyclic: Vec<u32> = Vec::new();
    for root in 0..size {
        if !unforced(root) || order[root] != NONE {
            continue;
        }
        calls.push((root as u32, 0));
        while let Some(&mut (v, ref mut slot)) = calls.last_mut() {
            let v = v as usize;
            if order[v] == NONE {
                // First visit: number it.
                order[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v as u32);
                on_stack[v] = true;
            }
            if (*slot as usize) < HOLES {
                let w = layer.child[HOLES * v + *slot as usize];
                *slot += 1;
                if w == NONE || !unforced(w as usize) {
                    continue;
                }
                let w = w as usize;
                if order[w] == NONE {
                    calls.push((w as u32, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                let parent = parent as usize;
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] != order[v] {
                continue;
            }
            // v roots a component: pop it.
            let top = stack
                .iter()
                .rposition(|&x| x as usize == v)
                .expect("component root on the stack");
            stats.unforced += stack.len() - top;
            let self_loop = layer.children(v).any(|c| c == v);
            if stack.len() - top > 1 || self_loop {
                for &m in &stack[top..] {
                    let m = m as usize;
                    on_stack[m] = false;
                    value[m] = layer.rows[m].clamp(b.lower[m], b.upper[m]);
                    cyclic.push(m as u32);
                }
            } else {
                on_stack[v] = false;
                let mut best = exit[v];
                for c in layer.children(v) {
                    best = best.max(-(value[c] as i16));
                }
                value[v] = best as i8;
            }
            stack.truncate(top);
        }
    }
    stats.cyclic += cyclic.len();
    for m in cyclic {
        b.round_lower[m as usize] |= CYCLIC_BIT;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection_per_layer() {
        for n in [0, 1, 2, 5, 9] {
            let mut seen = vec![false; layer_size(n)];
            for_each_board(n, |b| {
                let (m, r) = rank(b);
                assert_eq!(m, n);
                assert!(!seen[r], "{b:?}");
                seen[r] = true;
            });
            assert!(seen.iter().all(|&s| s));
        }
        assert_eq!(POSITIONS, 12_271_512);
        assert_eq!(layer_offset(42) + layer_size(42), POSITIONS);
    }
}
