//! A deliberately plain Giuthi, written from `protocol/rules-giuthi.md` alone: holes addressed as
//! (side, number 1..N), one seed at a time, every lap state remembered in a set. Slow and obvious.

use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Dir {
    A,
    C,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pos {
    id: String,
    n: usize,
    /// rows[side][number - 1], side 0 = South.
    rows: [Vec<u32>; 2],
    piles: [u32; 2],
    side: usize,
    fullmove: u32,
}

pub struct Played {
    pub pos: Pos,
    pub captured: u32,
    pub extra: bool,
    /// Ring place of the last seed: South's holes 0..N, North's N..2N.
    pub last_place: usize,
}

struct Sown {
    rows: [Vec<u32>; 2],
    last: (usize, usize),
    dir: Dir,
    crossed: bool,
    laps: usize,
}

impl Pos {
    pub fn parse(text: &str) -> Pos {
        let f: Vec<&str> = text.split(' ').collect();
        let (south, north) = f[1].split_once('/').unwrap();
        let row = |s: &str| -> Vec<u32> { s.split(',').map(|x| x.parse().unwrap()).collect() };
        let (a, b) = f[2].split_once('/').unwrap();
        let rows = [row(south), row(north)];
        Pos {
            id: f[0].to_ascii_lowercase(),
            n: rows[0].len(),
            rows,
            piles: [a.parse().unwrap(), b.parse().unwrap()],
            side: if f[3].eq_ignore_ascii_case("s") { 0 } else { 1 },
            fullmove: f[4].parse().unwrap(),
        }
    }

    pub fn to_text(&self) -> String {
        let row = |r: &Vec<u32>| {
            r.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{} {}/{} {}/{} {} {}",
            self.id,
            row(&self.rows[0]),
            row(&self.rows[1]),
            self.piles[0],
            self.piles[1],
            ["s", "n"][self.side],
            self.fullmove
        )
    }

    /// The next hole from (side, number) going in a direction.
    fn next(&self, (side, i): (usize, usize), dir: Dir) -> (usize, usize) {
        match dir {
            Dir::A if i < self.n => (side, i + 1),
            Dir::A => (1 - side, 1),
            Dir::C if i > 1 => (side, i - 1),
            Dir::C => (1 - side, self.n),
        }
    }

    /// The whole sowing of a move; when it never ends, the laps before the cycle and the
    /// laps of the cycle.
    fn sow_or_cycle(&self, mover: usize, hole: usize, dir: Dir) -> Result<Sown, (usize, usize)> {
        let mut rows = self.rows.clone();
        let mut at = (mover, hole);
        let mut dir = dir;
        let mut crossed = false;
        let mut seen = HashMap::new();
        loop {
            let lap = seen.len();
            if let Some(&first) = seen.get(&(rows.clone(), at, dir)) {
                return Err((first, lap - first));
            }
            seen.insert((rows.clone(), at, dir), lap);
            let mut hand = rows[at.0][at.1 - 1];
            rows[at.0][at.1 - 1] = 0;
            while hand > 0 {
                at = self.next(at, dir);
                rows[at.0][at.1 - 1] += 1;
                hand -= 1;
                if at.0 != mover {
                    crossed = true;
                }
            }
            if rows[at.0][at.1 - 1] == 1 {
                return Ok(Sown {
                    rows,
                    last: at,
                    dir,
                    crossed,
                    laps: seen.len(),
                });
            }
            dir = if dir == Dir::A { Dir::C } else { Dir::A };
        }
    }

    fn sow(&self, mover: usize, hole: usize, dir: Dir) -> Option<Sown> {
        self.sow_or_cycle(mover, hole, dir).ok()
    }

    fn parse_name(name: &str) -> (usize, Dir) {
        let hole = name[..name.len() - 1].parse().unwrap();
        (hole, if name.ends_with('a') { Dir::A } else { Dir::C })
    }

    /// The lead-in and length of a non-ending move's cycle, in laps.
    pub fn cycle(&self, name: &str) -> Option<(usize, usize)> {
        let (hole, dir) = Self::parse_name(name);
        self.sow_or_cycle(self.side, hole, dir).err()
    }

    /// Laps of a move's relay, None when it never ends.
    pub fn laps(&self, name: &str) -> Option<usize> {
        let (hole, dir) = Self::parse_name(name);
        self.sow(self.side, hole, dir).map(|s| s.laps)
    }

    fn sowing_moves(&self, side: usize) -> Vec<String> {
        let mut out = vec![];
        for hole in 1..=self.n {
            if self.rows[side][hole - 1] >= 2 {
                for (dir, letter) in [(Dir::A, "a"), (Dir::C, "c")] {
                    if self.sow(side, hole, dir).is_some() {
                        out.push(format!("{hole}{letter}"));
                    }
                }
            }
        }
        out
    }

    pub fn non_ending_moves(&self) -> usize {
        let mut count = 0;
        for hole in 1..=self.n {
            if self.rows[self.side][hole - 1] >= 2 {
                for dir in [Dir::A, Dir::C] {
                    count += self.sow(self.side, hole, dir).is_none() as usize;
                }
            }
        }
        count
    }

    pub fn legal(&self) -> Vec<String> {
        let mine = self.sowing_moves(self.side);
        if !mine.is_empty() {
            return mine;
        }
        if !self.sowing_moves(1 - self.side).is_empty() {
            return vec!["pass".to_string()];
        }
        vec![]
    }

    pub fn result(&self) -> Option<(otau::games::Outcome, u32, u32)> {
        if !self.legal().is_empty() {
            return None;
        }
        let s = self.piles[0] + self.rows[0].iter().sum::<u32>();
        let n = self.piles[1] + self.rows[1].iter().sum::<u32>();
        Some((otau::games::Outcome::by_totals(s, n), s, n))
    }

    fn turn_passes(&mut self) {
        if self.side == 1 {
            self.fullmove += 1;
        }
        self.side = 1 - self.side;
    }

    pub fn play(&self, name: &str) -> Played {
        let mut next = self.clone();
        if name == "pass" {
            next.turn_passes();
            return Played {
                pos: next,
                captured: 0,
                extra: false,
                last_place: 0,
            };
        }
        let (hole, dir) = Self::parse_name(name);
        let me = self.side;
        let them = 1 - me;
        let sown = self.sow(me, hole, dir).expect("legal moves end");
        next.rows = sown.rows;
        let (side, i) = sown.last;
        let last_place = side * self.n + i - 1;
        let mut captured = 0;
        let mut extra = false;
        if side != me {
            next.turn_passes();
        } else if !sown.crossed {
            extra = true;
        } else {
            let opposite = self.n + 1 - i;
            if next.rows[them][opposite - 1] > 0 {
                captured += next.rows[them][opposite - 1] + 1;
                next.rows[them][opposite - 1] = 0;
                next.rows[me][i - 1] = 0;
                let mut j = i;
                loop {
                    j = match sown.dir {
                        Dir::A => j + 1,
                        Dir::C => j - 1,
                    };
                    if j < 1 || j > self.n || next.rows[me][j - 1] != 0 {
                        break;
                    }
                    let o = self.n + 1 - j;
                    captured += next.rows[them][o - 1];
                    next.rows[them][o - 1] = 0;
                }
            }
            next.piles[me] += captured;
            next.turn_passes();
        }
        Played {
            pos: next,
            captured,
            extra,
            last_place,
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| self.play(m).pos.perft(depth - 1))
            .sum()
    }
}
