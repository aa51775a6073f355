//! Giuthi: relay sowing in either direction on a 2xN board (`giuthi` is 2x8 with 8 seeds a hole,
//! `giuthi-<holes>x<seeds>` any of 5..10 holes and 4..9 seeds).
//!
//! Rules in `protocol/rules-giuthi.md`. In short: take an own hole of two or more seeds and sow it
//! clockwise or anticlockwise; while a lap's last seed lands in an occupied hole, lift that hole and
//! sow it back the other way. A last seed in an empty hole ends the move: on the opponent's row the
//! turn passes; on the mover's row it earns an extra move if no seed of the move reached the
//! opponent's row, and otherwise captures the opposite hole and, along the mover's row in the last
//! lap's direction, the holes opposite every consecutive empty own hole. A player without a hole of
//! two seeds passes; when neither has one the game ends and each keeps the seeds on their side. The
//! second occurrence of the same holes with the same side to move is a draw.
//!
//! A sowing whose relay never ends is not a move. "A hole of two seeds" above therefore reads "a
//! move whose sowing ends" wherever the two differ (a player whose every sowing never ends passes
//! like one without a hole of two); see [`relay`] for why the check is exact.
//!
//! Full-move number: it grows when the turn passes from North to South (after North's move or
//! North's pass). An extra move keeps both the side to move and the number.

use std::fmt;

use super::board::BoardState;
use super::game::Game;
use super::types::{
    hash_state, Direction, EndReason, Final, Move, MoveEffect, MoveList, Outcome, Side, MAX_RING,
};
use super::variant::Variant;
use crate::games::notation::{self, MoveError, PositionError, PositionFields};

/// Laps a sowing runs before it starts looking for a repeated state. 99.99% of the moves of random
/// games end sooner (the longest relay seen in millions of them: 111 laps), so the common case pays
/// one counter comparison per lap and nothing else; past it, a lap also costs a state comparison.
const CYCLE_CHECK_AFTER: u32 = 64;

/// A Giuthi position on any board size. The stores of its [`BoardState`] are the piles of
/// captured seeds kept aside (the position string's "store" fields).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Giuthi {
    state: BoardState,
    /// Seeds a hole at the start: with the holes, names the board size.
    seeds: u8,
}

/// Where and how a relay sowing stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct RelayEnd {
    /// Ring place of the last lap's last seed (an empty hole before it fell).
    last: usize,
    /// Direction of the last lap.
    dir: Direction,
    /// Whether any seed of any lap fell into the opponent's row.
    crossed: bool,
}

/// A relay sowing in progress, between two laps: what the next lap depends on.
#[derive(Clone, Copy, PartialEq, Eq)]
struct LapState {
    ring: Work,
    /// The hole the next lap lifts.
    from: usize,
    dir: Direction,
}

/// The ring while it is sown: 32 bytes seen as two 16-byte lanes, so a lap adds one seed to each
/// of its holes with two integer additions instead of one per seed. No byte can carry into the
/// next: a hole never holds more than the game's 180 seeds.
type Work = [u8; 32];

/// `PREFIX[k]`: the lanes with a 1 in bytes `0..k`. The bytes `a..b` are `PREFIX[b] - PREFIX[a]`
/// (no borrow: the smaller prefix is a subset of the larger).
const PREFIX: [[u128; 2]; MAX_RING + 1] = {
    const ONES: u128 = u128::MAX / 255;
    let mut table = [[0u128; 2]; MAX_RING + 1];
    let mut k = 0;
    while k <= MAX_RING {
        table[k] = if k < 16 {
            [ONES & ((1u128 << (8 * k)) - 1), 0]
        } else {
            [ONES, ONES & ((1u128 << (8 * (k - 16))) - 1)]
        };
        k += 1;
    }
    table
};

#[inline(always)]
fn lanes(work: &Work) -> [u128; 2] {
    let (lo, hi) = work.split_at(16);
    [
        u128::from_le_bytes(lo.try_into().expect("16 bytes")),
        u128::from_le_bytes(hi.try_into().expect("16 bytes")),
    ]
}

#[inline(always)]
fn add_lanes(work: &mut Work, mask: [u128; 2]) {
    let [lo, hi] = lanes(work);
    work[..16].copy_from_slice(&(lo + mask[0]).to_le_bytes());
    work[16..].copy_from_slice(&(hi + mask[1]).to_le_bytes());
}

#[inline(always)]
fn sub_masks(a: [u128; 2], b: [u128; 2]) -> [u128; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

#[inline(always)]
fn add_masks(a: [u128; 2], b: [u128; 2]) -> [u128; 2] {
    [a[0] + b[0], a[1] + b[1]]
}

/// Sows a whole move on `ring` (places `0..2n`): lifts `from`, sows it in `dir`, and relays while
/// a lap ends in an occupied hole. Returns `None`, with `ring` unchanged, when the relay never
/// ends.
///
/// Why the non-ending check is exact: the next lap depends only on (ring, lifted hole, direction)
/// (the "crossed" flag never feeds back into the sowing), so the laps are iterations of a fixed
/// function on a finite set: the seeds on the board are conserved, so there are finitely many
/// rings, times 2n holes, times 2 directions. Either some lap ends in an empty hole, or the
/// sequence of states repeats, and from a repeat on it cycles forever. Brent's algorithm, started
/// at lap [`CYCLE_CHECK_AFTER`], keeps one saved state and compares every later one with it,
/// re-saving after windows of doubling length: once a saved state lies on the cycle and the window
/// is at least the period, the saved state comes round again. It reports a repeat only when two
/// states are truly equal. So `None` means "never ends" and nothing else, and every move that ends
/// is played to its end (tests/integration/giuthi_rules.rs builds both kinds of move).
///
/// `on_lap` sees the ring (places `0..2n`) after every lap: [`Giuthi::relay_laps`] records them
/// for a player, the moves pass a closure that does nothing (monomorphised away, so the one sowing
/// routine serves both at no cost: perft unchanged).
#[inline]
fn relay(
    ring: &mut [u8; MAX_RING],
    n: usize,
    mover: Side,
    from: usize,
    dir: Direction,
    mut on_lap: impl FnMut(&[u8]),
) -> Option<RelayEnd> {
    let places = 2 * n;
    let opponent_lo = mover.other().index() * n;
    let opponent = sub_masks(PREFIX[opponent_lo + n], PREFIX[opponent_lo]);
    let all = PREFIX[places];
    let mut work: Work = [0; 32];
    work[..MAX_RING].copy_from_slice(ring);
    let mut from = from;
    let mut dir = dir;
    let mut crossed = false;
    let mut laps = 0u32;
    // Brent's cycle search: `saved` is compared with every later state; it moves to the current
    // state when the distance reaches `power`, which then doubles.
    let mut saved: Option<LapState> = None;
    let mut power = 1u64;
    let mut distance = 0u64;
    loop {
        let mut hand = work[from] as usize;
        work[from] = 0;
        if hand >= places {
            // Whole rounds: one seed in every hole, the lifted one and the opponent's included.
            let rounds = hand / places;
            hand -= rounds * places;
            add_lanes(
                &mut work,
                [all[0] * rounds as u128, all[1] * rounds as u128],
            );
            crossed = true;
        }
        // The holes of the rest: `hand` consecutive places after `from` in the lap's direction,
        // wrapping round the end of the ring at most once.
        let (mask, last) = match dir {
            Direction::Anticlockwise => {
                let end = from + 1 + hand;
                let mask = add_masks(
                    sub_masks(PREFIX[end.min(places)], PREFIX[from + 1]),
                    PREFIX[end.saturating_sub(places)],
                );
                let last = from + hand;
                (mask, if last >= places { last - places } else { last })
            }
            Direction::Clockwise => {
                let start = from as isize - hand as isize;
                let wrapped = (start + places as isize).min(places as isize) as usize;
                let mask = add_masks(
                    sub_masks(PREFIX[from], PREFIX[start.max(0) as usize]),
                    sub_masks(all, PREFIX[wrapped]),
                );
                (mask, if start < 0 { wrapped } else { start as usize })
            }
        };
        add_lanes(&mut work, mask);
        crossed |= (mask[0] & opponent[0]) | (mask[1] & opponent[1]) != 0;
        on_lap(&work[..places]);
        // With an empty rest the last seed of the last round fell into the lifted hole itself.
        if work[last] == 1 {
            ring.copy_from_slice(&work[..MAX_RING]);
            return Some(RelayEnd { last, dir, crossed });
        }
        from = last;
        dir = dir.reverse();
        laps += 1;
        if laps >= CYCLE_CHECK_AFTER {
            let state = LapState {
                ring: work,
                from,
                dir,
            };
            if saved == Some(state) {
                return None;
            }
            distance += 1;
            if saved.is_none() || distance == power {
                saved = Some(state);
                power *= 2;
                distance = 0;
            }
        }
    }
}

impl Giuthi {
    /// The start position of a Giuthi size: every hole holds the size's seed count.
    pub fn start(variant: Variant) -> Giuthi {
        let Variant::Giuthi { holes, seeds } = variant else {
            panic!("{variant} is not a Giuthi game");
        };
        Giuthi {
            state: BoardState::start(holes as usize, seeds),
            seeds,
        }
    }

    /// The position of `variant` on `state`'s board, for the solver, which enumerates boards
    /// without going through position strings. The caller keeps the game's seeds adding up
    /// (holes plus piles), as a parsed position does; this is checked in debug builds only.
    pub fn from_state(variant: Variant, state: BoardState) -> Giuthi {
        let mut pos = Giuthi::start(variant);
        debug_assert_eq!(state.holes, pos.state.holes, "{variant}: wrong board size");
        debug_assert_eq!(
            state.ring.iter().map(|&x| x as u32).sum::<u32>()
                + state.stores.iter().map(|&x| x as u32).sum::<u32>(),
            variant.total_stones(),
            "{variant}: the seeds do not add up"
        );
        pos.state = state;
        pos
    }

    /// Parses a Giuthi position string (no fields of its own).
    pub fn from_position(text: &str) -> Result<Giuthi, PositionError> {
        let (fields, []) = PositionFields::split(text, [])?;
        Giuthi::from_fields(&fields)
    }

    /// Builds and checks a position from parsed fields. Any placement of the game's seeds between
    /// holes and piles is accepted (the rules impose no parity or bound).
    pub fn from_fields(f: &PositionFields) -> Result<Giuthi, PositionError> {
        if !matches!(f.variant, Variant::Giuthi { .. }) {
            return Err(PositionError::new(
                "game id",
                format!("{} is not a Giuthi game", f.variant),
            ));
        }
        f.check_total()?;
        let mut pos = Giuthi::start(f.variant);
        pos.state = f.board();
        Ok(pos)
    }

    #[inline]
    fn n(&self) -> usize {
        self.state.holes as usize
    }

    /// Ring place of a side's hole (0-based from that side's left).
    #[inline]
    fn place(&self, side: Side, index: usize) -> usize {
        side.index() * self.n() + index
    }

    /// Plays out the sowing of `side`'s hole `index` in `dir` on a copy of the ring, without
    /// capturing: the relay's end, or `None` when it never ends.
    #[inline]
    fn trial(&self, side: Side, index: usize, dir: Direction) -> Option<RelayEnd> {
        let mut ring = self.state.ring;
        relay(
            &mut ring,
            self.n(),
            side,
            self.place(side, index),
            dir,
            |_| {},
        )
    }

    /// The holes after each lap of `mv`'s relay sowing, before any capture (ring places:
    /// south's holes `0..n`, then north's), for a player to follow the relay;
    /// empty for a pass or a sowing that never ends (which is no legal move).
    pub fn relay_laps(&self, mv: Move) -> Vec<Vec<u8>> {
        let mut laps = Vec::new();
        if mv.is_pass() {
            return laps;
        }
        let me = self.state.side;
        let mut ring = self.state.ring;
        let from = self.place(me, mv.index());
        let end = relay(&mut ring, self.n(), me, from, mv.direction(), |lap| {
            laps.push(lap.to_vec())
        });
        if end.is_none() {
            laps.clear();
        }
        laps
    }

    /// The board after each lap of `mv`'s relay sowing ([`Giuthi::relay_laps`]) as positions:
    /// the lap's holes, with this position's piles, side to move and move number (no lap
    /// captures or hands the turn over), for a page to draw each lap with the board renderer
    /// that draws positions. Empty for a pass or a sowing that never ends.
    pub fn relay_lap_positions(&self, mv: Move) -> Vec<Giuthi> {
        let places = 2 * self.n();
        self.relay_laps(mv)
            .into_iter()
            .map(|lap| {
                let mut pos = *self;
                pos.state.ring[..places].copy_from_slice(&lap);
                pos
            })
            .collect()
    }

    /// Whether `side` has a move whose sowing ends: "a hole with two or more seeds" of the rules,
    /// exact also when some sowings never end. Stops at the first that ends, which in practice is
    /// the first tried.
    fn can_sow(&self, side: Side) -> bool {
        self.row(side).iter().enumerate().any(|(i, &seeds)| {
            seeds >= 2
                && (self.trial(side, i, Direction::Anticlockwise).is_some()
                    || self.trial(side, i, Direction::Clockwise).is_some())
        })
    }
}

impl Game for Giuthi {
    #[inline]
    fn state(&self) -> &BoardState {
        &self.state
    }

    fn variant(&self) -> Variant {
        Variant::Giuthi {
            holes: self.state.holes,
            seeds: self.seeds,
        }
    }

    /// Both directions of every own hole of two or more seeds whose sowing ends, hole by hole,
    /// anticlockwise first. Deciding that a sowing ends means playing it on a copy: legality in
    /// Giuthi depends on the whole relay. With no such move, `pass` if the opponent can sow.
    #[inline]
    fn generate_moves(&self, moves: &mut MoveList) {
        let me = self.state.side;
        let before = moves.len();
        for (i, &seeds) in self.row(me).iter().enumerate() {
            if seeds >= 2 {
                for dir in [Direction::Anticlockwise, Direction::Clockwise] {
                    if self.trial(me, i, dir).is_some() {
                        moves.push(Move::directed(i, dir));
                    }
                }
            }
        }
        if moves.len() == before && self.can_sow(me.other()) {
            moves.push(Move::PASS);
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) -> MoveEffect {
        if mv.is_pass() {
            self.state.pass_turn();
            return MoveEffect::default();
        }
        let n = self.n();
        let me = self.state.side;
        let from = self.place(me, mv.index());
        let end = relay(&mut self.state.ring, n, me, from, mv.direction(), |_| {})
            .expect("a legal Giuthi move ends");
        let mut effect = MoveEffect {
            last: end.last as u8,
            ..MoveEffect::default()
        };
        let own_lo = me.index() * n;
        let own_hi = own_lo + n;
        if !(own_lo..own_hi).contains(&end.last) {
            self.state.pass_turn();
            return effect;
        }
        if !end.crossed {
            effect.extra_move = true;
            return effect;
        }
        let opposite = |place: usize| 2 * n - 1 - place;
        let facing = self.state.ring[opposite(end.last)];
        if facing > 0 {
            let mut captured = facing as u32 + 1;
            self.state.ring[opposite(end.last)] = 0;
            self.state.ring[end.last] = 0;
            let mut place = end.last;
            loop {
                place = match end.dir {
                    Direction::Anticlockwise if place + 1 < own_hi => place + 1,
                    Direction::Clockwise if place > own_lo => place - 1,
                    _ => break,
                };
                if self.state.ring[place] != 0 {
                    break;
                }
                captured += self.state.ring[opposite(place)] as u32;
                self.state.ring[opposite(place)] = 0;
            }
            self.state.stores[me.index()] += captured as u16;
            effect.captured = captured;
        }
        self.state.pass_turn();
        effect
    }

    fn final_result(&self) -> Option<Final> {
        if self.can_sow(self.state.side) || self.can_sow(self.state.side.other()) {
            return None;
        }
        let [south, north] = self.state.totals_with_rows();
        Some(Final::by_totals(south, north, EndReason::Blocked))
    }

    #[inline]
    fn hash(&self) -> u64 {
        let extra = self.state.stores[0] as u64
            | (self.state.stores[1] as u64) << 16
            | (self.state.side as u64) << 32
            | (self.state.holes as u64) << 40
            | (self.seeds as u64) << 48;
        hash_state(&self.state.ring, extra)
    }

    /// Holes and side to move only: the piles do not count for repetition.
    fn repetition_key(&self) -> u64 {
        let extra = (self.state.side as u64) << 32
            | (self.state.holes as u64) << 40
            | (self.seeds as u64) << 48
            | 0xA5 << 56;
        hash_state(&self.state.ring, extra)
    }

    /// The second occurrence ends the game.
    fn repetition_limit(&self) -> usize {
        2
    }

    /// A draw whatever the counts; the totals reported are the piles (the repetition rule gives
    /// nobody the seeds left in the holes).
    fn repetition_final(&self) -> Final {
        Final {
            outcome: Outcome::Draw,
            south: self.state.stores[0] as u32,
            north: self.state.stores[1] as u32,
            reason: EndReason::Repetition,
        }
    }

    /// Accepts `<hole><a|c>` (`3a`, `8C`) and `pass`, case-insensitively.
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        let n = self.n();
        if token.eq_ignore_ascii_case("pass") {
            if self.final_result().is_some() {
                return Err(MoveError::illegal(token, "the game is over"));
            }
            if self.legal_moves().contains(Move::PASS) {
                return Ok(Move::PASS);
            }
            return Err(MoveError::illegal(
                token,
                "pass is allowed only without a hole of two or more seeds to sow",
            ));
        }
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let (hole_part, rest) = token.split_at(digits);
        let shape =
            || format!("expected a hole number 1..{n} and a direction a or c (3a, 8c), or pass");
        if hole_part.is_empty() {
            return Err(MoveError::malformed(token, shape()));
        }
        let dir = match rest {
            "a" | "A" => Direction::Anticlockwise,
            "c" | "C" => Direction::Clockwise,
            "" => {
                // The hint repeats the hole shortened, as the token is: the error stays bounded.
                let hole = notation::shorten(hole_part);
                return Err(MoveError::malformed(
                    token,
                    format!(
                        "a Giuthi move needs a direction: {hole}a (anticlockwise) or \
                         {hole}c (clockwise)"
                    ),
                ));
            }
            _ => return Err(MoveError::malformed(token, shape())),
        };
        let index = notation::parse_hole(hole_part, n).map_err(|e| match e {
            MoveError::Malformed { why, .. } => MoveError::malformed(token, why),
            other => other,
        })?;
        if self.final_result().is_some() {
            return Err(MoveError::illegal(token, "the game is over"));
        }
        let seeds = self.row(self.state.side)[index];
        if seeds < 2 {
            return Err(MoveError::illegal(
                token,
                format!(
                    "hole {} holds {seeds} seed{}: a move needs at least 2",
                    index + 1,
                    if seeds == 1 { "" } else { "s" }
                ),
            ));
        }
        if self.trial(self.state.side, index, dir).is_none() {
            return Err(MoveError::illegal(
                token,
                "this sowing never ends (its relay returns to a state it was already in)",
            ));
        }
        Ok(Move::directed(index, dir))
    }

    fn move_name(&self, mv: Move) -> String {
        if mv.is_pass() {
            return "pass".to_string();
        }
        let letter = match mv.direction() {
            Direction::Anticlockwise => 'a',
            Direction::Clockwise => 'c',
        };
        format!("{}{letter}", mv.index() + 1)
    }
}

impl fmt::Display for Giuthi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        notation::write_position(f, self.variant(), &self.state, &[])
    }
}
