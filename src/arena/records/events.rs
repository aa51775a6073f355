//! The events of a records file, one JSON line each: the run's header, a game, the summary.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::arena::config::RunConfig;
use crate::arena::pairing::schedule::Shard;
use crate::arena::records::termination::Termination;
use crate::games::{Outcome, Side};

/// The records' spelling of a game's [`Outcome`]: PGN's result strings (`1-0`, `0-1`,
/// `1/2-1/2`), as every records file has held them since format 1.
mod pgn_result {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::games::Outcome;

    /// The strings a records file may hold, for the error naming a wrong one.
    const VALID: &[&str] = &["1-0", "0-1", "1/2-1/2"];

    pub(crate) fn serialize<S: Serializer>(outcome: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(outcome.pgn())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let text = String::deserialize(d)?;
        Outcome::from_pgn(&text).ok_or_else(|| serde::de::Error::unknown_variant(&text, VALID))
    }
}

/// Where a game started: the engines' moves follow these.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// The position the opening starts from.
    pub start: String,
    /// Opening moves (protocol tokens), played before the engines take over.
    pub moves: Vec<String>,
}

/// One engine move with what the engine said about it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Protocol token (`5`, `3a`, `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Game-record notation (federation notation for Toguz Kumalak).
    pub notation: String,
    /// Arena-measured think time; only in timed games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// The engine's last `info score`, as sent (`cp 35`, `win 7`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// The engine's last `info depth`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The engine's last `info nodes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// `info` values the engine sent for this move that were not numbers in range
    /// (`client::SearchInfo`): dropped, only counted. Absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub info_dropped: u32,
    /// The mover's CPU time on this move, its whole control group (only for an engine in one:
    /// `sandbox=`, `memory=`, `processes=`, `cpus=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<u64>,
    /// The waiting engine's CPU time during this move, likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_cpu_ms: Option<u64>,
    /// What either engine used beyond its `cpus=` or on the opponent's time, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overuse: Option<String>,
}

/// Serde's test for a count that is left out of the records when it is zero.
fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// One finished game, whole, as its records line holds it (the statistics keep only its summary,
/// `stats::GameStats`, made by `results::game_stats`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the whole schedule (all shards): the records' key, unique per run.
    pub index: u64,
    /// The game pair it belongs to: games 2P and 2P+1 share one opening, colours swapped.
    pub pair: u64,
    /// The schedule's round; a knockout's: its round of the bracket (0 is the first).
    pub round: u32,
    /// A knockout's encounter: its place in the round's bracket, 0-based (absent otherwise, and
    /// in records written before knockouts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<u32>,
    /// The game's id (`toguz`, `modiar`, ...), as in [`RunConfig`]'s `game`.
    pub game: String,
    /// Engine names by side.
    pub south: String,
    /// The engine playing North.
    pub north: String,
    /// Where the game started.
    pub opening: OpeningRecord,
    /// The engines' moves, in order (the opening's moves are in `opening`).
    pub moves: Vec<MoveRecord>,
    /// The position string at the end.
    pub final_position: String,
    /// Who won, written as PGN's result string.
    #[serde(with = "pgn_result")]
    pub result: Outcome,
    /// How the game ended, and who is to blame for a fault.
    pub termination: Termination,
    /// Stones each side is credited with at the end (south, north), when stones decided it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totals: Option<[u32; 2]>,
}

impl GameRecord {
    /// The engine name playing `side`.
    pub fn engine(&self, side: Side) -> &str {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }
}

/// The first line of a records file.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct RunHeader {
    /// The records format ([`crate::arena::records::FORMAT`]): a file of another format is refused,
    /// never misread.
    pub format: u32,
    /// Arena version that wrote the file.
    pub arena: String,
    /// The whole run as configured: `--resume` and `merge` rebuild it from this.
    pub config: RunConfig,
    /// Games in the whole schedule (all shards).
    pub scheduled: u64,
    /// The part of the schedule this file plays (`--shard K/N`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Every other output of the run, so that `--resume` goes on writing them all (absent in
    /// files of older arenas, whose resume takes them from the command line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs: Option<RecordedOutputs>,
    /// The external engines' program files as they were at the start, so that `--resume`
    /// refuses to start different ones (absent in files of older arenas).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<crate::arena::config::programs::ProgramStamp>,
}

/// Where a run writes besides its records. Paths are relative to the records file's directory
/// when they lie within it (the directory can be moved, and the run resumed from anywhere),
/// absolute otherwise.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct RecordedOutputs {
    /// The PGN file (`--pgn`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn: Option<PathBuf>,
    /// Bytes the PGN held before the run (`--pgn-append`): the run's games follow them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pgn_start: u64,
    /// The HTML report, rewritten at the end of each session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<PathBuf>,
    /// A Swiss's `--trf`, rewritten after every round (absent in files of older arenas, whose
    /// resume takes it from the command line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trf: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
    /// The engines' stderr logs.
    pub log_dir: PathBuf,
}

/// One line of a records file, told apart by its `event` key.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event {
    /// The first line: what the run is.
    Run(Box<RunHeader>),
    /// One finished game.
    Game(Box<GameRecord>),
    /// The statistics of every game so far, written when a session ends (for readers other than the
    /// arena; the arena recomputes them from the games).
    Summary(serde_json::Value),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A knockout's game says its encounter; a game line without one (any other run, and every
    /// records file written before knockouts) reads as before and is written back unchanged.
    #[test]
    fn the_encounter_is_written_only_for_a_knockout() {
        let old = r#"{"event":"game","index":3,"pair":1,"round":0,"game":"toguz-kumalak","south":"b","north":"a","opening":{"start":"s","moves":[]},"moves":[],"final_position":"f","result":"1-0","termination":{"kind":"rules"}}"#;
        let Event::Game(mut g) = serde_json::from_str::<Event>(old).unwrap() else {
            panic!("not a game")
        };
        assert_eq!(g.encounter, None);
        assert_eq!(serde_json::to_string(&Event::Game(g.clone())).unwrap(), old);
        g.encounter = Some(2);
        let line = serde_json::to_string(&Event::Game(g)).unwrap();
        assert!(line.contains(r#""round":0,"encounter":2,"game""#), "{line}");
    }

    /// A game's result is written as PGN's string, as in every records file since format 1
    /// (older files must still resume), and a wrong string is refused naming the valid ones.
    #[test]
    fn results_are_pgn_strings() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct R {
            #[serde(with = "pgn_result")]
            result: Outcome,
        }
        for (outcome, text) in [
            (Outcome::Win(Side::South), r#"{"result":"1-0"}"#),
            (Outcome::Win(Side::North), r#"{"result":"0-1"}"#),
            (Outcome::Draw, r#"{"result":"1/2-1/2"}"#),
        ] {
            assert_eq!(serde_json::to_string(&R { result: outcome }).unwrap(), text);
            assert_eq!(serde_json::from_str::<R>(text).unwrap().result, outcome);
        }
        let err = serde_json::from_str::<R>(r#"{"result":"*"}"#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown variant `*`, expected one of `1-0`, `0-1`, `1/2-1/2`"),
            "{err}"
        );
    }
}
