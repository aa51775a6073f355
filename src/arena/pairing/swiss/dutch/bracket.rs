//! One bracket's pairing, decision by decision (the order of the handbook's sections 3 and 4:
//! moved-down players first, then the remainder's exchanges, then its transpositions).

use super::{Bracket, Graph};
use crate::arena::pairing::swiss::criteria::Place;
use crate::arena::pairing::swiss::weight::Weight;

impl<const N: usize> Graph<'_, N> {
    pub(super) fn pair_bracket(&mut self, b: &Bracket, matched: &mut [bool]) {
        let m = &b.members;
        let size_bits = self.round.context.size_bits;
        // The bracket's own weights: `base[j][i]` for members i < j, j not moved down.
        let mut base: Vec<Vec<Weight<N>>> = vec![Vec::new(); m.len()];
        for j in b.movers..m.len() {
            let place = if j < b.residents_end {
                Place::Current
            } else {
                Place::Next
            };
            base[j] = (0..j).map(|i| self.edge(m[i], m[j], place)).collect();
            for i in 0..j {
                let w = base[j][i];
                self.set(m[i], m[j], w);
            }
        }
        // A remainder pair's weight: fewer exchanges, then the smallest sequence numbers moved.
        let remainder_weight =
            |base: &Vec<Vec<Weight<N>>>, i: usize, j: usize, index: usize, pairs: usize| {
                let w: Weight<N> = base[j][i];
                if w.is_zero() {
                    return w;
                }
                let w = if index < pairs {
                    w.add(&Weight::bit(2 * size_bits + 1))
                } else {
                    w
                };
                w.sub_u64(2 * index as u64)
            };
        self.solve();

        // Which moved-down players are paired here: the most of each score, the highest first.
        let mut group_score = 0;
        let mut left = 0;
        let mut left_matched = 0;
        for i in 0..b.movers {
            let v = m[i];
            if i == 0 || self.score(v) < group_score {
                group_score = self.score(v);
                left = 0;
                left_matched = 0;
                for &u in m[i..].iter().take_while(|&&u| self.score(u) >= group_score) {
                    left += 1;
                    if b.resident(self.mates[u]) {
                        left_matched += 1;
                    }
                }
            }
            if left_matched == 0 {
                continue;
            }
            if left <= left_matched {
                matched[v] = true;
                continue;
            }
            left -= 1;
            if !b.resident(self.mates[v]) {
                for j in b.movers..b.residents_end {
                    let w = base[j][i];
                    if !w.is_zero() {
                        self.set(v, m[j], w.add_u64(1));
                    }
                }
                self.solve();
            }
            if b.resident(self.mates[v]) {
                matched[v] = true;
                left_matched -= 1;
                let residents = (b.residents_end - b.movers) as u64;
                for j in b.movers..b.residents_end {
                    let w = base[j][i];
                    if !w.is_zero() {
                        self.set(v, m[j], w.add_u64(residents + 1));
                    }
                }
            }
        }

        // Their opponents: each the highest resident that still allows the best pairing.
        for i in 0..b.movers {
            let v = m[i];
            if !matched[v] {
                continue;
            }
            // The addend grows only for the edges set (a resident that cannot take this mover
            // keeps the ranks of the others dense), unlike the remainder's loop below, where it
            // grows for every candidate: the two differ on purpose, as bbpPairings' two loops.
            let mut addend = m.len() as u64;
            for j in (b.movers..b.residents_end).rev() {
                if matched[m[j]] {
                    continue;
                }
                let w = base[j][i];
                if !w.is_zero() {
                    self.set(v, m[j], w.add_u64(addend));
                    addend += 1;
                }
            }
            self.solve();
            let mate = self.mates[v];
            matched[mate] = true;
            self.finalise(v, mate);
        }

        // The remainder: the residents not paired with moved-down players; S1 its first
        // `pairs` players.
        let remainder: Vec<usize> = (b.movers..b.residents_end)
            .filter(|&j| self.mates[m[j]] >= b.group_start)
            .collect();
        let pairs = remainder
            .iter()
            .filter(|&&j| self.mates[m[j]] < m[j])
            .count();
        for (y, &j) in remainder.iter().enumerate() {
            for (x, &i) in remainder[..y].iter().enumerate() {
                let w = remainder_weight(&base, i, j, x, pairs);
                self.set(m[i], m[j], w);
            }
        }
        self.solve();
        // A player pairs down when matched with a later player of this score group.
        let pairs_down = |g: &Self, v: usize| g.mates[v] > v && g.mates[v] < b.next_start;
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&i| !pairs_down(self, m[i]))
            .count();

        // S1 players moved to S2, from the bottom of S1 up.
        let mut exchanges_left = exchanges;
        let mut x = pairs;
        while x > 0 && exchanges_left > 0 {
            x -= 1;
            let i = remainder[x];
            let v = m[i];
            if pairs_down(self, v) {
                for &j in &remainder[x + 1..] {
                    let w = remainder_weight(&base, i, j, x, pairs);
                    if !w.is_zero() {
                        self.set(v, m[j], w.sub_u64(1));
                    }
                }
                self.solve();
            }
            let exchange = !pairs_down(self, v);
            if exchange {
                exchanges_left -= 1;
            }
            for &j in &remainder[x + 1..] {
                if exchange {
                    base[j][i] = Weight::zero();
                }
                let w = remainder_weight(&base, i, j, x, pairs);
                self.set(v, m[j], w);
            }
        }

        // S2 players moved to S1, from the top of S2 down.
        let mut exchanges_left = exchanges;
        for (y, &j) in remainder.iter().enumerate().skip(pairs) {
            if exchanges_left <= 1 {
                break;
            }
            let v = m[j];
            let already = pairs_down(self, v);
            if !already {
                for &k in &remainder[y + 1..] {
                    let w = remainder_weight(&base, j, k, y, pairs);
                    if !w.is_zero() {
                        self.set(v, m[k], w.add_u64(1));
                    }
                }
                self.solve();
            }
            if pairs_down(self, v) {
                exchanges_left -= 1;
                for &i in &remainder[..y] {
                    base[j][i] = Weight::zero();
                    self.set(v, m[i], Weight::zero());
                }
                for k in b.residents_end..m.len() {
                    base[k][j] = Weight::zero();
                    self.set(v, m[k], Weight::zero());
                }
            }
            if !already {
                for &k in &remainder[y + 1..] {
                    let w = remainder_weight(&base, j, k, y, pairs);
                    self.set(v, m[k], w);
                }
            }
        }

        // S1 and S2 settled: only S1-S2 edges stay, at their bracket weights.
        for (x, &i) in remainder.iter().enumerate() {
            for &j in &remainder[x + 1..] {
                if !pairs_down(self, m[i]) || pairs_down(self, m[j]) {
                    base[j][i] = Weight::zero();
                }
                let w = base[j][i];
                self.set(m[i], m[j], w);
            }
        }

        // Each S1 player's opponent in order: the highest S2 player that allows the best.
        for &i in &remainder {
            let v = m[i];
            if !pairs_down(self, v) {
                continue;
            }
            // The addend grows for every candidate, set or not (a rank by S2 position), unlike
            // the movers' loop above, where it grows only for the edges set: on purpose, as
            // bbpPairings' two loops.
            let mut addend = 0u64;
            for &j in remainder.iter().rev() {
                if j <= i || matched[m[j]] {
                    continue;
                }
                let w = base[j][i];
                if !w.is_zero() {
                    self.set(v, m[j], w.add_u64(addend));
                }
                addend += 1;
            }
            self.solve();
            let mate = self.mates[v];
            matched[v] = true;
            matched[mate] = true;
            self.finalise(v, mate);
        }
    }
}
