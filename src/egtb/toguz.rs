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
//! Index: side to move first (the board is seen from the mover), then the tuzdik pair, then the
//! stones on the board, then the arrangement of those stones over the holes that are not
//! tuzdiks, ranked by the combinatorial number system (stars and bars).
//!
//! Build: for each stone count upwards, for each tuzdik pair, every position's moves are played
//! with the rules' own [`Toguz::play`]; moves that capture (or feed a tuzdik) lead to smaller,
//! already solved tables; the others stay in the same stone count, where the bounds are found by
//! iterating to a fixed point (low rising from 0, high falling from all stones).

use std::io::{Read, Write};
use std::path::Path;

use crate::games::{Game, Side, Toguz, Variant, MAX_HOLES};
use crate::notation::PositionFields;

/// Bumped whenever the file layout or the meaning of an entry changes.
const FORMAT: u32 = 1;
const MAGIC: &[u8; 8] = b"otauEGTB";
/// Largest stone count a table can hold (two 4-bit bounds per byte).
pub const MAX_STONES_LIMIT: usize = 15;

/// A table's answer for a position: bounds on the stones the side to move secures from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub low: u32,
    pub high: u32,
}

/// Binomial coefficients for the ranking, up to the largest ring plus stones.
struct Binomials {
    c: Vec<Vec<u64>>,
}

impl Binomials {
    fn new(n: usize) -> Binomials {
        let mut c = vec![vec![0u64; n + 1]; n + 1];
        for i in 0..=n {
            c[i][0] = 1;
            for j in 1..=i {
                c[i][j] = c[i - 1][j - 1] + c[i - 1][j];
            }
        }
        Binomials { c }
    }

    #[inline]
    fn get(&self, n: usize, k: usize) -> u64 {
        if k > n {
            0
        } else {
            self.c[n][k]
        }
    }
}

/// The tables of one Toguz board size, for every stone count up to `max_stones`.
pub struct Tables {
    variant: Variant,
    max_stones: usize,
    /// Per stone count, per tuzdik pair (`mine * holes + theirs`, 0 = none): the offset of that
    /// class in `data`, or `usize::MAX` for a pair the rules forbid.
    offsets: Vec<Vec<usize>>,
    /// Bounds, `low | high << 4`.
    data: Vec<u8>,
    binomials: Binomials,
}

/// What a build did, for `otau tables`.
#[derive(Clone, Debug, Default)]
pub struct BuildStats {
    pub positions: u64,
    /// Positions whose bounds differ (a value that depends on endless play).
    pub open: u64,
    /// Positions examined while iterating to the fixed point.
    pub updates: u64,
}

impl Tables {
    fn layout(variant: Variant, max_stones: usize) -> (Vec<Vec<usize>>, usize, Binomials) {
        let n = variant.holes();
        let binomials = Binomials::new(2 * n + max_stones + 1);
        let mut offsets = Vec::new();
        let mut total = 0usize;
        for s in 0..=max_stones {
            let mut row = vec![usize::MAX; n * n];
            for (class, slot) in row.iter_mut().enumerate() {
                let (mine, theirs) = (class / n, class % n);
                if !pair_allowed(variant, mine, theirs) {
                    continue;
                }
                *slot = total;
                total += class_size(&binomials, free_holes(n, mine, theirs), s);
            }
            offsets.push(row);
        }
        (offsets, total, binomials)
    }

    /// Bytes the tables of a variant take up to `max_stones` on the board.
    pub fn size_for(variant: Variant, max_stones: usize) -> usize {
        Tables::layout(variant, max_stones).1
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn max_stones(&self) -> usize {
        self.max_stones
    }

    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// Solves every position with up to `max_stones` stones on the board.
    pub fn build(variant: Variant, max_stones: usize) -> (Tables, BuildStats) {
        assert!(matches!(variant, Variant::Toguz { .. }));
        let max_stones = max_stones.min(MAX_STONES_LIMIT);
        let (offsets, total, binomials) = Tables::layout(variant, max_stones);
        let mut tables = Tables {
            variant,
            max_stones,
            offsets,
            data: vec![0; total],
            binomials,
        };
        let mut stats = BuildStats::default();
        let n = variant.holes();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        for s in 0..=max_stones {
            // A class and its mirror (the tuzdiks seen from the other side) reach each other by
            // quiet moves: solved together, once. Classes of one stone count depend only on
            // smaller counts, so they are solved in parallel.
            let pairs: Vec<(usize, usize)> = (0..n * n)
                .map(|class| (class / n, class % n))
                .filter(|&(m, t)| pair_allowed(variant, m, t) && t * n + m >= m * n + t)
                .collect();
            let next = std::sync::atomic::AtomicUsize::new(0);
            let solved: Vec<(Vec<(usize, u8)>, BuildStats)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| {
                            let mut out = Vec::new();
                            let mut st = BuildStats::default();
                            loop {
                                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                let Some(&pair) = pairs.get(k) else { break };
                                out.extend(tables.solve_classes(s, pair, &mut st));
                            }
                            (out, st)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a table thread panicked"))
                    .collect()
            });
            for (entries, st) in solved {
                for (index, value) in entries {
                    tables.data[index] = value;
                }
                stats.positions += st.positions;
                stats.open += st.open;
                stats.updates += st.updates;
            }
        }
        (tables, stats)
    }

    /// Solves a tuzdik class and its mirror at `s` stones; returns every entry with its index.
    fn solve_classes(
        &self,
        s: usize,
        (mine, theirs): (usize, usize),
        stats: &mut BuildStats,
    ) -> Vec<(usize, u8)> {
        let n = self.variant.holes();
        let classes: Vec<(usize, usize)> = if mine == theirs {
            vec![(mine, theirs)]
        } else {
            vec![(mine, theirs), (theirs, mine)]
        };
        // Every position of the classes, its exits' best bounds and its quiet successors.
        let mut members = Vec::new();
        let mut exit_low = Vec::new();
        let mut exit_high = Vec::new();
        let mut terminal = Vec::new();
        let mut edges: Vec<u32> = Vec::new();
        let mut edge_start = vec![0u32];
        for &(m, t) in &classes {
            let free = free_holes(n, m, t);
            let base = self.offsets[s][m * n + t];
            let size = class_size(&self.binomials, free, s);
            let mut counts = vec![0u8; free];
            for rank in 0..size {
                unrank(&self.binomials, rank as u64, s, &mut counts);
                let pos = self.position(&counts, m, t, s);
                let (lo, hi, is_terminal) = self.expand(&pos, s, &mut edges);
                members.push(base + rank);
                exit_low.push(lo);
                exit_high.push(hi);
                terminal.push(is_terminal);
                edge_start.push(edges.len() as u32);
            }
        }
        // Local numbering for the iteration: the first class, then its mirror.
        let ranges: Vec<(usize, usize)> = classes
            .iter()
            .map(|&(m, t)| {
                let base = self.offsets[s][m * n + t];
                (base, class_size(&self.binomials, free_holes(n, m, t), s))
            })
            .collect();
        let to_local = |global: u32| -> usize {
            let g = global as usize;
            let (base, size) = ranges[0];
            if g >= base && g < base + size {
                g - base
            } else {
                size + g - ranges[1].0
            }
        };
        let count = members.len();
        let mut low: Vec<u8> = (0..count)
            .map(|i| if terminal[i] { 0 } else { exit_low[i] })
            .collect();
        let mut high: Vec<u8> = (0..count)
            .map(|i| {
                let has_quiet = edge_start[i + 1] > edge_start[i];
                if terminal[i] {
                    0
                } else if has_quiet {
                    s as u8
                } else {
                    exit_high[i]
                }
            })
            .collect();
        let local_edges: Vec<u32> = edges.iter().map(|&g| to_local(g) as u32).collect();
        // Predecessors (reverse quiet edges), so that a change re-examines only the positions it
        // can affect: a worklist instead of whole sweeps.
        let mut pred_start = vec![0u32; count + 1];
        for &c in &local_edges {
            pred_start[c as usize + 1] += 1;
        }
        for i in 0..count {
            pred_start[i + 1] += pred_start[i];
        }
        let mut fill = pred_start.clone();
        let mut preds = vec![0u32; local_edges.len()];
        for i in 0..count {
            for &c in &local_edges[edge_start[i] as usize..edge_start[i + 1] as usize] {
                preds[fill[c as usize] as usize] = i as u32;
                fill[c as usize] += 1;
            }
        }
        let mut queued = vec![true; count];
        let mut work: std::collections::VecDeque<u32> = (0..count as u32).collect();
        while let Some(p) = work.pop_front() {
            let i = p as usize;
            queued[i] = false;
            stats.updates += 1;
            let (a, b) = (edge_start[i] as usize, edge_start[i + 1] as usize);
            if a == b || terminal[i] {
                continue;
            }
            let (mut lo, mut hi) = (exit_low[i], exit_high[i]);
            for &c in &local_edges[a..b] {
                lo = lo.max(s as u8 - high[c as usize]);
                hi = hi.max(s as u8 - low[c as usize]);
            }
            if lo != low[i] || hi != high[i] {
                debug_assert!(lo >= low[i] && hi <= high[i]);
                low[i] = lo;
                high[i] = hi;
                for &q in &preds[pred_start[i] as usize..pred_start[i + 1] as usize] {
                    if !queued[q as usize] {
                        queued[q as usize] = true;
                        work.push_back(q);
                    }
                }
            }
        }
        stats.positions += count as u64;
        (0..count)
            .map(|i| {
                stats.open += (low[i] != high[i]) as u64;
                (members[i], low[i] | high[i] << 4)
            })
            .collect()
    }

    /// Plays every move of `pos` (the mover is South): returns the best bounds over the moves that
    /// leave the stone count (from the solved smaller tables), whether the position is terminal,
    /// and appends the indices of the quiet successors to `edges`.
    fn expand(&self, pos: &Toguz, s: usize, edges: &mut Vec<u32>) -> (u8, u8, bool) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return (0, 0, true);
        }
        let (mut lo, mut hi) = (0u8, 0u8);
        for &mv in moves.iter() {
            let mut child = *pos;
            child.play(mv);
            let mine = child.store(Side::South) - pos.store(Side::South);
            let theirs = child.store(Side::North) - pos.store(Side::North);
            let left = s as u32 - mine - theirs;
            let index = self
                .index(&child)
                .expect("a successor has no more stones than its parent");
            if left as usize == s {
                edges.push(index as u32);
            } else {
                let e = self.data[index];
                let (clo, chi) = ((e & 15) as u32, (e >> 4) as u32);
                lo = lo.max((mine + left - chi) as u8);
                hi = hi.max((mine + left - clo) as u8);
            }
        }
        (lo, hi, false)
    }

    /// The position with South to move, `counts` stones on the free holes (South's row, then
    /// North's, skipping tuzdiks), and stores that make the total right without either store
    /// holding a majority.
    fn position(&self, counts: &[u8], mine: usize, theirs: usize, s: usize) -> Toguz {
        let n = self.variant.holes();
        let mut rows = [[0u8; MAX_HOLES]; 2];
        let mut k = 0;
        for (row, tuzdik) in [(0usize, theirs), (1, mine)] {
            for (hole, place) in rows[row][..n].iter_mut().enumerate() {
                if tuzdik != 0 && hole + 1 == tuzdik {
                    continue;
                }
                *place = counts[k];
                k += 1;
            }
        }
        let rest = self.variant.total_stones() - s as u32;
        let fields = PositionFields {
            variant: self.variant,
            rows,
            stores: [rest / 2, rest - rest / 2],
            side: Side::South,
            fullmove: 1,
        };
        let tuzdiks = [
            (mine != 0).then_some(mine as u8),
            (theirs != 0).then_some(theirs as u8),
        ];
        Toguz::from_fields(&fields, tuzdiks).expect("an enumerated position is valid")
    }

    /// The index of a position (seen from its side to move), if its stones are within the tables.
    #[inline]
    pub fn index(&self, pos: &Toguz) -> Option<usize> {
        let n = self.variant.holes();
        let me = pos.side_to_move();
        let (row_me, row_opp) = (pos.row(me), pos.row(me.other()));
        let s: usize = row_me.iter().chain(row_opp).map(|&x| x as usize).sum();
        if s > self.max_stones {
            return None;
        }
        let mine = pos.tuzdik(me).map_or(0, |h| h as usize);
        let theirs = pos.tuzdik(me.other()).map_or(0, |h| h as usize);
        let base = self.offsets[s][mine * n + theirs];
        // Stars and bars: the bar after free hole j sits at (stones so far) + j.
        let mut rank = 0u64;
        let mut sum = 0usize;
        let mut j = 0usize;
        let free = free_holes(n, mine, theirs);
        for (row, tuzdik) in [(row_me, theirs), (row_opp, mine)] {
            for (hole, &c) in row.iter().enumerate() {
                if tuzdik != 0 && hole + 1 == tuzdik {
                    continue;
                }
                if j + 1 == free {
                    break;
                }
                sum += c as usize;
                rank += self.binomials.get(sum + j, j + 1);
                j += 1;
            }
        }
        Some(base + rank as usize)
    }

    /// The bounds of a position, if its stones are within the tables.
    #[inline]
    pub fn probe(&self, pos: &Toguz) -> Option<Bounds> {
        let e = self.data[self.index(pos)?];
        Some(Bounds {
            low: (e & 15) as u32,
            high: (e >> 4) as u32,
        })
    }

    /// Writes the tables (a small header, then the entries).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&FORMAT.to_le_bytes())?;
        f.write_all(&[self.variant.holes() as u8, self.max_stones as u8])?;
        f.write_all(&(self.data.len() as u64).to_le_bytes())?;
        f.write_all(&self.data)?;
        f.flush()?;
        drop(f);
        std::fs::rename(tmp, path)
    }

    /// Reads tables written by [`Tables::save`], checking the header and size.
    pub fn load(path: &Path) -> std::io::Result<Tables> {
        let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
        let mut f = std::io::BufReader::new(std::fs::File::open(path)?);
        let mut header = [0u8; 8 + 4 + 2 + 8];
        f.read_exact(&mut header)?;
        if &header[..8] != MAGIC {
            return Err(bad("not an otau endgame table"));
        }
        if u32::from_le_bytes(header[8..12].try_into().expect("4 bytes")) != FORMAT {
            return Err(bad("endgame table of another format version"));
        }
        let variant = Variant::Toguz { holes: header[12] };
        let max_stones = header[13] as usize;
        if !matches!(header[12], 5 | 7 | 9) || max_stones > MAX_STONES_LIMIT {
            return Err(bad("endgame table header out of range"));
        }
        let (offsets, total, binomials) = Tables::layout(variant, max_stones);
        let len = u64::from_le_bytes(header[14..22].try_into().expect("8 bytes"));
        if len != total as u64 {
            return Err(bad("endgame table size does not match its header"));
        }
        let mut data = vec![0u8; total];
        f.read_exact(&mut data)?;
        Ok(Tables {
            variant,
            max_stones,
            offsets,
            data,
            binomials,
        })
    }
}

/// Whether the rules allow this tuzdik pair (0 = none): never on the last hole, never both on
/// the same number, none at all on boards without tuzdiks.
fn pair_allowed(variant: Variant, mine: usize, theirs: usize) -> bool {
    let n = variant.holes();
    if !variant.has_tuzdik() {
        return mine == 0 && theirs == 0;
    }
    mine < n && theirs < n && (mine == 0 || theirs == 0 || mine != theirs)
}

/// Holes that can hold stones: the whole ring less the tuzdiks.
fn free_holes(n: usize, mine: usize, theirs: usize) -> usize {
    2 * n - (mine != 0) as usize - (theirs != 0) as usize
}

/// Arrangements of `s` stones over `free` holes.
fn class_size(b: &Binomials, free: usize, s: usize) -> usize {
    b.get(s + free - 1, free - 1) as usize
}

/// The arrangement of `s` stones over `counts.len()` holes with the given rank (inverse of the
/// ranking in [`Tables::index`]).
fn unrank(b: &Binomials, mut rank: u64, s: usize, counts: &mut [u8]) {
    let free = counts.len();
    // Bars b_0 < ... < b_{free-2} in 0..s+free-1, colex rank = sum C(b_j, j+1).
    let mut bars = [0usize; 2 * MAX_HOLES];
    let mut top = s + free - 1;
    for j in (0..free - 1).rev() {
        let mut x = top - 1;
        while b.get(x, j + 1) > rank {
            x -= 1;
        }
        bars[j] = x;
        rank -= b.get(x, j + 1);
        top = x;
    }
    let mut prev: isize = -1;
    for j in 0..free - 1 {
        counts[j] = (bars[j] as isize - prev - 1) as u8;
        prev = bars[j] as isize;
    }
    counts[free - 1] = (s as isize + free as isize - 1 - prev - 1) as u8;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AnyGame, Outcome};

    #[test]
    fn ranking_round_trips() {
        let b = Binomials::new(40);
        for (free, s) in [(18, 3), (16, 4), (10, 6), (2, 5), (1, 4)] {
            let size = class_size(&b, free, s);
            let mut counts = vec![0u8; free];
            let mut seen = std::collections::HashSet::new();
            for rank in 0..size {
                unrank(&b, rank as u64, s, &mut counts);
                assert_eq!(counts.iter().map(|&c| c as usize).sum::<usize>(), s);
                assert!(seen.insert(counts.clone()));
            }
        }
    }

    /// Plain minimax over the stones secured, to the end of the game (tiny positions only). The
    /// moves are generated here, ignoring the stores, as the tables do.
    fn secured(pos: &Toguz, depth: u32) -> Option<u32> {
        let s = pos.board_stones();
        let me = pos.side_to_move();
        let moves: Vec<crate::games::Move> = (0..pos.holes())
            .filter(|&i| pos.row(me)[i] > 0)
            .map(crate::games::Move::hole)
            .collect();
        if moves.is_empty() {
            return Some(0);
        }
        if depth == 0 {
            return None;
        }
        let mut best = None;
        for &mv in &moves {
            let mut child = *pos;
            child.play(mv);
            let mine = child.store(me) - pos.store(me);
            let theirs = child.store(me.other()) - pos.store(me.other());
            let left = s - mine - theirs;
            let v = mine + left - secured(&child, depth - 1)?;
            best = Some(best.map_or(v, |b: u32| b.max(v)));
        }
        best
    }

    #[test]
    fn small_tables_agree_with_minimax_and_the_index() {
        let (tables, stats) = Tables::build(Variant::BESTEMSHE, 4);
        assert_eq!(stats.positions as usize, tables.bytes());
        let mut checked = 0;
        let mut idx_seen = vec![false; tables.bytes()];
        // Every position of up to 4 stones: index is a bijection, and where minimax reaches the
        // end within its depth the bounds are that value.
        for s in 0..=4usize {
            let b = &tables.binomials;
            let size = class_size(b, 10, s);
            let mut counts = vec![0u8; 10];
            for rank in 0..size {
                unrank(b, rank as u64, s, &mut counts);
                let pos = tables.position(&counts, 0, 0, s);
                let i = tables.index(&pos).unwrap();
                assert_eq!(i, tables.offsets[s][0] + rank);
                assert!(!idx_seen[i]);
                idx_seen[i] = true;
                let bounds = tables.probe(&pos).unwrap();
                assert!(bounds.low <= bounds.high && bounds.high <= s as u32);
                if let Some(v) = secured(&pos, 9) {
                    assert_eq!((bounds.low, bounds.high), (v, v), "{pos}");
                    checked += 1;
                }
            }
        }
        assert!(idx_seen.iter().all(|&x| x));
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn nine_hole_tables_with_tuzdiks() {
        let (tables, _) = Tables::build(Variant::TOGUZ, 3);
        let pos = match AnyGame::from_position(
            "toguz-kumalak 0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80/79 3/4 s 40",
        )
        .unwrap()
        {
            AnyGame::Toguz(t) => t,
            _ => unreachable!(),
        };
        // South sows 2 from hole 9: one back, one onto North 1 (1 -> 2): captures 2, and North is
        // left with nothing: South secures all 3.
        let b = tables.probe(&pos).unwrap();
        assert_eq!((b.low, b.high), (3, 3));
        let _ = Outcome::Draw;
    }
}
