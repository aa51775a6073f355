//! The arena's results: its game records turned into the statistics' input (`src/stats`), and
//! the running standings the progress display, the rating interval and the SPRT read.
//!
//! All numbers come from `crate::stats`; this module only feeds it. A run keeps one compact
//! statistics record per game (not the moves), so memory grows by well under 1 KB a game.

use std::collections::BTreeMap;

use super::records::{GameRecord, GameResult};
use super::referee::stones_held;
use crate::games::{AnyGame, Game, Outcome, Side};
use crate::stats::{
    self, MoveSummary, PairTracker, RatingOptions, SprtConfig, SprtStatus, Summary, SummaryOptions,
};

/// The statistics' view of one arena game.
pub fn stats_record(g: &GameRecord) -> stats::GameRecord {
    let outcome = match g.result {
        GameResult::SouthWins => Outcome::Win(Side::South),
        GameResult::NorthWins => Outcome::Win(Side::North),
        GameResult::Draw => Outcome::Draw,
    };
    // Stones decided the game: its totals. Otherwise (a fault) the stones each side held.
    let [south_total, north_total] = g.totals.unwrap_or_else(|| {
        AnyGame::from_position(&g.final_position)
            .map(|p| stones_held(&p))
            .unwrap_or([0, 0])
    });
    let mut moves = [MoveSummary::default(); 2];
    for (m, side) in g.moves.iter().zip(move_sides(g)) {
        let time_us = m.time_ms.unwrap_or(0) * 1000;
        moves[side.index()].record(time_us, m.depth, m.nodes);
        moves[side.index()].info_dropped += u64::from(m.info_dropped);
    }
    stats::GameRecord {
        pair: g.pair,
        south: g.south.clone(),
        north: g.north.clone(),
        outcome,
        termination: g.termination.kind.name().to_string(),
        plies: g.moves.len() as u32,
        south_total,
        north_total,
        south_moves: moves[0],
        north_moves: moves[1],
    }
}

/// Who made each engine move of a record, by replaying it (Giuthi's extra moves break simple
/// alternation). A record that does not replay is read as alternating from there.
fn move_sides(g: &GameRecord) -> Vec<Side> {
    let mut sides = Vec::with_capacity(g.moves.len());
    let mut pos = AnyGame::from_position(&g.opening.start).ok();
    for token in &g.opening.moves {
        pos = pos.and_then(|mut p| {
            p.parse_move(token).ok().map(|mv| {
                p.play(mv);
                p
            })
        });
    }
    let mut next = pos.as_ref().map_or(Side::South, |p| p.side_to_move());
    for m in &g.moves {
        let side = pos.as_ref().map_or(next, |p| p.side_to_move());
        sides.push(side);
        next = side.other();
        pos = pos.and_then(|mut p| {
            p.parse_move(&m.mv).ok().map(|mv| {
                p.play(mv);
                p
            })
        });
    }
    sides
}

/// The results so far, kept as the games end.
#[derive(Clone, Debug)]
pub struct Standings {
    players: Vec<String>,
    sprt: Option<SprtConfig>,
    /// Statistics records by game index: summaries read them in schedule order, so a run, its
    /// resumption and the merge of its shards compute from the very same sequence.
    games: BTreeMap<u64, stats::GameRecord>,
    /// Head-to-head of the first two engines, kept incrementally for the live line and SPRT.
    first_pairing: Option<PairTracker>,
}

impl Standings {
    pub fn new(players: Vec<String>, sprt: Option<SprtConfig>) -> Standings {
        let first_pairing =
            (players.len() >= 2).then(|| PairTracker::new(&players[0], &players[1]));
        Standings {
            players,
            sprt,
            games: BTreeMap::new(),
            first_pairing,
        }
    }

    pub fn add(&mut self, g: &GameRecord) {
        let record = stats_record(g);
        if let Some(t) = self.first_pairing.as_mut() {
            t.add(&record);
        }
        self.games.insert(g.index, record);
    }

    /// The numbers of the games recorded, ascending.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        self.games.keys().copied()
    }

    pub fn contains(&self, index: u64) -> bool {
        self.games.contains_key(&index)
    }

    pub fn len(&self) -> u64 {
        self.games.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The statistics records in game order.
    pub fn records(&self) -> Vec<stats::GameRecord> {
        self.games.values().cloned().collect()
    }

    pub fn options(&self) -> SummaryOptions {
        SummaryOptions {
            players: self.players.clone(),
            sprt: self.sprt,
            rating: RatingOptions::default(),
        }
    }

    /// Everything: the head-to-head blocks, SPRT, rating table, diagnostics, terminations.
    pub fn summary(&self) -> Summary {
        stats::summarize(&self.records(), &self.options())
    }

    /// The SPRT on the first two engines' pairs so far, if one is configured.
    pub fn sprt_status(&self) -> Option<SprtStatus> {
        let config = self.sprt?;
        Some(config.status(&self.first_pairing.as_ref()?.pentanomial()))
    }

    /// One line for the live display: the first pairing's score and Elo.
    pub fn headline(&self) -> String {
        let Some(t) = &self.first_pairing else {
            return String::new();
        };
        let wdl = t.wdl();
        let mut line = format!(
            "{} vs {}: W {} L {} D {} ({:.1}%)",
            t.first(),
            t.second(),
            wdl.wins,
            wdl.losses,
            wdl.draws,
            100.0 * wdl.score()
        );
        if let Some(e) = t.pentanomial().estimate().or_else(|| wdl.estimate()) {
            line.push_str(&format!(" Elo {:+.1} +/- {:.1}", e.elo, e.elo_error));
        }
        if let Some(s) = self.sprt_status() {
            line.push_str(&format!(
                " LLR {:.2} [{:.2}, {:.2}]",
                s.llr, s.lower, s.upper
            ));
        }
        if self.players.len() > 2 {
            line.push_str(&format!(" ({} engines)", self.players.len()));
        }
        line
    }
}
