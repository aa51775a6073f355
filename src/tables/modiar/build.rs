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
use crate::games::modiar::{analyse, Analysis, Board, HoleStatus, HOLES};
use crate::tables::retrograde::fixpoint::{self, Graph, NOT_INCLUDED, NO_EXIT};

/// Counts from solving Modiar, for `otau solve` and the tests (Toguz's endgame build counts
/// other things: `ToguzBuildStats`).
#[derive(Clone, Debug, Default)]
pub struct ModiarBuildStats {
    /// Time the solve took.
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

/// No child in a move slot.
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

/// The capture-free moves of the boards of `n` stones, by layer rank, in move order; `visit` sees
/// each board (with its rank and its moves analysed) on the way.
pub(super) fn quiet_graph(n: usize, mut visit: impl FnMut(usize, &Board, &Analysis)) -> Graph {
    let size = layer_size(n);
    let mut child = vec![NONE; HOLES * size];
    for_each_board(n, |b| {
        let (_, r) = rank(b);
        let a = analyse(b, 0, true);
        visit(r, b, &a);
        for h in 0..HOLES {
            if a.status[h] == HoleStatus::Legal && a.sowing[h].captured == 0 {
                child[HOLES * r + h] = rank(&turned(&a.after[h])).1 as u32;
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
    Graph::new(start, succ)
}

/// Solves the boards of `n` stones, all smaller boards being solved.
fn solve_layer(blob: &mut [u8], n: usize, stats: &mut ModiarBuildStats) {
    let size = layer_size(n);
    let base = layer_offset(n);
    let mut terminal = vec![false; size];
    let mut rows = vec![0i8; size];
    // Best capture by the table's values (twice: lower and upper), and by the game-forced bounds.
    let mut exits = vec![[NO_EXIT; 4]; size];
    let get = |section: usize, i: usize| blob[section + i] as i8 as i16;
    let graph = quiet_graph(n, |r, b, a| {
        rows[r] = own_rows(b) as i8;
        if !a.has_moves() {
            terminal[r] = true;
            return;
        }
        for h in 0..HOLES {
            let captured = a.sowing[h].captured as i16;
            if a.status[h] != HoleStatus::Legal || captured == 0 {
                continue;
            }
            let i = index(&turned(&a.after[h]));
            let v = captured - get(VALUE, i);
            let e = &mut exits[r];
            *e = [
                e[0].max(v),
                e[1].max(v),
                e[2].max(captured - get(GAME_UPPER, i)),
                e[3].max(captured - get(GAME_LOWER, i)),
            ];
        }
    });
    let layer = Layer {
        graph,
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
/// the strongly connected components over the unforced positions decide: a component with
/// a cycle takes the own-row margin clamped into the bounds (and is marked cyclic in
/// `round_lower`), any other position its minimax value (components come successors first).
fn values(
    layer: &Layer,
    exit: &[i16],
    b: &mut ForcedBounds,
    stats: &mut ModiarBuildStats,
) -> Vec<i8> {
    let size = layer.rows.len();
    let mut value = b.lower.clone();
    let comps = layer.graph.components(|p| b.lower[p] < b.upper[p]);
    // The members of each component, components in order.
    let count = comps.cyclic.len();
    let mut start = vec![0usize; count + 1];
    for &c in comps.id.iter().filter(|&&c| c != NOT_INCLUDED) {
        start[c as usize + 1] += 1;
    }
    for c in 0..count {
        start[c + 1] += start[c];
    }
    let mut fill = start.clone();
    let mut members = vec![0u32; start[count]];
    for p in 0..size {
        let c = comps.id[p];
        if c != NOT_INCLUDED {
            members[fill[c as usize]] = p as u32;
            fill[c as usize] += 1;
        }
    }
    stats.unforced += members.len();
    for c in 0..count {
        let component = &members[start[c]..start[c + 1]];
        if comps.cyclic[c] {
            stats.cyclic += component.len();
            for &m in component {
                let m = m as usize;
                value[m] = layer.rows[m].clamp(b.lower[m], b.upper[m]);
                b.round_lower[m] |= CYCLIC_BIT;
            }
        } else {
            let v = component[0] as usize;
            let mut best = exit[v];
            for c in layer.children(v) {
                best = best.max(-(value[c] as i16));
            }
            value[v] = best as i8;
        }
    }
    value
}
