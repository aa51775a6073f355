//! Per-engine figures beyond the score: search depth, speed, time per move, and how its games
//! ended (faults such as time losses or illegal moves, adjudications, the rules' own ends).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::elo::Wdl;
use super::game::{GameStats, MoveSummary};
use super::table::{Column, Layout, PrintedTable};
use crate::games::Side;

/// One engine's figures over all its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineDiagnostics {
    /// The engine's name.
    pub name: String,
    /// All its games, from its side.
    pub wdl: Wdl,
    /// Totals of all its moves.
    pub moves: MoveSummary,
    /// Mean reported depth.
    pub average_depth: Option<f64>,
    /// Nodes per second over the moves that reported nodes.
    pub nodes_per_second: Option<f64>,
    /// Mean thinking time per move as the arena measured it, milliseconds.
    pub average_time_ms: Option<f64>,
    /// Its games by termination kind, from its point of view: `time` losses are
    /// `terminations["time-loss"].losses`, wins by the opponent's crash `terminations["crash"].wins`.
    pub terminations: BTreeMap<String, Wdl>,
}

impl EngineDiagnostics {
    pub(crate) fn new(name: &str) -> EngineDiagnostics {
        EngineDiagnostics {
            name: name.to_string(),
            wdl: Wdl::default(),
            moves: MoveSummary::default(),
            average_depth: None,
            nodes_per_second: None,
            average_time_ms: None,
            terminations: BTreeMap::new(),
        }
    }

    /// Games it lost by `kind`.
    pub fn losses_by(&self, kind: &str) -> u64 {
        self.terminations.get(kind).map_or(0, |w| w.losses)
    }
}

/// The figures of every engine, in the order of `players` (others appended as they appear).
pub fn engine_diagnostics(games: &[GameStats], players: &[String]) -> Vec<EngineDiagnostics> {
    let mut out: Vec<EngineDiagnostics> =
        players.iter().map(|p| EngineDiagnostics::new(p)).collect();
    for game in games {
        for side in Side::BOTH {
            let name = game.player(side);
            let k = match out.iter().position(|d| d.name == name) {
                Some(k) => k,
                None => {
                    out.push(EngineDiagnostics::new(name));
                    out.len() - 1
                }
            };
            let d = &mut out[k];
            let points = game.points(side);
            d.wdl.add_points(points);
            d.moves.merge(game.moves(side));
            d.terminations
                .entry(game.termination.clone())
                .or_default()
                .add_points(points);
        }
    }
    for d in &mut out {
        d.average_depth = d.moves.average_depth();
        d.nodes_per_second = d.moves.nodes_per_second();
        d.average_time_ms = d.moves.average_time_ms();
    }
    out
}

/// Games by termination kind over the whole run.
pub fn termination_counts(games: &[GameStats]) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for g in games {
        *out.entry(g.termination.clone()).or_insert(0) += 1;
    }
    out
}

/// `x` with `digits` decimals, if there is a figure.
fn decimals(x: Option<f64>, digits: usize) -> Option<String> {
    x.map(|x| format!("{x:.digits$}"))
}

/// The engines' figures, with their games by termination as `kind W-D-L`, as the text and the
/// report print them.
pub const ENGINES: PrintedTable<EngineDiagnostics> = PrintedTable {
    columns: &[
        Column {
            text: "ENGINE",
            html: "Engine",
            layout: Layout::Name { min: 6 },
            gap: "",
            cell: |_, d| Some(d.name.clone()),
        },
        Column {
            text: "GAMES",
            html: "Games",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, d| Some(d.wdl.games().to_string()),
        },
        Column {
            text: "MOVES",
            html: "Moves",
            layout: Layout::Right(8),
            gap: " ",
            cell: |_, d| Some(d.moves.moves.to_string()),
        },
        Column {
            text: "DEPTH",
            html: "Avg depth",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, d| decimals(d.average_depth, 2),
        },
        Column {
            text: "KNODES/S",
            html: "kN/s",
            layout: Layout::Right(10),
            gap: " ",
            cell: |_, d| decimals(d.nodes_per_second.map(|n| n / 1000.0), 1),
        },
        Column {
            text: "MS/MOVE",
            html: "ms/move",
            layout: Layout::Right(8),
            gap: " ",
            cell: |_, d| decimals(d.average_time_ms, 2),
        },
        Column {
            text: "ENDINGS (W-D-L)",
            html: "Endings (W-D-L)",
            layout: Layout::Free,
            gap: "  ",
            cell: |_, d| {
                let endings: Vec<String> = d
                    .terminations
                    .iter()
                    .map(|(k, w)| format!("{k} {}-{}-{}", w.wins, w.draws, w.losses))
                    .collect();
                Some(endings.join(", "))
            },
        },
    ],
    missing: "-",
};

/// A table of the engines' figures, with their games by termination as `kind W-D-L`.
pub fn diagnostics_text(engines: &[EngineDiagnostics]) -> String {
    let mut out = ENGINES.text(engines);
    // Values the arena refused to average (or print) are said, not hidden: a line per engine.
    for d in engines.iter().filter(|d| d.moves.info_dropped > 0) {
        out.push_str(&format!(
            "{}: {} search value(s) out of range dropped (depth, nodes or score)\n",
            d.name, d.moves.info_dropped
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Outcome;

    fn game(south: &str, north: &str, outcome: Outcome, termination: &str) -> GameStats {
        let mut s = MoveSummary::default();
        s.record(1_000, Some(4), Some(2_000));
        s.record(3_000, Some(6), Some(6_000));
        let mut n = MoveSummary::default();
        n.record(10_000, None, None);
        GameStats {
            pair: 0,
            game: 0,
            south: south.into(),
            north: north.into(),
            outcome,
            termination: termination.into(),
            plies: 3,
            south_total: 0,
            north_total: 0,
            south_moves: s,
            north_moves: n,
        }
    }

    #[test]
    fn aggregates_per_engine() {
        let games = [
            game("a", "b", Outcome::Win(Side::South), "rules"),
            game("b", "a", Outcome::Win(Side::North), "time-loss"),
            game("a", "b", Outcome::Draw, "max-plies"),
        ];
        let d = engine_diagnostics(&games, &["b".to_string()]);
        assert_eq!(d[0].name, "b");
        assert_eq!(d[1].name, "a");
        let a = &d[1];
        assert_eq!(
            a.wdl,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 0
            }
        );
        // a played South twice (2 moves each, depth 4 and 6, 8,000 nodes in 4 ms) and North once.
        assert_eq!(a.moves.moves, 5);
        assert_eq!(a.average_depth, Some(5.0));
        assert_eq!(a.nodes_per_second, Some(2_000_000.0));
        assert_eq!(a.average_time_ms, Some(18.0 / 5.0));
        assert_eq!(d[0].losses_by("time-loss"), 1);
        assert_eq!(a.terminations["time-loss"].wins, 1);
        assert_eq!(d[0].average_depth, Some(5.0));
        let counts = termination_counts(&games);
        assert_eq!(counts["rules"], 1);
        assert_eq!(counts.values().sum::<u64>(), 3);
        let text = diagnostics_text(&d);
        assert!(text.contains("time-loss 0-0-1"), "{text}");
        assert!(text.lines().nth(2).unwrap().starts_with("a "), "{text}");
        assert!(!text.contains("dropped"), "{text}");
        let mut odd = games[0].clone();
        odd.south_moves.info_dropped = 2;
        let text = diagnostics_text(&engine_diagnostics(&[odd.clone(), odd], &[]));
        assert!(
            text.contains("a: 4 search value(s) out of range dropped"),
            "{text}"
        );
    }
}
