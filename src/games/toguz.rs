//! Toguz Kumalak and its smaller boards (`toguz-kumalak`, `toguz-kumalak-7`, `bestemshe`).
//!
//! Rules in `protocol/rules-toguz-kumalak.md`. In short: sow counter-clockwise from an own hole,
//! the first stone back into the origin (unless it held one stone); an even count made on the
//! opponent's row is captured; a count of exactly 3 there makes a tuzdik, once per player, never
//! on hole N, never mirroring the opponent's; a store above half of all stones wins; a player to
//! move with empty holes ends the game and each side keeps the stones on their own row.

use std::fmt;

use super::board::BoardState;
use super::game::Game;
use super::types::{
    hash_state, EndReason, Final, Move, MoveEffect, MoveList, Outcome, Side, MAX_RING,
};
use super::variant::Variant;
use crate::games::notation::{self, MoveError, PositionError, PositionFields};

/// Marks "no tuzdik" in [`Toguz::tuzdik`]'s ring-index slots.
const NO_TUZDIK: u8 = 0xFF;

/// Each ring place's index, as the byte the sowing pass compares.
const PLACES: [u8; MAX_RING] = {
    let mut places = [0; MAX_RING];
    let mut i = 0;
    while i < MAX_RING {
        places[i] = i as u8;
        i += 1;
    }
    places
};

/// The name of Toguz Kumalak's own field in the position string, between stores and side.
const TUZDIK_FIELD: &str = "tuzdiks";

/// Traditional names of the Toguz Kumalak holes, from hole 1.
pub const TOGUZ_HOLE_NAMES: [&str; 9] = [
    "art",
    "tekturmas",
    "atopes",
    "atsyratar",
    "bel",
    "belbasar",
    "kandykpan",
    "kokmoyin",
    "manday",
];

/// A Toguz Kumalak position on 9, 7 or 5 holes a row.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Toguz {
    state: BoardState,
    /// Ring index of each side's tuzdik (on the opponent's row), or [`NO_TUZDIK`].
    tuzdik: [u8; 2],
}

impl Toguz {
    /// The start position of a Toguz variant: N stones in each of the 2N holes.
    pub fn start(variant: Variant) -> Toguz {
        let holes = variant.holes();
        assert!(
            matches!(variant, Variant::Toguz { .. }),
            "{variant} is not a Toguz Kumalak game"
        );
        Toguz {
            state: BoardState::start(holes, holes as u8),
            tuzdik: [NO_TUZDIK; 2],
        }
    }

    /// Parses a Toguz Kumalak position string: the shared fields, then its own tuzdik field
    /// (`<south>/<north>`, each a hole number on the opponent's row or `-`).
    pub fn from_position(text: &str) -> Result<Toguz, PositionError> {
        let (fields, [tuzdiks]) = PositionFields::split(text, [TUZDIK_FIELD])?;
        let holes = fields.variant.holes();
        let tuzdiks = notation::parse_pair(tuzdiks, TUZDIK_FIELD, |s| {
            if s == "-" {
                Some(None)
            } else {
                notation::parse_number(s)
                    .filter(|&n| n >= 1 && n as usize <= holes)
                    .map(|n| Some(n as u8))
            }
        })?;
        Toguz::from_fields(&fields, tuzdiks)
    }

    /// Builds and checks a position from parsed shared fields and the tuzdik hole numbers
    /// (1-based, on the opponent's row) of South and North.
    pub fn from_fields(
        f: &PositionFields,
        tuzdiks: [Option<u8>; 2],
    ) -> Result<Toguz, PositionError> {
        let variant = f.variant;
        if !matches!(variant, Variant::Toguz { .. }) {
            return Err(PositionError::new(
                "game id",
                format!("{variant} is not a Toguz Kumalak game"),
            ));
        }
        let n = variant.holes();
        f.check_total()?;
        let mut pos = Toguz::start(variant);
        pos.state = f.board();
        for side in Side::BOTH {
            let Some(h) = tuzdiks[side.index()] else {
                continue;
            };
            let whose = side.name();
            if !variant.has_tuzdik() {
                return Err(PositionError::new(
                    TUZDIK_FIELD,
                    format!("{variant} has no tuzdiks"),
                ));
            }
            if h as usize == n {
                return Err(PositionError::new(
                    TUZDIK_FIELD,
                    format!("{whose}'s tuzdik on hole {n}: a tuzdik can never be the last hole"),
                ));
            }
            let index = side.other().index() * n + h as usize - 1;
            if pos.state.ring[index] != 0 {
                return Err(PositionError::new(
                    TUZDIK_FIELD,
                    format!(
                        "{whose}'s tuzdik (hole {h} of the opponent's row) holds {} stones",
                        pos.state.ring[index]
                    ),
                ));
            }
            pos.tuzdik[side.index()] = index as u8;
        }
        if let [Some(a), Some(b)] = tuzdiks {
            if a == b {
                return Err(PositionError::new(
                    TUZDIK_FIELD,
                    format!("both tuzdiks on hole {a}: a tuzdik cannot mirror the other"),
                ));
            }
        }
        Ok(pos)
    }

    /// The tuzdik a side owns, as a hole number (1-based) on the opponent's row.
    pub fn tuzdik(&self, side: Side) -> Option<u8> {
        let t = self.tuzdik[side.index()];
        (t != NO_TUZDIK).then(|| (t as usize % self.n()) as u8 + 1)
    }

    #[inline]
    fn n(&self) -> usize {
        self.state.holes as usize
    }

    /// Who owns the ring place (whose row it is on).
    #[inline]
    fn owner(&self, index: usize) -> Side {
        if index < self.n() {
            Side::South
        } else {
            Side::North
        }
    }

    /// The holes the side to move may sow from, as bits (bit `i` for hole `i + 1`): the non-empty
    /// ones (a tuzdik is always empty), none once a store holds the majority.
    #[inline]
    fn movable(&self) -> u32 {
        let half = self.half();
        if self.state.stores[0] > half || self.state.stores[1] > half {
            return 0;
        }
        self.state.nonempty_row(self.state.side)
    }

    /// Half of all stones: a store above this has won.
    #[inline]
    fn half(&self) -> u16 {
        (self.n() * self.n()) as u16
    }

    /// The hole number (1-based, on its owner's row) of a ring place.
    #[inline]
    fn hole_number(&self, index: usize) -> usize {
        index % self.n() + 1
    }
}

/// Where a sowing's stones fall: `k` stones from ring place `from` on (inclusive), round a ring
/// of `ring` places. Each place gets the whole laps, plus one if the last partial lap reaches it,
/// so a hole of 100 stones costs no more than one of 2. In bytes, so that a pass over the ring
/// works on 16 places an instruction (every count fits: a hole never holds more than all the
/// stones, 2 * 9 * 9 = 162).
#[derive(Clone, Copy)]
struct Sowing {
    from: u8,
    ring: u8,
    /// Stones of the last partial lap: 1..=ring.
    rest: u8,
    laps: u8,
}

impl Sowing {
    #[inline]
    fn new(from: usize, k: usize, ring: usize) -> Sowing {
        // A division is slow next to the rest of a move: only holes of more than a lap need one.
        let laps = if k > ring { (k - 1) / ring } else { 0 };
        Sowing {
            from: from as u8,
            ring: ring as u8,
            rest: (k - laps * ring) as u8,
            laps: laps as u8,
        }
    }

    /// The stones ring place `i` receives (none past the ring).
    #[inline]
    fn share(&self, i: u8) -> u8 {
        let ahead = if i >= self.from {
            i - self.from
        } else {
            i + self.ring - self.from
        };
        let share = self.laps + u8::from(ahead < self.rest);
        if i < self.ring {
            share
        } else {
            0
        }
    }

    /// The ring place of the last stone.
    #[inline]
    fn last(&self) -> usize {
        let last = (self.from + self.rest - 1) as usize;
        if last >= self.ring as usize {
            last - self.ring as usize
        } else {
            last
        }
    }
}

impl Game for Toguz {
    #[inline]
    fn state(&self) -> &BoardState {
        &self.state
    }

    fn variant(&self) -> Variant {
        Variant::Toguz {
            holes: self.state.holes,
        }
    }

    #[inline]
    fn generate_moves(&self, moves: &mut MoveList) {
        // Tuzdik holes are always empty, so "non-empty" already excludes them.
        let mut holes = self.movable();
        while holes != 0 {
            moves.push(Move::hole(holes.trailing_zeros() as usize));
            holes &= holes - 1;
        }
    }

    #[inline]
    fn move_count(&self) -> usize {
        self.movable().count_ones() as usize
    }

    #[inline]
    fn play(&mut self, mv: Move) -> MoveEffect {
        let n = self.n();
        let me = self.state.side;
        let origin = me.index() * n + mv.index();
        let k = self.state.ring[origin] as usize;
        debug_assert!(k > 0, "move from an empty hole");
        // The first stone goes back into the origin, unless it is the only one.
        let from = if k > 1 {
            origin
        } else if origin + 1 == 2 * n {
            0
        } else {
            origin + 1
        };
        let sowing = Sowing::new(from, k, 2 * n);
        // One pass writes every place, the origin emptied first: the next read of the ring (the
        // next move, or counting the moves) then takes the values straight from the store
        // buffer instead of waiting for a byte write to reach the cache.
        let origin = origin as u8;
        for (place, i) in self.state.ring.iter_mut().zip(PLACES) {
            let before = if i == origin { 0 } else { *place };
            *place = before + sowing.share(i);
        }
        // Stones that fell into tuzdiks: move them to their owners' stores.
        for side in Side::BOTH {
            let t = self.tuzdik[side.index()];
            if t != NO_TUZDIK {
                self.state.stores[side.index()] += self.state.ring[t as usize] as u16;
                self.state.ring[t as usize] = 0;
            }
        }
        let last = sowing.last();
        let mut effect = MoveEffect {
            last: last as u8,
            ..MoveEffect::default()
        };
        if self.owner(last) != me && self.tuzdik[me.index()] as usize != last {
            let count = self.state.ring[last];
            if count.is_multiple_of(2) {
                self.state.stores[me.index()] += count as u16;
                self.state.ring[last] = 0;
                effect.captured = count as u32;
            } else if count == 3 && self.may_make_tuzdik(me, last) {
                self.state.stores[me.index()] += 3;
                self.state.ring[last] = 0;
                self.tuzdik[me.index()] = last as u8;
                effect.captured = 3;
            }
        }
        self.state.pass_turn();
        effect
    }

    fn final_result(&self) -> Option<Final> {
        let half = self.half();
        let [s, n] = self.state.stores;
        if s > half || n > half {
            return Some(Final::by_totals(
                s as u32,
                n as u32,
                EndReason::MajorityInStore,
            ));
        }
        if self.row(self.state.side).iter().all(|&x| x == 0) {
            // The side to move is stuck: every stone left lies on the other side's row.
            let [s, n] = self.state.totals_with_rows();
            return Some(Final::by_totals(s, n, EndReason::NoMoves));
        }
        None
    }

    #[inline]
    fn hash(&self) -> u64 {
        let extra = self.state.stores[0] as u64
            | (self.state.stores[1] as u64) << 16
            | (self.tuzdik[0] as u64) << 32
            | (self.tuzdik[1] as u64) << 40
            | (self.state.side as u64) << 48
            | (self.state.holes as u64) << 56;
        hash_state(&self.state.ring, extra)
    }

    fn repetition_limit(&self) -> usize {
        3
    }

    fn repetition_final(&self) -> Final {
        Final {
            outcome: Outcome::Draw,
            south: self.state.stores[0] as u32,
            north: self.state.stores[1] as u32,
            reason: EndReason::Repetition,
        }
    }

    /// Accepts the hole number (`7`) or federation notation (`76`, `36x`, PlayOK's `87(10)`), whose
    /// landing hole, tuzdik mark and store total must match what the move really does.
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        let n = self.n();
        let bytes = token.as_bytes();
        let (hole_part, rest) = token.split_at(
            bytes
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count()
                .min(1),
        );
        if hole_part.is_empty() {
            return Err(MoveError::malformed(
                token,
                format!("expected a hole number 1..{n} or federation notation like 76 or 36x"),
            ));
        }
        // Digits alone that cannot be federation notation (a landing hole is 1..n, one digit) are
        // one hole number, out of range: `10` is hole 10, not hole 1 landing on hole 0.
        if bytes.iter().all(u8::is_ascii_digit) && (bytes.len() > 2 || bytes.get(1) == Some(&b'0'))
        {
            let out_of_range = || {
                MoveError::malformed(
                    token,
                    format!("hole {} is outside 1..{n}", super::text::shorten(token)),
                )
            };
            return Err(match notation::parse_number(token) {
                // Too many digits for a number: still a hole number out of range.
                None if !token.starts_with('0') => out_of_range(),
                _ => notation::parse_hole(token, n)
                    .err()
                    .unwrap_or_else(out_of_range),
            });
        }
        let mv = Move::hole(notation::parse_hole(hole_part, n)?);
        if self.final_result().is_some() {
            return Err(MoveError::illegal(token, "the game is over"));
        }
        let stones = self.row(self.state.side)[mv.index()];
        if stones == 0 {
            let why = if self.tuzdik(self.state.side.other()) == Some(mv.index() as u8 + 1) {
                format!("hole {} is the opponent's tuzdik", mv.index() + 1)
            } else {
                format!("hole {} is empty", mv.index() + 1)
            };
            return Err(MoveError::illegal(token, why));
        }
        if rest.is_empty() {
            return Ok(mv);
        }
        // Federation notation: landing digit, optional x, optional (store).
        let rb = rest.as_bytes();
        if !rb[0].is_ascii_digit() {
            return Err(MoveError::malformed(
                token,
                "expected a landing hole digit after the origin hole",
            ));
        }
        let landing = (rb[0] - b'0') as usize;
        if landing == 0 || landing > n {
            return Err(MoveError::malformed(
                token,
                format!("landing hole {landing} is outside 1..{n}"),
            ));
        }
        let mut tail = &rest[1..];
        let mut tuzdik_mark = false;
        if let Some(t) = tail.strip_prefix(['x', 'X']) {
            tuzdik_mark = true;
            tail = t;
        }
        let mut store_mark = None;
        if !tail.is_empty() {
            let inner = tail
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .and_then(notation::parse_number)
                .ok_or_else(|| {
                    MoveError::malformed(token, "unexpected characters after the landing hole")
                })?;
            store_mark = Some(inner);
        }
        let (after, effect, tuzdik) = self.trial(mv);
        let real_landing = self.hole_number(effect.last as usize);
        if landing != real_landing {
            return Err(MoveError::illegal(
                token,
                format!(
                    "hole {} lands on hole {real_landing}, not {landing}",
                    mv.index() + 1
                ),
            ));
        }
        if tuzdik_mark != tuzdik {
            let why = if tuzdik {
                "the move makes a tuzdik but is not marked x"
            } else {
                "marked x but the move makes no tuzdik"
            };
            return Err(MoveError::illegal(token, why));
        }
        if let Some(total) = store_mark {
            let real = after.store(self.state.side);
            if effect.captured == 0 || tuzdik || real != total {
                return Err(MoveError::illegal(
                    token,
                    format!(
                        "the store after this move is {real}{}",
                        if effect.captured == 0 {
                            " (no capture)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
        Ok(mv)
    }

    fn move_name(&self, mv: Move) -> String {
        (mv.index() + 1).to_string()
    }

    /// Federation notation: origin hole, landing hole (of whichever row), `x` for a tuzdik.
    fn record_name(&self, mv: Move) -> String {
        let (_, effect, tuzdik) = self.trial(mv);
        format!(
            "{}{}{}",
            mv.index() + 1,
            self.hole_number(effect.last as usize),
            if tuzdik { "x" } else { "" }
        )
    }

    fn move_note(&self, mv: Move) -> Option<&'static str> {
        self.makes_tuzdik(mv).then_some("makes a tuzdik")
    }

    fn store_word(&self) -> &'static str {
        "store"
    }

    /// A tuzdik is drawn `X`.
    fn hole_text(&self, side: Side, index: usize) -> String {
        if self.tuzdik(side.other()) == Some(index as u8 + 1) {
            "X".to_string()
        } else {
            self.row(side)[index].to_string()
        }
    }

    /// Each tuzdik, and on the 9-hole board the traditional hole names.
    fn board_notes(&self, names: bool) -> String {
        let mut out = String::new();
        for side in Side::BOTH {
            if let Some(h) = self.tuzdik(side) {
                out += &format!("{side}'s tuzdik: hole {h} of {}'s row (X)\n", side.other());
            }
        }
        if names && self.n() == TOGUZ_HOLE_NAMES.len() {
            let list: Vec<String> = (TOGUZ_HOLE_NAMES.iter().enumerate())
                .map(|(i, name)| format!("{}={name}", i + 1))
                .collect();
            out += &format!("hole names: {}\n", list.join(", "));
        }
        out
    }
}

impl Toguz {
    /// Plays `mv` on a copy: the position after it, what it did, and whether it made a tuzdik
    /// (the mover had none before and has one after).
    fn trial(&self, mv: Move) -> (Toguz, MoveEffect, bool) {
        let mut after = *self;
        let effect = after.play(mv);
        let me = self.state.side.index();
        (after, effect, after.tuzdik[me] != self.tuzdik[me])
    }

    /// Whether the legal move `mv` makes a tuzdik.
    pub fn makes_tuzdik(&self, mv: Move) -> bool {
        self.trial(mv).2
    }

    /// The tuzdik conditions other than "the last stone made exactly 3 on the opponent's row".
    #[inline]
    fn may_make_tuzdik(&self, me: Side, last: usize) -> bool {
        if !self.variant().has_tuzdik() || self.tuzdik[me.index()] != NO_TUZDIK {
            return false;
        }
        let number = self.hole_number(last);
        number != self.n() && self.tuzdik(me.other()) != Some(number as u8)
    }
}

impl fmt::Display for Toguz {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hole = |side| self.tuzdik(side).map_or("-".to_string(), |h| h.to_string());
        let tuzdiks = format!("{}/{}", hole(Side::South), hole(Side::North));
        notation::write_position(f, self.variant(), &self.state, &[&tuzdiks])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::AnyGame;

    fn pos(s: &str) -> Toguz {
        match AnyGame::from_position(s).unwrap() {
            AnyGame::Toguz(t) => t,
            _ => unreachable!(),
        }
    }

    #[test]
    fn start_round_trips() {
        let start = Toguz::start(Variant::TOGUZ);
        let text = start.to_string();
        assert_eq!(
            text,
            "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1"
        );
        assert_eq!(pos(&text), start);
    }

    #[test]
    fn opening_move_captures_even() {
        // South hole 8 (9 stones): 1 back into hole 8, then 9, then North 1..7: North 7 gets 10.
        let mut p = Toguz::start(Variant::TOGUZ);
        assert_eq!(p.record_name(Move::hole(7)), "87");
        let e = p.play(Move::hole(7));
        assert_eq!(e.captured, 10);
        assert_eq!(
            p.to_string(),
            "toguz-kumalak 9,9,9,9,9,9,9,1,10/10,10,10,10,10,10,0,9,9 10/0 -/- n 1"
        );
    }

    #[test]
    fn single_stone_moves_on() {
        let mut p = pos("toguz-kumalak 1,0,0,0,0,0,0,0,80/0,0,0,0,0,0,0,0,81 0/0 -/- s 1");
        let e = p.play(Move::hole(0));
        assert_eq!(e.last, 1);
        assert_eq!(p.row(Side::South)[..2], [0, 1]);
    }

    #[test]
    fn tuzdik_is_made_and_feeds_its_owner() {
        // South hole 9 holds 3: 1 into hole 9, then North 1 and 2; North 2 had 2 -> 3: tuzdik.
        let mut p = pos("toguz-kumalak 0,0,0,0,0,0,0,0,3/5,2,0,0,0,0,0,0,0 76/76 -/- s 5");
        assert_eq!(p.record_name(Move::hole(8)), "92x");
        assert!(p.makes_tuzdik(Move::hole(8)));
        assert_eq!(p.move_note(Move::hole(8)), Some("makes a tuzdik"));
        p.play(Move::hole(8));
        assert_eq!(p.tuzdik(Side::South), Some(2));
        assert_eq!(p.store(Side::South), 79);
        // North sows from hole 1 (6 stones): 1 back, holes 2..6; hole 2 is South's tuzdik.
        let e = p.play(Move::hole(0));
        assert_eq!(p.store(Side::South), 80);
        assert_eq!(p.row(Side::North), &[1, 0, 1, 1, 1, 1, 0, 0, 0]);
        assert_eq!(e.captured, 0);
    }

    #[test]
    fn tuzdik_restrictions() {
        // Last hole (9) never becomes a tuzdik: South hole 9 with 10 stones: 1 back, North 1..9.
        let mut p = pos("toguz-kumalak 0,0,0,0,0,0,0,0,10/0,0,0,0,0,0,0,0,2 75/75 -/- s 9");
        assert!(!p.makes_tuzdik(Move::hole(8)));
        p.play(Move::hole(8));
        assert_eq!(p.row(Side::North)[8], 3);
        // Mirror of the opponent's tuzdik: North owns South's hole 2, so South cannot take North 2.
        let mut p = pos("toguz-kumalak 0,0,0,0,0,0,0,0,3/5,2,0,0,0,0,0,0,0 76/76 -/2 s 5");
        assert!(!p.makes_tuzdik(Move::hole(8)));
        p.play(Move::hole(8));
        assert_eq!(p.row(Side::North)[1], 3);
        // Bestemshe has no tuzdik at all.
        let p = pos("bestemshe 0,0,0,0,3/5,2,0,0,0 20/20 -/- s 3");
        assert!(!p.makes_tuzdik(Move::hole(4)));
    }

    #[test]
    fn majority_and_stuck_endings() {
        let p = pos("toguz-kumalak 0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 82/79 -/- n 30");
        let fin = p.final_result().unwrap();
        assert_eq!(fin.outcome, crate::games::Outcome::Win(Side::South));
        assert!(p.legal_moves().is_empty());
        // South to move with an empty row: North keeps the 2 stones on its row.
        let p = pos("toguz-kumalak 0,0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0 80/80 -/- s 30");
        let fin = p.final_result().unwrap();
        assert_eq!((fin.south, fin.north), (80, 82));
        assert_eq!(fin.outcome, crate::games::Outcome::Win(Side::North));
        // 81-81 is a draw.
        let p = pos("toguz-kumalak 0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 81/80 -/- s 30");
        assert_eq!(
            p.final_result().unwrap().outcome,
            crate::games::Outcome::Draw
        );
    }

    #[test]
    fn bad_positions_are_rejected() {
        let cases = [
            (
                "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,8 0/0 -/- s 1",
                "stones",
            ),
            (
                "toguz-kumalak 9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 9/0 -/9 s 1",
                "tuzdiks",
            ),
            (
                "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 3/- s 1",
                "tuzdiks",
            ),
            (
                "toguz-kumalak 9,9,0,9,9,9,9,9,9/9,9,0,9,9,9,9,9,9 9/9 3/3 s 1",
                "tuzdiks",
            ),
            ("bestemshe 5,5,5,5,5/5,5,5,5,5 0/0 s 1", "position"),
            (
                "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/10 s 1",
                "tuzdiks",
            ),
        ];
        for (text, field) in cases {
            let err = AnyGame::from_position(text).unwrap_err();
            assert_eq!(err.field, field, "{text}: {err}");
        }
    }

    #[test]
    fn federation_tokens_are_checked() {
        let p = Toguz::start(Variant::TOGUZ);
        assert_eq!(p.parse_move("8").unwrap(), Move::hole(7));
        assert_eq!(p.parse_move("87").unwrap(), Move::hole(7));
        assert_eq!(p.parse_move("87(10)").unwrap(), Move::hole(7));
        assert!(matches!(p.parse_move("86"), Err(MoveError::Illegal { .. })));
        assert!(matches!(
            p.parse_move("87x"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            p.parse_move("87(11)"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            p.parse_move("0"),
            Err(MoveError::Malformed { .. })
        ));
        assert!(matches!(
            p.parse_move("a"),
            Err(MoveError::Malformed { .. })
        ));
        assert!(matches!(
            p.parse_move("87y"),
            Err(MoveError::Malformed { .. })
        ));
    }
}
