//! A minimal results table (wins, losses, draws, score, terminations), kept apart from the
//! statistics proper (`src/stats`, the statistics issue): that module owns Elo intervals,
//! pentanomial counts, SPRT and ratings; this one only counts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::records::{GameRecord, GameResult, TerminationKind};
use crate::games::Side;

/// What statistics need of a game, in a few bytes: runs keep one per game instead of the whole
/// record, so memory stays flat over long runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameScore {
    pub index: u64,
    pub pair: u64,
    /// Engine indices (in the run's engine order) by side.
    pub engines: [u16; 2],
    pub result: GameResult,
    pub termination: TerminationKind,
    /// The side whose engine failed, for a fault.
    pub fault_side: Option<Side>,
}

impl GameScore {
    /// None if the record names an engine the run does not have.
    pub fn of(g: &GameRecord, engines: &[String]) -> Option<GameScore> {
        let find = |name: &str| engines.iter().position(|e| e == name).map(|i| i as u16);
        Some(GameScore {
            index: g.index,
            pair: g.pair,
            engines: [find(&g.south)?, find(&g.north)?],
            result: g.result,
            termination: g.termination.kind,
            fault_side: g.termination.side,
        })
    }
}

#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct EngineTally {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Games this engine lost by its own fault, by termination kind.
    pub faults: BTreeMap<String, u64>,
}

impl EngineTally {
    /// Score as a fraction (draws count half).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }
}

/// Counts over a set of games, in engine order.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Tally {
    pub engines: Vec<String>,
    pub per_engine: Vec<EngineTally>,
    /// Games by termination kind.
    pub terminations: BTreeMap<String, u64>,
    pub games: u64,
}

impl Tally {
    pub fn new(engines: Vec<String>) -> Tally {
        Tally {
            per_engine: vec![EngineTally::default(); engines.len()],
            engines,
            ..Tally::default()
        }
    }

    pub fn add(&mut self, g: &GameScore) {
        self.games += 1;
        *self
            .terminations
            .entry(g.termination.name().to_string())
            .or_default() += 1;
        for side in Side::BOTH {
            let Some(t) = self.per_engine.get_mut(g.engines[side.index()] as usize) else {
                continue;
            };
            t.games += 1;
            match g.result.half_points(side) {
                2 => t.wins += 1,
                1 => t.draws += 1,
                _ => t.losses += 1,
            }
            if g.termination.is_fault() && g.fault_side == Some(side) {
                *t.faults
                    .entry(g.termination.name().to_string())
                    .or_default() += 1;
            }
        }
    }

    /// The table printed at the end (and by `merge`).
    pub fn table(&self) -> String {
        let width = self
            .engines
            .iter()
            .map(|e| e.len())
            .max()
            .unwrap_or(4)
            .max(6);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>7}  faults",
            "engine", "games", "wins", "losses", "draws", "score"
        );
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by(|&a, &b| {
            self.per_engine[b]
                .score()
                .total_cmp(&self.per_engine[a].score())
                .then(a.cmp(&b))
        });
        for i in order {
            let t = &self.per_engine[i];
            let faults: Vec<String> = t.faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
            let _ = writeln!(
                out,
                "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>6.1}%  {}",
                self.engines[i],
                t.games,
                t.wins,
                t.losses,
                t.draws,
                100.0 * t.score(),
                if faults.is_empty() {
                    "-".to_string()
                } else {
                    faults.join(", ")
                }
            );
        }
        let kinds: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(
            out,
            "games {}; terminations: {}",
            self.games,
            kinds.join(", ")
        );
        out
    }

    /// One line for the progress display: both engines' score for a match, else the leader.
    pub fn headline(&self) -> String {
        if self.engines.len() == 2 {
            let a = &self.per_engine[0];
            format!(
                "{} vs {}: {}-{}-{} ({:.1}%)",
                self.engines[0],
                self.engines[1],
                a.wins,
                a.losses,
                a.draws,
                100.0 * a.score()
            )
        } else {
            let best = (0..self.engines.len()).max_by(|&a, &b| {
                self.per_engine[a]
                    .score()
                    .total_cmp(&self.per_engine[b].score())
            });
            match best {
                Some(i) => format!(
                    "leader {} {:.1}%",
                    self.engines[i],
                    100.0 * self.per_engine[i].score()
                ),
                None => String::new(),
            }
        }
    }
}
