//! The retrograde analysis that builds the table (see the module documentation of
//! [`super`]): stone count by stone count, bounds by least fixpoints in rounds, then the values
//! of the unforced positions by their strongly connected components.

use std::time::{Duration, Instant};

use super::index::{
    for_each_board, index, layer_offset, layer_size, own_rows, rank, turned, MAX_STONES,
};
use super::store::Provenance;
use super::{
    Table, BLOB, CYCLIC_BIT, GAME_LOWER, GAME_ROUND_LOWER, GAME_ROUND_UPPER, GAME_UPPER, LOWER,
    ROUND_LOWER, ROUND_UPPER, UPPER, VALUE,
};
use crate::games::modiar::{analyse, HoleStatus, HOLES};

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

impl Table {
    /// Builds the table in memory (the retrograde analysis described in the module docs).
    pub fn build() -> Table {
        let started = Instant::now();
        let mut blob = vec![0u8; BLOB];
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

/// No child in this move slot.
const NONE: u32 = u32::MAX;
/// No capture among the moves.
const NO_EXIT: i16 = i16::MIN;

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
