//! The retrograde analysis that builds the table (see the module documentation of
//! [`super`]): stone count by stone count, bounds by least fixpoints in rounds, then the values
//! of the unforced positions by their strongly connected components.

use std::time::{Duration, Instant};

use super::index::{
    for_each_board, index, layer_offset, layer_size, own_rows, rank, turned, MAX_STONES,
};
use super::store::Provenance;
use super::{
    ModiarTable, BLOB, CYCLIC_BIT, GAME_LOWER, GAME_ROUND_LOWER, GAME_ROUND_UPPER, GAME_UPPER,
    LOWER, ROUND_LOWER, ROUND_UPPER, UPPER, VALUE,
};
use crate::games::modiar::{analyse, HoleStatus, HOLES};
use crate::tables::fixpoint::{self, Graph, NO_EXIT};

/// Counts from solving Modiar, for `otau solve` and the tests (Toguz's endgame build counts
/// other things: `ToguzBuildStats`).
#[derive(Clone, Debug, Default)]
pub struct ModiarBuildStats {
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

impl ModiarTable {
    /// Builds the table in memory (the retrograde analysis described in the module docs).
    pub fn build() -> ModiarTable {
        let started = Instant::now();
        let mut blob = vec![0u8; BLOB];
        let mut stats = ModiarBuildStats::default();
        for n in 0..=MAX_STONES {
            solve_layer(&mut blob, n, &mut stats);
        }
        stats.elapsed = started.elapsed();
        ModiarTable {
            blob,
            provenance: Provenance::InMemory {
                why: "built by ModiarTable::build".into(),
            },
            stats: Some(stats),
        }
    }
}

/// Not numbered yet (Tarjan), no child in a move slot.
const NONE: u32 = u32::MAX;

/// Forced bounds of one stone count and the round each became final in: the solver's working
/// state, not an answer (a Toguz table's answer is `toguz::StoneBounds`).
struct ForcedBounds {
    lower: Vec<i8>,
    upper: Vec<i8>,
    round_lower: Vec<u8>,
    round_upper: Vec<u8>,
}

/// The capture-free moves of one stone count, by layer rank, and the margins where play stops.
struct Layer {
    graph: Graph,
    terminal: Vec<bool>,
    rows: Vec<i8>,
}

impl Layer {
    #[inline]
    fn children(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        self.graph.children(p).iter().map(|&c| c as usize)
    }

    /// Two least fixpoints at once ([`fixpoint::solve`]): the table's bounds (`exits[p][0..2]`,
    /// captures worth their value) and the game-forced bounds (`exits[p][2..4]`, captures worth
    /// the smaller board's game bounds). They share the graph, so one pass serves both; the
    /// round a bound last changed in is the forcing strategy's progress measure.
    fn bounds(
        &self,
        n: usize,
        exits: &[[i16; 4]],
        stats: &mut ModiarBuildStats,
    ) -> (ForcedBounds, ForcedBounds) {
        let fix = fixpoint::solve(&self.graph, n, exits, |p| {
            self.terminal[p].then_some(self.rows[p])
        });
        assert!(
            fix.last_round < CYCLIC_BIT as u32,
            "more rounds than the table's round bytes hold"
        );
        stats.max_rounds = stats.max_rounds.max(fix.last_round);
        let split = |k: usize| ForcedBounds {
            lower: fix.bounds.iter().map(|s| s[k]).collect(),
            upper: fix.bounds.iter().map(|s| s[k + 1]).collect(),
            round_lower: fix.rounds.iter().map(|r| r[k]).collect(),
            round_upper: fix.rounds.iter().map(|r| r[k + 1]).collect(),
        };
        (split(0), split(2))
    }
}

/// Solves the boards of `n` stones, all smaller boards being solved.
fn solve_layer(blob: &mut [u8], n: usize, stats: &mut ModiarBuildStats) {
    let size = layer_size(n);
    let base = layer_offset(n);
    let mut child = vec![NONE; HOLES * size];
    let mut terminal = vec![false; size];
    let mut rows = vec![0i8; size];
    // Best capture by the table's values (twice: lower and upper), and by the game-forced bounds.
    let mut exits = vec![[NO_EXIT; 4]; size];
    let get = |section: usize, i: usize| blob[section + i] as i8 as i16;
    for_each_board(n, |b| {
        let (_, r) = rank(b);
        rows[r] = own_rows(b) as i8;
        let a = analyse(b, 0, true);
        if !a.has_moves() {
            terminal[r] = true;
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
                child[HOLES * r + h] = rank(&next).1 as u32;
            }
        }
    });
    let mut start = Vec::with_capacity(size + 1);
    start.push(0u32);
    let mut succ = Vec::new();
    for slots in child.chunks_exact(HOLES) {
        succ.extend(slots.iter().filter(|&&c| c != NONE));
        start.push(succ.len() as u32);
    }
    drop(child);
    let layer = Layer {
        graph: Graph::new(start, succ),
        terminal,
        rows,
    };

    let (mut forced, game) = layer.bounds(n, &exits, stats);
    stats.game_unforced += (0..size).filter(|&p| game.lower[p] < game.upper[p]).count();
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
fn values(
    layer: &Layer,
    exit: &[i16],
    b: &mut ForcedBounds,
    stats: &mut ModiarBuildStats,
) -> Vec<i8> {
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
            if let Some(&w) = layer.graph.children(v).get(*slot as usize) {
                *slot += 1;
                if !unforced(w as usize) {
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
