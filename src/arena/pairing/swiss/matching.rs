//! A maximum-weight matching in a general graph: Edmonds' blossom algorithm with dual variables,
//! in the O(n³) form Galil's survey describes ("Efficient algorithms for finding maximum
//! matching in graphs", 1986): stages that grow alternating trees, shrink odd cycles into
//! blossoms, expand them when their dual reaches zero, and augment.
//!
//! The graph is dense and small (the players of one round): a symmetric matrix of weights where
//! zero is no edge. Weights are multiplied by two on the way in so that every dual stays an
//! integer; every quantity is non-negative, so the unsigned [`Weight`] serves throughout.

use super::weight::Weight;

const NONE: usize = usize::MAX;

/// `mate[v]`: the vertex matched with `v`, or `v` itself when unmatched. `weights[i][j]` is the
/// weight of edge i–j (zero: no edge); only `i != j` is read.
pub fn max_weight_matching<const N: usize>(weights: &[Vec<Weight<N>>]) -> Vec<usize> {
    let n = weights.len();
    let mut edges = Vec::new();
    for (i, row) in weights.iter().enumerate() {
        for (j, w) in row.iter().enumerate().skip(i + 1) {
            if !w.is_zero() {
                edges.push((i, j, w.shl(1)));
            }
        }
    }
    if edges.is_empty() {
        return (0..n).collect();
    }
    let mut state = State::new(n, edges);
    state.solve();
    (0..n)
        .map(|v| match state.mate[v] {
            NONE => v,
            p => state.endpoint(p),
        })
        .collect()
}

/// The algorithm's state. Vertices are 0..n, blossoms n..2n; an edge k has endpoints 2k (its
/// first vertex) and 2k+1 (its second); `mate[v]` is the remote endpoint of v's matched edge.
struct State<const N: usize> {
    n: usize,
    edges: Vec<(usize, usize, Weight<N>)>,
    neighbours: Vec<Vec<usize>>,
    mate: Vec<usize>,
    /// 0 free, 1 S (outer), 2 T (inner); 5 a breadcrumb of `scan_blossom`.
    label: Vec<u8>,
    label_end: Vec<usize>,
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    endpoints: Vec<Vec<usize>>,
    best_edge: Vec<usize>,
    best_edges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<Weight<N>>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

impl<const N: usize> State<N> {
    fn new(n: usize, edges: Vec<(usize, usize, Weight<N>)>) -> Self {
        let mut neighbours = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            neighbours[i].push(2 * k + 1);
            neighbours[j].push(2 * k);
        }
        let max_weight = edges.iter().map(|e| e.2).max().unwrap_or_default();
        let mut dual = vec![max_weight; n];
        dual.extend(std::iter::repeat_n(Weight::zero(), n));
        let mut base: Vec<usize> = (0..n).collect();
        base.extend(std::iter::repeat_n(NONE, n));
        let m = edges.len();
        State {
            n,
            edges,
            neighbours,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base,
            endpoints: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            best_edges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allowed: vec![false; m],
            queue: Vec::new(),
        }
    }

    fn endpoint(&self, p: usize) -> usize {
        let (i, j, _) = self.edges[p / 2];
        if p.is_multiple_of(2) {
            i
        } else {
            j
        }
    }

    fn slack(&self, k: usize) -> Weight<N> {
        let (i, j, w) = &self.edges[k];
        self.dual[*i].add(&self.dual[*j]).sub(&w.shl(1))
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &child in &self.children[b] {
                self.leaves(child, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.label_end[w] = p;
        self.label_end[b] = p;
        self.best_edge[w] = NONE;
        self.best_edge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let mate = self.mate[base];
            self.assign_label(self.endpoint(mate), 1, mate ^ 1);
        }
    }

    /// The base of the blossom that an S–S edge v–w closes, or NONE if it links two trees.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE {
            let b = self.in_blossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.label_end[b]);
                let b = self.in_blossom[v];
                v = self.endpoint(self.label_end[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.unused.pop().expect("a free blossom slot");
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.label_end[bv]);
            v = self.endpoint(self.label_end[bv]);
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            endps.push(self.label_end[bw] ^ 1);
            w = self.endpoint(self.label_end[bw]);
            bw = self.in_blossom[w];
        }
        self.label[b] = 1;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = Weight::zero();
        self.children[b] = path.clone();
        self.endpoints[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.in_blossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        let mut best_to = vec![NONE; 2 * self.n];
        for &child in &path {
            let lists: Vec<Vec<usize>> = match self.best_edges[child].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(child)
                    .into_iter()
                    .map(|leaf| self.neighbours[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.in_blossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = k;
                    }
                }
            }
            self.best_edge[child] = NONE;
        }
        let list: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        let mut best = NONE;
        for &k in &list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.best_edges[b] = Some(list);
        self.best_edge[b] = best;
    }

    fn child_at(&self, b: usize, j: isize) -> usize {
        let len = self.children[b].len() as isize;
        self.children[b][j.rem_euclid(len) as usize]
    }

    fn endp_at(&self, b: usize, j: isize) -> usize {
        let len = self.endpoints[b].len() as isize;
        self.endpoints[b][j.rem_euclid(len) as usize]
    }

    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        for child in self.children[b].clone() {
            self.parent[child] = NONE;
            if child < self.n {
                self.in_blossom[child] = child;
            } else if end_stage && self.dual[child].is_zero() {
                self.expand_blossom(child, end_stage);
            } else {
                for leaf in self.leaves_of(child) {
                    self.in_blossom[leaf] = child;
                }
            }
        }
        if !end_stage && self.label[b] == 2 {
            let entry = self.in_blossom[self.endpoint(self.label_end[b] ^ 1)];
            let len = self.children[b].len() as isize;
            let mut j = self.children[b].iter().position(|&c| c == entry).unwrap() as isize;
            let (step, trick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.label_end[b];
            while j != 0 {
                let far = self.endpoint(p ^ 1);
                self.label[far] = 0;
                let q = self.endp_at(b, j - trick as isize);
                let other = self.endpoint(q ^ trick ^ 1);
                self.label[other] = 0;
                self.assign_label(far, 2, p);
                self.allowed[q / 2] = true;
                j += step;
                p = self.endp_at(b, j - trick as isize) ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = self.child_at(b, j);
            let far = self.endpoint(p ^ 1);
            self.label[far] = 2;
            self.label[bv] = 2;
            self.label_end[far] = p;
            self.label_end[bv] = p;
            self.best_edge[bv] = NONE;
            j += step;
            while self.child_at(b, j) != entry {
                let bv = self.child_at(b, j);
                if self.label[bv] == 1 {
                    j += step;
                    continue;
                }
                let labelled = self
                    .leaves_of(bv)
                    .into_iter()
                    .find(|&leaf| self.label[leaf] != 0);
                if let Some(v) = labelled {
                    self.label[v] = 0;
                    let mate_end = self.mate[self.base[bv]];
                    let m = self.endpoint(mate_end);
                    self.label[m] = 0;
                    self.assign_label(v, 2, self.label_end[v]);
                }
                j += step;
            }
        }
        self.label[b] = 0;
        self.label_end[b] = NONE;
        self.children[b].clear();
        self.endpoints[b].clear();
        self.base[b] = NONE;
        self.best_edges[b] = None;
        self.best_edge[b] = NONE;
        self.unused.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.children[b].len() as isize;
        let i = self.children[b].iter().position(|&c| c == t).unwrap();
        let mut j = i as isize;
        let (step, trick): (isize, usize) = if j & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += step;
            let t = self.child_at(b, j);
            let p = self.endp_at(b, j - trick as isize) ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p));
            }
            j += step;
            let t = self.child_at(b, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p ^ 1));
            }
            let (a, c) = (self.endpoint(p), self.endpoint(p ^ 1));
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        self.children[b].rotate_left(i);
        self.endpoints[b].rotate_left(i);
        self.base[b] = self.base[self.children[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.label_end[bs]);
                let bt = self.in_blossom[t];
                s = self.endpoint(self.label_end[bt]);
                let j = self.endpoint(self.label_end[bt] ^ 1);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.best_edge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.best_edges[b] = None;
            }
            self.allowed.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.in_blossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    for index in 0..self.neighbours[v].len() {
                        let p = self.neighbours[v][index];
                        let k = p / 2;
                        let w = self.endpoint(p);
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut kslack = None;
                        if !self.allowed[k] {
                            let s = self.slack(k);
                            if s.is_zero() {
                                self.allowed[k] = true;
                            }
                            kslack = Some(s);
                        }
                        if self.allowed[k] {
                            if self.label[self.in_blossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.in_blossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.label_end[w] = p ^ 1;
                            }
                        } else if self.label[self.in_blossom[w]] == 1 {
                            let b = self.in_blossom[v];
                            let s = kslack.expect("computed");
                            if self.best_edge[b] == NONE || s < self.slack(self.best_edge[b]) {
                                self.best_edge[b] = k;
                            }
                        } else if self.label[w] == 0 {
                            let s = kslack.expect("computed");
                            if self.best_edge[w] == NONE || s < self.slack(self.best_edge[w]) {
                                self.best_edge[w] = k;
                            }
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // The dual adjustment: the least of the four kinds of delta.
                let mut kind = 1;
                let mut delta = *self.dual[..n].iter().min().expect("vertices");
                let mut delta_edge = NONE;
                let mut delta_blossom = NONE;
                for v in 0..n {
                    if self.label[self.in_blossom[v]] == 0 && self.best_edge[v] != NONE {
                        let d = self.slack(self.best_edge[v]);
                        if d < delta {
                            delta = d;
                            kind = 2;
                            delta_edge = self.best_edge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE
                        && self.label[b] == 1
                        && self.best_edge[b] != NONE
                        && (b < n || self.base[b] != NONE)
                    {
                        let d = self.slack(self.best_edge[b]).half();
                        if d < delta {
                            delta = d;
                            kind = 3;
                            delta_edge = self.best_edge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        kind = 4;
                        delta_blossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        1 => self.dual[v] = self.dual[v].sub(&delta),
                        2 => self.dual[v] = self.dual[v].add(&delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b].add(&delta),
                            2 => self.dual[b] = self.dual[b].sub(&delta),
                            _ => {}
                        }
                    }
                }
                match kind {
                    1 => break,
                    2 | 3 => {
                        self.allowed[delta_edge] = true;
                        let (mut i, j, _) = self.edges[delta_edge];
                        if kind == 2 && self.label[self.in_blossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(delta_blossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Weight<2>;

    fn matrix(n: usize, edges: &[(usize, usize, u64)]) -> Vec<Vec<W>> {
        let mut m = vec![vec![W::zero(); n]; n];
        for &(i, j, w) in edges {
            m[i][j] = W::from_u64(w);
            m[j][i] = W::from_u64(w);
        }
        m
    }

    fn total(m: &[Vec<W>], mate: &[usize]) -> u64 {
        let mut sum = 0;
        for (v, &u) in mate.iter().enumerate() {
            if u > v {
                sum += m[v][u].low();
            }
        }
        sum
    }

    /// Every matching of a small graph, by brute force: the best total.
    fn brute(m: &[Vec<W>], free: u32) -> u64 {
        let Some(v) = (0..m.len()).find(|&v| free & (1 << v) != 0) else {
            return 0;
        };
        let rest = free & !(1 << v);
        let mut best = brute(m, rest);
        for u in 0..m.len() {
            if rest & (1 << u) != 0 && !m[v][u].is_zero() {
                best = best.max(m[v][u].low() + brute(m, rest & !(1 << u)));
            }
        }
        best
    }

    #[test]
    fn known_small_cases() {
        let m = matrix(4, &[(0, 1, 2), (1, 2, 3), (2, 3, 2)]);
        assert_eq!(max_weight_matching(&m), vec![1, 0, 3, 2]);
        // A blossom: the triangle 0-1-2 with a pendant edge.
        let m = matrix(4, &[(0, 1, 6), (0, 2, 6), (1, 2, 6), (2, 3, 7)]);
        assert_eq!(total(&m, &max_weight_matching(&m)), 13);
    }

    #[test]
    fn random_graphs_match_brute_force() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..400 {
            let n = 2 + (round % 9);
            let mut edges = Vec::new();
            for i in 0..n {
                for j in (i + 1)..n {
                    if next() % 3 != 0 {
                        edges.push((i, j, 1 + next() % 12));
                    }
                }
            }
            let m = matrix(n, &edges);
            let mate = max_weight_matching(&m);
            for (v, &u) in mate.iter().enumerate() {
                assert_eq!(mate[u], v);
            }
            assert_eq!(total(&m, &mate), brute(&m, (1 << n) - 1), "graph {edges:?}");
        }
    }
}
