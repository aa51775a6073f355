//! Bestemshe (Toguz Kumalak on 2x5, 50 stones, no tuzdik) solved from the start: a proof search
//! ([`solve`], over [`crate::tables::proof_search`]) over the opening with endgame tables below
//! it, a proof file anyone can re-check ([`proof`]), the rules it is solved under ([`Rules`]), and
//! the engine's play from the solution ([`play`]).
//!
//! The value solved is the result with best play (win, draw or loss for the side to move), as
//! in the published solution this is checked against: a store above 25 ends the game, so
//! margins beyond the result are not what either side plays for.

pub mod play;
pub mod proof;
pub mod solve;

use crate::games::{Final, Game, Side, Toguz};
use crate::tables::proof_search::dfpn::Dfpn;
use crate::tables::proof_search::ProofGame;
use crate::tables::toguz::{StuckRule, Tables};
use crate::tables::{Decided, TableBounds};

/// The rule set a solution is computed under: otau's, or PlayStrategy's (where the published
/// result comes from). They differ only when the side to move is stuck (`protocol/rules-toguz-kumalak.md`,
/// "Bestemshe: otau's rules and the published solution's").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// otau's: a stuck side's opponent takes the stones left on their own row.
    Otau,
    /// PlayStrategy's: a stuck side ends the game, scored by the stores as they stand.
    PlayStrategy,
}

impl Rules {
    /// The byte files keep the rules in.
    pub fn byte(self) -> u8 {
        match self {
            Rules::Otau => 0,
            Rules::PlayStrategy => 1,
        }
    }

    /// The rules a file's byte names; `None` for a byte of no known rules (a damaged or newer
    /// file).
    pub fn of(byte: u8) -> Option<Rules> {
        match byte {
            0 => Some(Rules::Otau),
            1 => Some(Rules::PlayStrategy),
            _ => None,
        }
    }

    /// The stuck rule the endgame tables of these rules are built with.
    pub fn stuck_rule(self) -> StuckRule {
        match self {
            Rules::Otau => StuckRule::RowOwner,
            Rules::PlayStrategy => StuckRule::NoOne,
        }
    }

    /// The name `--rules` takes.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Otau => "otau",
            Rules::PlayStrategy => "playstrategy",
        }
    }

    /// How the game has ended at `pos` under these rules, if it has (repetition aside).
    pub fn final_result(self, pos: &Toguz) -> Option<Final> {
        let fin = pos.final_result()?;
        match (self, fin.reason) {
            (Rules::PlayStrategy, crate::games::EndReason::NoMoves) => Some(Final::by_totals(
                pos.store(Side::South),
                pos.store(Side::North),
                crate::games::EndReason::NoMoves,
            )),
            _ => Some(fin),
        }
    }
}

/// The result of a position decided without a search, for the side to move, and whether the tables decided it (else the game is over): what the proof search, the proof
/// file and its verifier all take as a leaf.
#[inline]
pub fn decided(rules: Rules, tables: &dyn TableProbe, pos: &Toguz) -> Option<(Decided, bool)> {
    if let Some(fin) = rules.final_result(pos) {
        return Some((Decided::of_final(&fin, pos.side_to_move()), false));
    }
    tables.decide(pos).map(|w| (w, true))
}

/// Bestemshe as the proof search asks it: one rule set, one set of endgame tables.
#[derive(Clone, Copy)]
pub struct Bestemshe<'t> {
    /// The rules the game is played by.
    pub rules: Rules,
    /// The endgame tables that decide the leaves.
    pub tables: &'t dyn TableProbe,
}

impl<'t> Bestemshe<'t> {
    /// The game under `rules`, its leaves decided by `tables`.
    pub fn new(rules: Rules, tables: &'t dyn TableProbe) -> Bestemshe<'t> {
        Bestemshe { rules, tables }
    }

    /// A df-pn search for `attacker`'s win under these rules over these tables, with a
    /// transposition table of `2^log2_entries` entries.
    pub fn search<'p>(
        self,
        attacker: Side,
        log2_entries: u32,
        progress: Box<dyn FnMut(&crate::tables::proof_search::dfpn::SearchStats) + 'p>,
    ) -> Dfpn<'p, Bestemshe<'t>> {
        Dfpn::new(self, attacker, log2_entries, progress)
    }
}

impl ProofGame for Bestemshe<'_> {
    type Pos = Toguz;

    #[inline]
    fn decided(&self, pos: &Toguz) -> Option<(Decided, bool)> {
        decided(self.rules, self.tables, pos)
    }

    /// Ahead means the stores (two stones of store a step), and a quarter as much the stones
    /// on one's own row, which one plays with.
    fn initial_numbers(&self, pos: &Toguz) -> (u32, u32) {
        let me = pos.side_to_move();
        let row = |s: Side| pos.row(s).iter().map(|&x| x as i32).sum::<i32>();
        let lead =
            4 * (pos.store(me) as i32 - pos.store(me.other()) as i32) + row(me) - row(me.other());
        let scale = |x: i32| 1 + (x.clamp(0, 160) / 8) as u32;
        (scale(-lead), scale(lead))
    }

    fn exact_key(&self, pos: &Toguz) -> u128 {
        proof::exact_key(pos)
    }
}

/// What the endgame tables decide about a position, as the proof search asks it.
pub trait TableProbe: Sync {
    /// A win or loss the side to move is forced into in finite time, or a draw neither side
    /// can avoid; `None`: not within the tables.
    fn decide(&self, pos: &Toguz) -> Option<Decided>;
}

/// No tables: only the ends of the game decide.
pub struct NoTables;

impl TableProbe for NoTables {
    fn decide(&self, _: &Toguz) -> Option<Decided> {
        None
    }
}

/// otau's Toguz tables: the stones the mover secures from the board, with the stores at probe
/// time, decide the result where the bounds leave no doubt.
impl TableProbe for Tables {
    #[inline]
    fn decide(&self, pos: &Toguz) -> Option<Decided> {
        TableBounds::of_toguz(self, pos)?.decided()
    }
}
