//! Building the tables: for each stone count upwards, for each tuzdik pair, every position's
//! moves are played with the rules' own [`Toguz::play`]; moves that capture (or feed a tuzdik)
//! lead to smaller, already solved tables; the others stay in the same stone count, where the
//! bounds are found by the shared fixpoint ([`crate::tables::retrograde::fixpoint`]; low rising from 0,
//! high falling from all stones).

use super::index::{class_size, free_holes, layer_built, pair_allowed};
use super::{entry_width, stones_limit, StuckRule, Tables, MAX_STONES_LIMIT};
use crate::games::{Game, Side, Toguz, Variant};
use crate::tables::retrograde::board_index::unrank;
use crate::tables::retrograde::fixpoint::{self, Graph};

/// A solved entry: its index, and its bounds `low`, `high`.
type Solved = (usize, u8, u8);

/// What a Toguz endgame build did, for `otau tables` (Modiar's solve: `ModiarBuildStats`).
#[derive(Clone, Debug, Default)]
pub struct ToguzBuildStats {
    /// Positions in the tables.
    pub positions: u64,
    /// Positions whose bounds differ (a value that depends on endless play).
    pub open: u64,
    /// Positions examined while iterating to the fixed point.
    pub updates: u64,
}

impl Tables {
    /// Solves every position with up to `max_stones` stones on the board, under otau's rules.
    pub fn build(variant: Variant, max_stones: usize) -> (Tables, ToguzBuildStats) {
        Tables::build_with(variant, max_stones, StuckRule::RowOwner, &mut |_, _| {})
    }

    /// Solves every position with up to `max_stones` stones on the board (at most
    /// [`MAX_STONES_LIMIT`], or [`super::WIDE_STONES_LIMIT`] on 2x5) with the given stuck rule, calling
    /// `progress(stones, positions so far)` after each stone count.
    pub fn build_with(
        variant: Variant,
        max_stones: usize,
        stuck: StuckRule,
        progress: &mut dyn FnMut(usize, u64),
    ) -> (Tables, ToguzBuildStats) {
        assert!(matches!(variant, Variant::Toguz { .. }));
        let max_stones = max_stones.min(stones_limit(variant));
        // Vanishing stones keep the stones secured whole only on an even board: the layers
        // of one parity, which wide tables without tuzdiks build (see `layer_built`).
        assert!(
            stuck == StuckRule::RowOwner
                || (!variant.has_tuzdik() && max_stones > MAX_STONES_LIMIT),
            "the stuck rule {stuck:?} needs wide tables of a board without tuzdiks"
        );
        let (offsets, total) = Tables::layout(variant, max_stones);
        let mut tables = Tables {
            variant,
            max_stones,
            stuck,
            offsets,
            data: vec![0; total * entry_width(max_stones)],
        };
        let mut stats = ToguzBuildStats::default();
        let n = variant.holes();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        for s in 0..=max_stones {
            if !layer_built(variant, max_stones, s) {
                continue;
            }
            // A class and its mirror (the tuzdiks seen from the other side) reach each other by
            // quiet moves: solved together, once. Classes of one stone count depend only on
            // smaller counts, so they are solved in parallel.
            let pairs: Vec<(usize, usize)> = (0..n * n)
                .map(|class| (class / n, class % n))
                .filter(|&(m, t)| pair_allowed(variant, m, t) && t * n + m >= m * n + t)
                .collect();
            let next = std::sync::atomic::AtomicUsize::new(0);
            let solved: Vec<(Vec<Solved>, ToguzBuildStats)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| {
                            let mut out = Vec::new();
                            let mut st = ToguzBuildStats::default();
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
                for (index, low, high) in entries {
                    tables.set_entry(index, low, high);
                }
                stats.positions += st.positions;
                stats.open += st.open;
                stats.updates += st.updates;
            }
            progress(s, stats.positions);
        }
        (tables, stats)
    }

    /// Solves a tuzdik class and its mirror at `s` stones; returns every entry with its index.
    fn solve_classes(
        &self,
        s: usize,
        (mine, theirs): (usize, usize),
        stats: &mut ToguzBuildStats,
    ) -> Vec<Solved> {
        let n = self.variant.holes();
        let classes: Vec<(usize, usize)> = if mine == theirs {
            vec![(mine, theirs)]
        } else {
            vec![(mine, theirs), (theirs, mine)]
        };
        // Every position of the classes, its exits' best bounds and its quiet successors. The
        // bounds on the stones the mover secures, `secured`, are solved as bounds on the margin
        // `2 * secured - s` (the shared fixpoint's); a position without moves leaves every stone
        // to the opponent.
        let margin = |secured: u8| 2 * secured as i16 - s as i16;
        let mut members = Vec::new();
        let mut exits: Vec<[i16; 2]> = Vec::new();
        let mut terminal = Vec::new();
        let mut edges: Vec<u32> = Vec::new();
        let mut edge_start = vec![0u32];
        for &(m, t) in &classes {
            let free = free_holes(n, m, t);
            let base = self.offsets[s][m * n + t];
            let size = class_size(free, s);
            let mut counts = vec![0u8; free];
            for rank in 0..size {
                unrank(rank, s, &mut counts);
                let pos = self.position(&counts, m, t, s);
                let (lo, hi, is_terminal) = self.expand(&pos, s, &mut edges);
                members.push(base + rank);
                exits.push([margin(lo), margin(hi)]);
                terminal.push(is_terminal);
                edge_start.push(edges.len() as u32);
            }
        }
        // Local numbering for the iteration: the first class, then its mirror.
        let ranges: Vec<(usize, usize)> = classes
            .iter()
            .map(|&(m, t)| {
                let base = self.offsets[s][m * n + t];
                (base, class_size(free_holes(n, m, t), s))
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
        for e in edges.iter_mut() {
            *e = to_local(*e) as u32;
        }
        let graph = Graph::new(edge_start, edges);
        // A stuck mover: every stone to the opponent (otau), or to no one (margin 0).
        let stuck = match self.stuck {
            StuckRule::RowOwner => -(s as i8),
            StuckRule::NoOne => 0,
        };
        let fix = fixpoint::solve(&graph, s, &exits, |i| terminal[i].then_some(stuck));
        stats.updates += fix.examined;
        stats.positions += count as u64;
        let secured = |m: i8| ((m as i16 + s as i16) / 2) as u8;
        (0..count)
            .map(|i| {
                let [low, high] = fix.bounds[i].map(secured);
                stats.open += (low != high) as u64;
                (members[i], low, high)
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
                let e = self.entry(index);
                let (clo, chi) = (e.low, e.high);
                lo = lo.max((mine + left - chi) as u8);
                hi = hi.max((mine + left - clo) as u8);
            }
        }
        (lo, hi, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Variant;
    use crate::games::{AnyGame, Outcome};

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
            let size = class_size(10, s);
            let mut counts = vec![0u8; 10];
            for rank in 0..size {
                unrank(rank, s, &mut counts);
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
