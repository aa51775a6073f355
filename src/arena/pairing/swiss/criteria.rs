//! What the Dutch criteria read of a player, and the criteria themselves: the absolute ones
//! (no rematch, colours, the bye once), the edge weight that orders every quality criterion,
//! and the colour allocation of a pair.

use std::collections::{HashMap, HashSet};

use super::weight::Weight;
use super::{Colour, Points, Round, Score, Tournament};

/// A float in an earlier round (handbook 1.4: a downfloat is also a round scored without
/// playing more than a loss).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Float {
    Down,
    Up,
    None,
}

/// A player of the round being paired, with what the criteria read.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// Index in the tournament's players.
    pub id: usize,
    /// Pairing number among the valid players, 0-based.
    pub rank: usize,
    pub score: u32,
    /// |games as white - games as black|.
    pub imbalance: u32,
    pub preference: Option<Colour>,
    /// The colour of the last two played games when they were the same.
    pub repeated: Option<Colour>,
    pub strong: bool,
    pub played_games: usize,
    pub bye_eligible: bool,
    /// Floats one and two rounds back.
    pub floats: [Float; 2],
    /// Colours of the played games, in order.
    pub colours: Vec<Colour>,
}

impl Entrant {
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// A player's round `index`: a round past the end of the list is an absence.
pub fn round_of(rounds: &[Round], index: usize) -> Round {
    rounds
        .get(index)
        .copied()
        .unwrap_or(Round::absent(Score::Loss))
}

/// The player's score after `rounds` rounds.
pub fn score_after(points: &Points, rounds: &[Round], count: usize) -> u32 {
    (0..count).map(|i| points.of(&round_of(rounds, i))).sum()
}

/// The entrant's data for a round after `done` rounds.
pub fn entrant(t: &Tournament, id: usize, rank: usize, done: usize) -> Entrant {
    let rounds = &t.players[id].rounds;
    let points = &t.points;
    let mut colours = Vec::new();
    let mut run = 0u32;
    let mut last = None;
    for i in 0..done {
        let round = round_of(rounds, i);
        if !round.played {
            continue;
        }
        let colour = round.colour.unwrap_or(Colour::White);
        colours.push(colour);
        run = if run == 0 || Some(colour) != last {
            1
        } else {
            run + 1
        };
        last = Some(colour);
    }
    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as u32;
    let blacks = colours.len() as u32 - whites;
    let lower = if whites > blacks {
        Colour::Black
    } else {
        Colour::White
    };
    let imbalance = whites.abs_diff(blacks);
    let preference = if imbalance > 1 {
        Some(lower)
    } else if run > 1 {
        last.map(Colour::flip)
    } else if imbalance > 0 {
        Some(lower)
    } else if run > 0 {
        last.map(Colour::flip)
    } else {
        None
    };
    let repeated = if run > 1 { last } else { None };
    let absolute = imbalance > 1 || repeated.is_some();
    let bye_eligible = (0..done).all(|i| {
        let round = round_of(rounds, i);
        round.played
            || (points.of(&round) < points.win && !(round.paired && round.opponent.is_none()))
    });
    let score = score_after(points, rounds, done);
    let float = |back: usize| -> Float {
        if done < back {
            return Float::None;
        }
        let index = done - back;
        let round = round_of(rounds, index);
        if !round.played {
            return if points.of(&round) > points.loss {
                Float::Down
            } else {
                Float::None
            };
        }
        let own = score_after(points, rounds, index);
        let opponent = round.opponent.expect("a played game has an opponent");
        let theirs = score_after(points, &t.players[opponent].rounds, index);
        match own.cmp(&theirs) {
            std::cmp::Ordering::Greater => Float::Down,
            std::cmp::Ordering::Less => Float::Up,
            std::cmp::Ordering::Equal => Float::None,
        }
    };
    Entrant {
        id,
        rank,
        score,
        imbalance,
        preference,
        repeated,
        strong: !absolute && imbalance > 0,
        played_games: colours.len(),
        bye_eligible,
        floats: [float(1), float(2)],
        colours,
    }
}

fn preferences_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// The round's fixed data the weights read.
pub struct Context {
    pub done: usize,
    pub total_rounds: usize,
    pub top_threshold: u32,
    /// Pairs that may not meet: games played before and the tournament's forbidden pairs.
    pub forbidden: HashSet<(usize, usize)>,
    /// Bits for the largest score group's size.
    pub size_bits: u32,
    /// Bits for all score groups, each group its own bits.
    pub groups_bits: u32,
    /// Each score's offset in the score-group fields.
    pub group_shift: HashMap<u32, u32>,
}

/// Which bracket the lower player of a pair is in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    Current,
    Next,
    Elsewhere,
}

/// What the bye criteria read in a round: the bye assignee's score, and whether the bracket
/// being paired will give the round's single downfloater as the bye (then the bye assignee's
/// unplayed games are minimised: `unplayed_rank` ranks played-game counts, most first).
#[derive(Clone, Default)]
pub struct ByeData {
    pub score: u32,
    pub single_downfloater: bool,
    pub unplayed_rank: HashMap<usize, u64>,
}

impl Context {
    /// Whether the two may meet at all (absolute criteria C1 and C3).
    pub fn compatible(&self, a: &Entrant, b: &Entrant) -> bool {
        let key = (a.id.min(b.id), a.id.max(b.id));
        if self.forbidden.contains(&key) {
            return false;
        }
        !a.absolute()
            || !b.absolute()
            || a.preference != b.preference
            || (self.done + 1 >= self.total_rounds
                && (a.score > self.top_threshold || b.score > self.top_threshold))
    }

    fn shift(&self, score: u32) -> u32 {
        self.group_shift[&score]
    }

    /// The weight of pairing `high` (ranked higher) with `low`: zero when they may not meet.
    pub fn edge<const N: usize>(
        &self,
        high: &Entrant,
        low: &Entrant,
        place: Place,
        bye: &ByeData,
    ) -> Weight<N> {
        if !self.compatible(high, low) {
            return Weight::zero();
        }
        let s = self.size_bits;
        let g = self.groups_bits;
        let current = place == Place::Current;
        let next = place == Place::Next;
        let candidate = |e: &Entrant| e.bye_eligible && e.score <= bye.score;
        let high_group = Weight::bit(self.shift(high.score));
        let low_group = Weight::bit(self.shift(low.score));
        let zero = Weight::zero();
        // Completion (C4) and the bye's eligibility (C2).
        let mut w = Weight::from_u64(1 + u64::from(!candidate(high)) + u64::from(!candidate(low)));
        // Pairs and scores paired in this bracket (C6, C7), then in the next (C8).
        w = w.field_u64(s, u64::from(current));
        w = w.field(g, if current { &high_group } else { &zero });
        w = w.field_u64(s, u64::from(next));
        w = w.field(g, if next { &high_group } else { &zero });
        // The bye assignee's unplayed games (C9).
        let mut unplayed = 0;
        if bye.single_downfloater {
            for e in [high, low] {
                if e.score == bye.score {
                    unplayed += bye.unplayed_rank[&e.played_games];
                }
            }
        }
        w = w.field_u64(2 * s, unplayed);
        // Colours (C10 to C13), only inside the bracket.
        let (p, o) = (low, high);
        let differ = p.preference != o.preference;
        let bits = [
            !p.absolute_imbalance() || !o.absolute_imbalance() || differ,
            !p.absolute()
                || !o.absolute()
                || differ
                || if p.imbalance == o.imbalance {
                    p.repeated.is_none() || p.repeated != o.repeated
                } else {
                    let lesser = if p.imbalance > o.imbalance { o } else { p };
                    lesser.repeated != p.preference.map(Colour::flip)
                },
            preferences_compatible(p.preference, o.preference),
            (!p.strong && !p.absolute())
                || (!o.strong && !o.absolute())
                || (p.absolute() && o.absolute())
                || differ,
        ];
        for bit in bits {
            w = w.field_u64(s, u64::from(current && bit));
        }
        // Repeated floats (C14 to C17): one round back, then two.
        for back in 0..self.done.min(2) {
            let down = u64::from(low.floats[back] == Float::Down)
                + u64::from(high.score <= low.score && high.floats[back] == Float::Down);
            w = w.field_u64(s, if current { down } else { 0 });
            let no_up = !(high.score > low.score && low.floats[back] == Float::Up);
            w = w.field_u64(s, u64::from(current && no_up));
        }
        // Scores of repeated floaters (C18 to C21).
        for back in 0..self.done.min(2) {
            let mut down = Weight::zero();
            if current {
                if low.floats[back] == Float::Down {
                    down = down.add(&low_group);
                }
                if high.floats[back] == Float::Down {
                    down = down.add(&high_group);
                }
            }
            w = w.field(g, &down);
            let no_up = !(low.floats[back] == Float::Up && high.score > low.score);
            w = w.field(g, if current && no_up { &high_group } else { &zero });
        }
        // Room for the order of transpositions and exchanges.
        w.shl(3 * s + 1)
    }

    /// Bits below the top field of every edge weight.
    pub fn low_bits(&self) -> u32 {
        let (s, g) = (self.size_bits, self.groups_bits);
        let floats = self.done.min(2) as u32;
        s + g + s + g + 2 * s + 4 * s + floats * (2 * s + 2 * g) + 3 * s + 1
    }
}

/// The first colour difference in the two players' histories, latest first.
fn first_difference(a: &Entrant, b: &Entrant) -> (Option<Colour>, Option<Colour>) {
    let mut x = a.colours.iter().rev();
    let mut y = b.colours.iter().rev();
    loop {
        match (x.next(), y.next()) {
            (Some(c), Some(d)) if c == d => continue,
            (c, d) => return (c.copied(), d.copied()),
        }
    }
}

/// The colour the rules give `p` against `o` from their preferences and histories alone.
fn neutral_colour(p: &Entrant, o: &Entrant) -> Option<Colour> {
    if preferences_compatible(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Colour::flip));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Colour::flip);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::flip);
    }
    match first_difference(p, o) {
        (Some(_), Some(theirs)) => Some(theirs),
        _ => None,
    }
}

/// Whether `a` is ranked below `b` (lower score, or the same score and a later number).
pub fn ranked_below(a: &Entrant, b: &Entrant) -> bool {
    (a.score, b.rank) < (b.score, a.rank)
}

/// The colour of `p` against `o` (handbook 5: colour allocation rules).
pub fn colour_of(p: &Entrant, o: &Entrant, initial: Colour) -> Colour {
    if let Some(colour) = neutral_colour(p, o) {
        return colour;
    }
    let by_rank = |e: &Entrant, odd: Colour| if e.rank % 2 == 1 { odd } else { odd.flip() };
    match p.preference {
        None if ranked_below(p, o) => by_rank(o, initial),
        None => by_rank(p, initial.flip()),
        Some(own) if ranked_below(p, o) => o.preference.map(Colour::flip).unwrap_or(own),
        Some(own) => own,
    }
}
