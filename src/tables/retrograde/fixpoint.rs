//! The layered fixpoint both tables are built by. A table is solved stone count by stone count
//! upwards: a capture leads to a smaller board whose value is known (an *exit*, worth a fixed
//! margin), so within one stone count only the quiet moves link positions, into a graph that may
//! have cycles. On that graph each pair of bounds on the mover's margin (the mover's share of the
//! board's `n` stones minus the opponent's) is the least fixpoint of
//!
//! `lower(p) = max(exit_lower(p), max over quiet moves of -upper(child))`,
//! `upper(p) = max(exit_upper(p), max over quiet moves of -lower(child))`,
//!
//! started from `-n` and `+n`: `lower` is what the mover can force with the game ending in finite
//! time, `upper` what the opponent can hold them to.
//!
//! The iteration goes in synchronous rounds: each recomputes, from the previous round's bounds,
//! the predecessors of what the last round changed (through the reverse edges). The round in
//! which a bound last changed is kept: it is the progress measure that lets a player actually
//! force a forced value instead of wandering round a cycle (Modiar's engine plays by it).

/// The quiet moves of one stone count: each position's successors, and the reverse edges.
pub struct Graph {
    /// `succ[start[p]..start[p + 1]]`: the successors of `p`, in move order.
    start: Vec<u32>,
    succ: Vec<u32>,
    /// `preds[pred_start[q]..pred_start[q + 1]]`: the positions with a move to `q`.
    pred_start: Vec<u32>,
    preds: Vec<u32>,
}

impl Graph {
    /// The graph of `start.len() - 1` positions whose successors are `succ[start[p]..start[p+1]]`.
    pub fn new(start: Vec<u32>, succ: Vec<u32>) -> Graph {
        let size = start.len() - 1;
        let mut pred_start = vec![0u32; size + 1];
        for &c in &succ {
            pred_start[c as usize + 1] += 1;
        }
        for i in 0..size {
            pred_start[i + 1] += pred_start[i];
        }
        let mut fill = pred_start.clone();
        let mut preds = vec![0u32; succ.len()];
        for p in 0..size {
            for &c in &succ[start[p] as usize..start[p + 1] as usize] {
                preds[fill[c as usize] as usize] = p as u32;
                fill[c as usize] += 1;
            }
        }
        Graph {
            start,
            succ,
            pred_start,
            preds,
        }
    }

    /// The number of positions (nodes of the graph).
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Whether the graph has no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The successors of `p`, in move order.
    #[inline]
    pub fn children(&self, p: usize) -> &[u32] {
        &self.succ[self.start[p] as usize..self.start[p + 1] as usize]
    }

    #[inline]
    fn parents(&self, p: usize) -> &[u32] {
        &self.preds[self.pred_start[p] as usize..self.pred_start[p + 1] as usize]
    }
}

/// The strongly connected components of a graph's positions for which `include` holds, the
/// moves to other positions left out (Tarjan's algorithm, iterative: Modiar's components are
/// hundreds of thousands of positions deep).
pub struct Components {
    /// Each position's component, numbered in the order Tarjan completes them: a component's
    /// successors come before it. `NOT_INCLUDED` for a position left out.
    pub id: Vec<u32>,
    /// Per component: whether play can come back to its positions (more than one position, or a
    /// move from the position to itself).
    pub cyclic: Vec<bool>,
}

/// The component of a position left out of [`Graph::components`].
pub const NOT_INCLUDED: u32 = u32::MAX;

impl Graph {
    /// The strongly connected components among the positions for which `include` holds.
    pub fn components(&self, include: impl Fn(usize) -> bool) -> Components {
        let size = self.len();
        let mut id = vec![NOT_INCLUDED; size];
        let mut cyclic = Vec::new();
        let mut order = vec![NOT_INCLUDED; size];
        let mut low = vec![0u32; size];
        let mut on_stack = vec![false; size];
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, u32)> = Vec::new();
        let mut counter = 0u32;
        for root in 0..size {
            if !include(root) || order[root] != NOT_INCLUDED {
                continue;
            }
            calls.push((root as u32, 0));
            while let Some(&mut (v, ref mut slot)) = calls.last_mut() {
                let v = v as usize;
                if order[v] == NOT_INCLUDED {
                    order[v] = counter;
                    low[v] = counter;
                    counter += 1;
                    stack.push(v as u32);
                    on_stack[v] = true;
                }
                if let Some(&w) = self.children(v).get(*slot as usize) {
                    *slot += 1;
                    let w = w as usize;
                    if !include(w) {
                        continue;
                    }
                    if order[w] == NOT_INCLUDED {
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
                let c = cyclic.len() as u32;
                cyclic.push(stack.len() - top > 1 || self.children(v).contains(&(v as u32)));
                for &m in &stack[top..] {
                    on_stack[m as usize] = false;
                    id[m as usize] = c;
                }
                stack.truncate(top);
            }
        }
        Components { id, cyclic }
    }
}

/// No capture among a position's moves: the exit bound that never wins a `max`.
pub const NO_EXIT: i16 = i16::MIN;

/// The fixpoint of `W / 2` pairs of bounds (`[lower, upper, lower, upper, ...]`) over one graph.
pub struct Fixpoint<const W: usize> {
    /// The bounds of each position, as the fixpoint left them.
    pub bounds: Vec<[i8; W]>,
    /// The round each bound last changed in (0: never), at most 255.
    pub rounds: Vec<[u8; W]>,
    /// Rounds the iteration took.
    pub last_round: u32,
    /// Positions recomputed, over all rounds.
    pub examined: u64,
}

/// Solves the pairs of bounds of a stone count with `n` stones on the board: `exits[p]` is the
/// best capture of `p` for each bound (each pair may count captures its own way), `terminal(p)`
/// the margin of a position without moves (the game is over there).
///
/// `n` is also where the bounds start: what neither side forces is worth `-n`/`+n`, all the
/// board's stones to the opponent, as in games that share the board out when play goes on for
/// ever (Toguz Kumalak, Modiar). A game that draws it instead (Giuthi) passes a number beyond any
/// margin, so that "nothing forced" stays apart from every margin (`super::giuthi::UNFORCED`).
pub fn solve<const W: usize>(
    graph: &Graph,
    n: usize,
    exits: &[[i16; W]],
    terminal: impl Fn(usize) -> Option<i8>,
) -> Fixpoint<W> {
    let size = graph.len();
    let n = n as i8;
    let mut bounds = vec![[0i8; W]; size];
    let mut rounds = vec![[0u8; W]; size];
    let mut dirty: Vec<u32> = Vec::new();
    for p in 0..size {
        let e = exits[p];
        bounds[p] = if let Some(margin) = terminal(p) {
            [margin; W]
        } else if !graph.children(p).is_empty() {
            dirty.push(p as u32);
            std::array::from_fn(|k| {
                if k % 2 == 0 {
                    e[k].max(-n as i16) as i8
                } else {
                    n
                }
            })
        } else {
            e.map(|x| x as i8)
        };
    }
    // Whether a position is in `dirty` already (cleared as the next round takes it).
    let mut queued = vec![false; size];
    for &p in &dirty {
        queued[p as usize] = true;
    }
    let mut updates: Vec<(u32, [i8; W])> = Vec::new();
    let (mut round, mut examined) = (0u32, 0u64);
    loop {
        updates.clear();
        examined += dirty.len() as u64;
        for &p in &dirty {
            let p = p as usize;
            queued[p] = false;
            let mut v = exits[p];
            for &c in graph.children(p) {
                let s = bounds[c as usize];
                for k in 0..W {
                    // A lower bound from the reply's upper bound, an upper from its lower.
                    v[k] = v[k].max(-(s[k ^ 1] as i16));
                }
            }
            let v = v.map(|x| x as i8);
            if v != bounds[p] {
                updates.push((p as u32, v));
            }
        }
        if updates.is_empty() {
            break;
        }
        round += 1;
        dirty.clear();
        for &(p, v) in &updates {
            let p = p as usize;
            for k in 0..W {
                if v[k] != bounds[p][k] {
                    debug_assert!(if k % 2 == 0 {
                        v[k] > bounds[p][k]
                    } else {
                        v[k] < bounds[p][k]
                    });
                    rounds[p][k] = round.min(u8::MAX as u32) as u8;
                }
            }
            bounds[p] = v;
            for &q in graph.parents(p) {
                if !queued[q as usize] {
                    queued[q as usize] = true;
                    dirty.push(q);
                }
            }
        }
    }
    Fixpoint {
        bounds,
        rounds,
        last_round: round,
        examined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-position cycle with one exit: the mover at 0 can take +2 by capturing, or move to
    /// 1, whose only move returns to 0. Both bounds of 0 settle at +2, and 1 at -2, in one round.
    #[test]
    fn a_cycle_with_an_exit() {
        let graph = Graph::new(vec![0, 1, 2], vec![1, 0]);
        let fix = solve(&graph, 2, &[[2, 2], [NO_EXIT, NO_EXIT]], |_| None);
        assert_eq!(fix.bounds, vec![[2, 2], [-2, -2]]);
        assert_eq!(fix.rounds, vec![[0, 0], [0, 1]]);
        // A cycle without exits: nobody forces anything.
        let fix = solve(&graph, 2, &[[NO_EXIT; 2]; 2], |_| None);
        assert_eq!(fix.bounds, vec![[-2, 2], [-2, 2]]);
    }

    /// 0 -> 1 -> 2 -> 1, 2 -> 3 -> 3, 4 alone: components {3} (a self-loop), {1, 2}, {0}, {4},
    /// successors first; leaving out 2 breaks the cycle.
    #[test]
    fn components_come_successors_first() {
        let graph = Graph::new(vec![0, 1, 2, 4, 5, 5], vec![1, 2, 1, 3, 3]);
        let c = graph.components(|_| true);
        assert_eq!(c.id, vec![2, 1, 1, 0, 3]);
        assert_eq!(c.cyclic, vec![true, true, false, false]);
        let c = graph.components(|p| p != 2);
        assert_eq!(c.id[2], NOT_INCLUDED);
        assert_eq!(c.cyclic.iter().filter(|&&x| x).count(), 1, "only {{3}}");
        assert!(c.id[1] < c.id[0]);
    }
}
