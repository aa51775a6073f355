//! `otau bench`: a fixed-depth search over built-in positions of every game, with one thread, a
//! fresh transposition table for each position and no endgame or solved tables. The total node count is the same on every machine and every
//! run, so it is a signature of the search: a change that alters it changed the search's
//! behaviour; one that does not (a pure speed-up) leaves it alone.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{Info, Limits, Options, Searcher};
use crate::games::{AnyGame, Game, GameLine};

/// Positions searched by the bench, with each one's depth. Toguz Kumalak positions come from
/// real games (PlayOK, 2024-2025) at moves 11 to 51; the other games from their start.
pub const POSITIONS: &[(&str, u32)] = &[
    (
        "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1",
        12,
    ),
    (
        "toguz-kumalak 3,2,15,2,1,7,8,0,2/0,1,22,2,6,7,0,16,1 38/29 -/8 s 11",
        12,
    ),
    (
        "toguz-kumalak 1,1,3,5,21,3,3,2,1/0,0,3,5,4,3,2,2,15 48/40 -/- s 21",
        12,
    ),
    (
        "toguz-kumalak 2,0,3,0,3,4,1,2,0/0,0,0,0,6,5,4,3,2 51/76 1/2 s 31",
        14,
    ),
    (
        "toguz-kumalak 0,0,1,1,2,23,2,2,1/0,0,0,0,1,1,1,2,4 67/54 1/- s 41",
        14,
    ),
    (
        "toguz-kumalak 0,0,4,3,3,0,1,1,5/0,1,8,6,0,6,3,0,1 69/51 8/2 s 51",
        14,
    ),
    (
        "toguz-kumalak-7 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 -/- s 1",
        12,
    ),
    ("bestemshe 5,5,5,5,5/5,5,5,5,5 0/0 -/- s 1", 14),
    ("giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 s 1", 6),
    ("giuthi-6x4 4,4,4,4,4,4/4,4,4,4,4,4 0/0 s 1", 8),
    ("modiar 7,7,7/7,7,7 0/0 s 1", 14),
];

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// The position string searched.
    pub position: String,
    /// The position's game is not available in this build (it failed to parse).
    pub skipped: Option<String>,
    /// The move found, in the game's notation; `None` when skipped or the game is over.
    pub best: Option<String>,
    /// The search's last report; `None` when skipped.
    pub info: Option<Info>,
}

/// Runs the bench. `depth` replaces every position's depth; `positions` replaces the list;
/// `threads` above 1 makes the node count vary from run to run.
pub fn run(
    depth: Option<u32>,
    hash_mb: usize,
    threads: usize,
    positions: Option<&[(&str, u32)]>,
    mut on_result: impl FnMut(&BenchResult),
) -> (u64, Duration) {
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    for &(text, default_depth) in positions.unwrap_or(POSITIONS) {
        let pos = match AnyGame::from_position(text) {
            Ok(pos) => pos,
            Err(e) => {
                on_result(&BenchResult {
                    position: text.to_string(),
                    skipped: Some(e.to_string()),
                    best: None,
                    info: None,
                });
                continue;
            }
        };
        let mut searcher = Searcher::new(Options {
            hash_mb,
            threads,
            ..Options::default()
        });
        // Tables would make the count depend on what this machine has cached.
        let mut features = searcher.features();
        features.tables = false;
        searcher.set_features(features);
        let line = GameLine::new(pos.clone());
        let limits = Limits {
            depth: Some(depth.unwrap_or(default_depth)),
            ..Limits::default()
        };
        let started = Instant::now();
        let report = searcher.search(&line, &limits, &AtomicBool::new(false), &mut |_| {});
        total_time += started.elapsed();
        total_nodes += report.info.nodes;
        on_result(&BenchResult {
            position: text.to_string(),
            skipped: None,
            best: report.best.map(|mv| pos.move_name(mv)),
            info: Some(report.info),
        });
    }
    (total_nodes, total_time)
}
