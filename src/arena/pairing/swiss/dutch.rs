//! The Dutch system's procedure: the brackets from the top score group down, each paired by
//! maximum-weight matchings over the whole round, so that a bracket's choice never leaves the
//! rest of the round unpairable (C4) and looks one bracket ahead (C8).
//!
//! One graph holds every player of the round for the whole procedure. A bracket's decisions are
//! made in the handbook's order, each by raising one player's edges a little and matching again,
//! then finalised (the pair's edge at the top weight, the players' other edges removed): which
//! moved-down players are paired (the highest first), their opponents, the remainder's
//! exchanges (the fewest, then the smallest differences of sequence numbers, the S1 players
//! moved down from the bottom of S1, the S2 players moved up from the top of S2), and last the
//! S1 players' opponents in order (transpositions: the highest S2 player that still allows the
//! best pairing).

use std::collections::{HashMap, HashSet};

use super::criteria::{self, ByeData, Context, Entrant, Place};
use super::matching::max_weight_matching;
use super::weight::Weight;
use super::{PairingError, RoundPairing, Tournament};

/// The pairing of the tournament's next round.
pub fn pair_round(t: &Tournament) -> Result<RoundPairing, PairingError> {
    let round = Round::new(t);
    if round.entrants.is_empty() {
        return Ok(RoundPairing::default());
    }
    let bits = round.context.low_bits() + 2 + 4;
    if bits <= Weight::<6>::BITS {
        round.pair::<6>(t)
    } else if bits <= Weight::<32>::BITS {
        round.pair::<32>(t)
    } else {
        Err(PairingError::TooLarge(format!(
            "{bits} bits of edge weight"
        )))
    }
}

/// Bits to write `value`.
fn bits_for(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

/// The round being paired: its players in pairing order (score, then pairing number).
struct Round {
    entrants: Vec<Entrant>,
    context: Context,
}

impl Round {
    fn new(t: &Tournament) -> Round {
        let done = t.rounds_done();
        // Pairing numbers count the valid players only: those who are not past the round (an
        // entry for the round being paired is an absence) or who have been paired before.
        let mut entrants = Vec::new();
        let mut rank = 0;
        for (id, player) in t.players.iter().enumerate() {
            let current = player.rounds.len() <= done;
            if !(current || player.rounds.iter().any(|r| r.paired)) {
                continue;
            }
            if current {
                entrants.push(criteria::entrant(t, id, rank, done));
            }
            rank += 1;
        }
        entrants.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
        let mut forbidden = HashSet::new();
        for (id, player) in t.players.iter().enumerate() {
            for round in player.rounds.iter().take(done) {
                if let (true, Some(opponent)) = (round.played, round.opponent) {
                    forbidden.insert((id.min(opponent), id.max(opponent)));
                }
            }
        }
        for &(a, b) in &t.forbidden {
            forbidden.insert((a.min(b), a.max(b)));
        }
        // Each score group's bits, the lowest group first.
        let mut group_shift = HashMap::new();
        let mut groups_bits = 0;
        let mut largest = 0;
        let mut index = entrants.len();
        while index > 0 {
            let score = entrants[index - 1].score;
            let mut size = 0;
            while index > 0 && entrants[index - 1].score == score {
                index -= 1;
                size += 1;
            }
            group_shift.insert(score, groups_bits);
            groups_bits += bits_for(size);
            largest = largest.max(size);
        }
        let top_threshold = done as u32 * t.points.win.max(t.points.draw) / 2;
        let context = Context {
            done,
            total_rounds: t.total_rounds as usize,
            top_threshold,
            forbidden,
            size_bits: bits_for(largest),
            groups_bits,
            group_shift,
        };
        Round { entrants, context }
    }

    fn pair<const N: usize>(&self, t: &Tournament) -> Result<RoundPairing, PairingError> {
        let mut graph = Graph::<N>::new(self);
        let mates = graph.pair_brackets()?;
        let e = &self.entrants;
        let mut pairs = Vec::new();
        let mut bye = None;
        for (v, &m) in mates.iter().enumerate() {
            if m == v {
                bye = Some(e[v].id);
            } else if e[v].id < e[m].id {
                let colour = criteria::colour_of(&e[v], &e[m], t.initial_colour);
                let (white, black) = if colour == super::Colour::White {
                    (v, m)
                } else {
                    (m, v)
                };
                pairs.push((white, black));
            }
        }
        // Organisers' order: higher scores first, then the higher player's number.
        let higher = |&(a, b): &(usize, usize)| {
            if criteria::ranked_below(&e[a], &e[b]) {
                (b, a)
            } else {
                (a, b)
            }
        };
        pairs.sort_by(|x, y| {
            let (hx, lx) = higher(x);
            let (hy, ly) = higher(y);
            (e[hy].score, e[ly].score, e[hx].rank).cmp(&(e[hx].score, e[lx].score, e[hy].rank))
        });
        Ok(RoundPairing {
            pairs: pairs.into_iter().map(|(w, b)| (e[w].id, e[b].id)).collect(),
            bye,
        })
    }
}

/// The round's graph: vertex i is the i-th entrant in pairing order.
struct Graph<'a, const N: usize> {
    round: &'a Round,
    weights: Vec<Vec<Weight<N>>>,
    /// Above every edge weight: a finalised pair's edge.
    top: Weight<N>,
    bye: ByeData,
    /// The matching last computed: `mates[v]`, or v when unmatched.
    mates: Vec<usize>,
}

impl<'a, const N: usize> Graph<'a, N> {
    fn new(round: &'a Round) -> Self {
        let n = round.entrants.len();
        let top = Weight::bit(round.context.low_bits() + 2).sub_u64(1);
        Graph {
            round,
            weights: vec![vec![Weight::zero(); n]; n],
            top,
            bye: ByeData::default(),
            mates: (0..n).collect(),
        }
    }

    fn set(&mut self, a: usize, b: usize, w: Weight<N>) {
        self.weights[a][b] = w;
        self.weights[b][a] = w;
    }

    fn solve(&mut self) {
        self.mates = max_weight_matching(&self.weights);
    }

    fn score(&self, v: usize) -> u32 {
        self.round.entrants[v].score
    }

    fn edge(&self, high: usize, low: usize, place: Place) -> Weight<N> {
        let e = &self.round.entrants;
        self.round.context.edge(&e[high], &e[low], place, &self.bye)
    }

    /// Every edge with the weights of no bracket (completion and bye only).
    fn set_all_plain(&mut self) {
        let n = self.round.entrants.len();
        for low in 0..n {
            for high in 0..low {
                let w = self.edge(high, low, Place::Elsewhere);
                self.set(high, low, w);
            }
        }
    }

    /// Makes a-b a pair for the rest of the procedure.
    fn finalise(&mut self, a: usize, b: usize) {
        for u in 0..self.weights.len() {
            if u != a {
                let w = if u == b { self.top } else { Weight::zero() };
                self.set(a, u, w);
            }
            if u != b {
                let w = if u == a { self.top } else { Weight::zero() };
                self.set(b, u, w);
            }
        }
    }

    /// At most one player left without an opponent, and that one may have the bye.
    fn complete(&self) -> bool {
        let unmatched: Vec<usize> = (0..self.mates.len())
            .filter(|&v| self.mates[v] == v)
            .collect();
        unmatched.len() <= 1
            && unmatched
                .iter()
                .all(|&v| self.round.entrants[v].bye_eligible)
    }

    /// The round first matched as a whole: whether it can be paired at all, and who the bye
    /// assignee may be (their score, and their unplayed games' ranks).
    fn first_matching(&mut self) -> Result<(), PairingError> {
        let e = &self.round.entrants;
        let n = e.len();
        let c = &self.round.context;
        let odd = n % 2 == 1;
        if odd {
            let top_score = e[0].score;
            for low in 0..n {
                for high in 0..low {
                    let mut w = Weight::zero();
                    if c.compatible(&e[low], &e[high]) {
                        let ineligible =
                            u64::from(!e[low].bye_eligible) + u64::from(!e[high].bye_eligible);
                        let shifts = u64::from(c.group_shift[&e[low].score])
                            + u64::from(c.group_shift[&e[high].score]);
                        w = Weight::from_u64(1 + ineligible)
                            .field_u64(c.groups_bits, shifts)
                            .field_u64(c.size_bits, u64::from(e[low].score >= top_score));
                    }
                    self.set(high, low, w);
                }
            }
        } else {
            self.set_all_plain();
        }
        self.solve();
        if !self.complete() {
            return Err(PairingError::NoValidPairing);
        }
        if !odd {
            return Ok(());
        }
        let assignee = (0..n)
            .find(|&v| self.mates[v] == v)
            .expect("an odd round has a bye");
        let bye_score = e[assignee].score;
        let top_score = e[0].score;
        let single = bye_score >= top_score
            && (0..n)
                .take_while(|&v| e[v].score >= top_score)
                .all(|v| e[self.mates[v]].score >= top_score);
        let mut played: Vec<usize> = e
            .iter()
            .filter(|p| p.score == bye_score)
            .map(|p| p.played_games)
            .collect();
        played.sort_unstable_by(|a, b| b.cmp(a));
        let mut unplayed_rank = HashMap::new();
        for (rank, games) in played.into_iter().enumerate() {
            unplayed_rank.insert(games, rank as u64);
        }
        self.bye = ByeData {
            score: bye_score,
            single_downfloater: single,
            unplayed_rank,
        };
        self.set_all_plain();
        Ok(())
    }

    /// The whole procedure: the mates of the round's pairing.
    fn pair_brackets(&mut self) -> Result<Vec<usize>, PairingError> {
        self.first_matching()?;
        let n = self.round.entrants.len();
        let odd = n % 2 == 1;
        let top_score = self.score(0);
        let mut cursor = (0..n).find(|&v| self.score(v) < top_score).unwrap_or(n);
        let mut bracket: Vec<usize> = (0..cursor).collect();
        let mut matched = vec![false; n];
        let mut pairs: Vec<Option<usize>> = vec![None; n];
        let mut movers = 0;
        let mut group_start = 0;
        while bracket.len() > 1 || cursor < n {
            let residents_end = bracket.len();
            let next_start = group_start + (residents_end - movers);
            let next_group = cursor;
            while cursor < n && self.score(cursor) >= self.score(next_group) {
                bracket.push(cursor);
                cursor += 1;
            }
            let step = Bracket {
                members: bracket.clone(),
                movers,
                residents_end,
                group_start,
                next_start,
            };
            self.pair_bracket(&step, &mut matched);
            // The next bracket: this one's unpaired players (moved down) and the next group.
            let mut single = odd && next_group < n && self.bye.score >= self.score(next_group);
            let mut next = Vec::new();
            let mut next_movers = 0;
            for (k, &v) in bracket.iter().enumerate() {
                if k < residents_end && matched[v] {
                    pairs[v] = Some(self.mates[v]);
                    pairs[self.mates[v]] = Some(v);
                } else {
                    next.push(v);
                    if k < residents_end {
                        next_movers += 1;
                    }
                    if single && self.score(self.mates[v]) < self.score(next_group) {
                        single = false;
                    }
                }
            }
            self.bye.single_downfloater = single;
            bracket = next;
            movers = next_movers;
            group_start = next_start;
        }
        Ok((0..n).map(|v| pairs[v].unwrap_or(v)).collect())
    }
}

/// One bracket's step: `members[..movers]` moved down, `members[movers..residents_end]` the
/// resident score group, the rest the next score group (looked ahead to). `group_start` and
/// `next_start` are the vertices of the resident and the next group's first players.
struct Bracket {
    members: Vec<usize>,
    movers: usize,
    residents_end: usize,
    group_start: usize,
    next_start: usize,
}

impl Bracket {
    fn resident(&self, v: usize) -> bool {
        v >= self.group_start && v < self.next_start
    }
}

mod bracket;
