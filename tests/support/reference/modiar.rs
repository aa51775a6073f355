//! A deliberately plain Modiar, written from `protocol/rules-modiar.md` alone: stone by stone,
//! every legal move with the position it leads to. Slow and obvious, for the rules tests, the
//! solver tests and the differential test.

use otau::games::{Game, Modiar, Outcome, Side};

// A second implementation, as plain as possible: stone by stone, straight from the rules text.
// Holes 0..3 are South's, 3..6 North's; `mover` 0 = South.

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Simple {
    pub holes: [u32; 6],
    pub piles: [u32; 2],
    pub mover: usize,
    pub first: bool,
}

impl Simple {
    pub fn from(p: &Modiar) -> Simple {
        let mut holes = [0; 6];
        for (i, h) in holes.iter_mut().enumerate() {
            *h = if i < 3 {
                p.row(Side::South)[i]
            } else {
                p.row(Side::North)[i - 3]
            } as u32;
        }
        Simple {
            holes,
            piles: [p.store(Side::South), p.store(Side::North)],
            mover: p.side_to_move().index(),
            first: p.is_first_move(),
        }
    }

    fn owner(place: usize) -> usize {
        place / 3
    }

    /// Every legal move: (hole 0..3, position after).
    pub fn moves(&self) -> Vec<(usize, Simple)> {
        let me = self.mover;
        let opp_row =
            |h: &[u32; 6]| -> u32 { (0..6).filter(|&i| Self::owner(i) != me).map(|i| h[i]).sum() };
        let mut legal = Vec::new();
        for hole in 0..3 {
            let from = 3 * me + hole;
            if self.holes[from] < 2 {
                continue;
            }
            let mut h = self.holes;
            let mut stones = h[from];
            h[from] = 0;
            // First stone back into the origin, then onwards round the ring.
            let mut place = from;
            h[place] += 1;
            stones -= 1;
            while stones > 0 {
                place = (place + 1) % 6;
                h[place] += 1;
                stones -= 1;
            }
            let mut captured = 0;
            let mut from_opponent = 0;
            if !self.first {
                let mut at = place;
                while h[at] == 2 || h[at] == 4 || h[at] == 6 {
                    captured += h[at];
                    if Self::owner(at) != me {
                        from_opponent += h[at];
                    }
                    h[at] = 0;
                    at = (at + 5) % 6;
                }
            }
            if from_opponent > 0 && opp_row(&h) == 0 {
                continue; // grand slam
            }
            let mut piles = self.piles;
            piles[me] += captured;
            legal.push((
                hole,
                Simple {
                    holes: h,
                    piles,
                    mover: 1 - me,
                    first: false,
                },
            ));
        }
        if opp_row(&self.holes) == 0 {
            let feeding: Vec<_> = legal
                .iter()
                .filter(|(_, s)| opp_row(&s.holes) > 0)
                .cloned()
                .collect();
            if !feeding.is_empty() {
                return feeding;
            }
        }
        legal
    }

    /// The end as the rules text states it (the repetition rule needs the history: not here):
    /// the player to move has no legal move, and each player adds the stones of their own row.
    pub fn result(&self) -> Option<(Outcome, u32, u32)> {
        if !self.moves().is_empty() {
            return None;
        }
        let s = self.piles[0] + self.holes[..3].iter().sum::<u32>();
        let n = self.piles[1] + self.holes[3..].iter().sum::<u32>();
        Some((Outcome::by_totals(s, n), s, n))
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|(_, s)| s.perft(depth - 1)).sum()
    }
}
