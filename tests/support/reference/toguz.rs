//! A deliberately plain Toguz Kumalak (all three boards), written from
//! `protocol/rules-toguz-kumalak.md` alone: a Vec ring, one stone at a time, rules checked in the
//! order the rules text states them. Slow and obvious, for differential tests.

use otau::games::{AnyGame, Game, Outcome, Side};

/// The plain implementation: a Vec ring, one stone at a time, rules checked in the order the
/// rules text states them.
#[derive(Clone, Debug)]
pub struct Plain {
    pub n: usize,
    pub holes: Vec<u32>,
    pub stores: [u32; 2],
    /// Hole index on the ring owned as a tuzdik by each side.
    pub tuzdik: [Option<usize>; 2],
    pub side: usize,
}

impl Plain {
    pub fn start(n: usize) -> Plain {
        Plain {
            n,
            holes: vec![n as u32; 2 * n],
            stores: [0, 0],
            tuzdik: [None, None],
            side: 0,
        }
    }

    pub fn from(pos: &AnyGame) -> Plain {
        let n = pos.holes();
        let mut holes = pos
            .row(Side::South)
            .iter()
            .map(|&x| x as u32)
            .collect::<Vec<_>>();
        holes.extend(pos.row(Side::North).iter().map(|&x| x as u32));
        let AnyGame::Toguz(toguz) = pos else {
            panic!("{pos}: not Toguz Kumalak");
        };
        let tz = |s: Side| {
            toguz
                .tuzdik(s)
                .map(|h| s.other().index() * n + h as usize - 1)
        };
        Plain {
            n,
            holes,
            stores: [pos.store(Side::South), pos.store(Side::North)],
            tuzdik: [tz(Side::South), tz(Side::North)],
            side: pos.side_to_move().index(),
        }
    }

    pub fn over(&self) -> bool {
        let half = (self.n * self.n) as u32;
        self.stores.iter().any(|&s| s > half) || self.moves().is_empty()
    }

    /// The end as the rules text states it: a store above half wins, scored by the stores as
    /// they stand; otherwise a player to move without a stone in their holes ends the game, and
    /// each side takes the stones on its own row. (Repetition needs the history: not here.)
    pub fn result(&self) -> Option<(Outcome, u32, u32)> {
        let half = (self.n * self.n) as u32;
        let [s, n] = self.stores;
        if s > half || n > half {
            return Some((Outcome::by_totals(s, n), s, n));
        }
        let row =
            |side: usize| -> u32 { self.holes[side * self.n..(side + 1) * self.n].iter().sum() };
        if row(self.side) == 0 {
            let (s, n) = (s + row(0), n + row(1));
            return Some((Outcome::by_totals(s, n), s, n));
        }
        None
    }

    pub fn moves(&self) -> Vec<usize> {
        let half = (self.n * self.n) as u32;
        if self.stores.iter().any(|&s| s > half) {
            return vec![];
        }
        (0..self.n)
            .filter(|&i| {
                let idx = self.side * self.n + i;
                self.holes[idx] > 0 && !self.tuzdik.contains(&Some(idx))
            })
            .collect()
    }

    pub fn play(&mut self, hole: usize) {
        let n = self.n;
        let from = self.side * n + hole;
        let k = self.holes[from];
        self.holes[from] = 0;
        let mut place = if k == 1 { (from + 1) % (2 * n) } else { from };
        let mut last = place;
        for _ in 0..k {
            last = place;
            match self.tuzdik.iter().position(|&t| t == Some(place)) {
                Some(owner) => self.stores[owner] += 1,
                None => self.holes[place] += 1,
            }
            place = (place + 1) % (2 * n);
        }
        let opponent_row = last / n != self.side;
        let is_tuzdik = self.tuzdik.contains(&Some(last));
        if opponent_row && !is_tuzdik {
            let count = self.holes[last];
            if count.is_multiple_of(2) {
                self.stores[self.side] += count;
                self.holes[last] = 0;
            } else if count == 3 && n != 5 && self.tuzdik[self.side].is_none() && last % n != n - 1
            {
                let mirrored = self.tuzdik[1 - self.side].is_some_and(|t| t % n == last % n);
                if !mirrored {
                    self.stores[self.side] += 3;
                    self.holes[last] = 0;
                    self.tuzdik[self.side] = Some(last);
                }
            }
        }
        self.side = 1 - self.side;
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|m| {
                let mut c = self.clone();
                c.play(m);
                c.perft(depth - 1)
            })
            .sum()
    }
}
