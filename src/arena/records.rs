//! The records of a run: JSON lines, one event each.
//!
//! - `{"event":"run", ...}` first: the whole configuration and the schedule's size, so that
//!   `--resume` and `merge` rebuild the very same run;
//! - `{"event":"game", ...}` for each game, appended and flushed the moment it ends;
//! - `{"event":"summary", ...}` last, when the run (or a resumed part of it) completes.
//!
//! A game record holds only reproducible facts when neither engine is timed (depth/nodes limits):
//! wall times are left out, so such runs give byte-identical records.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::config::RunConfig;
use super::schedule::Shard;
use crate::games::{EndReason, Side};

/// Bumped when a field changes meaning.
pub const FORMAT: u32 = 1;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum TerminationKind {
    /// The game's own rules ended it (see `reason`).
    Rules,
    /// A player's store holds more than half of all stones: the result cannot change.
    DecidedScore,
    /// `--max-plies` reached: scored by the stones each player holds (store plus own row).
    MaxPlies,
    /// The engine sent an illegal or unreadable move.
    IllegalMove,
    /// No `bestmove` within the remaining time (or `st`, or the move timeout) plus the margin.
    TimeLoss,
    /// The engine's process ended or its pipes broke.
    Crash,
    /// No `ugiok` or `readyok` within the startup timeout.
    Stall,
    /// The engine failed to start too many times in a row: its games are forfeited unplayed.
    Forfeit,
}

impl TerminationKind {
    pub fn name(self) -> &'static str {
        match self {
            TerminationKind::Rules => "rules",
            TerminationKind::DecidedScore => "decided-score",
            TerminationKind::MaxPlies => "max-plies",
            TerminationKind::IllegalMove => "illegal-move",
            TerminationKind::TimeLoss => "time-loss",
            TerminationKind::Crash => "crash",
            TerminationKind::Stall => "stall",
            TerminationKind::Forfeit => "forfeit",
        }
    }

    /// Whether an engine's failure ended the game (the engine on `side` lost by it).
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            TerminationKind::IllegalMove
                | TerminationKind::TimeLoss
                | TerminationKind::Crash
                | TerminationKind::Stall
                | TerminationKind::Forfeit
        )
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Termination {
    pub kind: TerminationKind,
    /// For a fault: the side whose engine failed (and lost). Absent if both failed to start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// For `rules`: the game's end rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<EndReason>,
    /// Human-readable details (the bad token, the exit status, ...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

impl Termination {
    /// A termination of this kind, with no side, reason or detail yet.
    pub fn of(kind: TerminationKind) -> Termination {
        Termination {
            kind,
            side: None,
            reason: None,
            detail: String::new(),
        }
    }

    /// The engine on `side` failed (and lost).
    pub fn fault(kind: TerminationKind, side: Side, detail: String) -> Termination {
        Termination {
            kind,
            side: Some(side),
            reason: None,
            detail,
        }
    }

    /// `kind: reason or detail`, e.g. `rules: majority-in-store`, `time-loss: no move after ...`.
    pub fn describe(&self) -> String {
        let more = match self.reason {
            Some(r) => serde_json::to_value(r)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            None => self.detail.clone(),
        };
        if more.is_empty() {
            self.kind.name().to_string()
        } else {
            format!("{}: {more}", self.kind.name())
        }
    }
}

/// A game result: PGN's strings.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    SouthWins,
    #[serde(rename = "0-1")]
    NorthWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::SouthWins => "1-0",
            GameResult::NorthWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::South => GameResult::SouthWins,
            Side::North => GameResult::NorthWins,
        }
    }

    /// Points for a side: 1, 0.5 or 0 (as doubled integers: 2, 1, 0).
    pub fn half_points(self, side: Side) -> u32 {
        match (self, side) {
            (GameResult::Draw, _) => 1,
            (GameResult::SouthWins, Side::South) | (GameResult::NorthWins, Side::North) => 2,
            _ => 0,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// The position the opening starts from.
    pub start: String,
    /// Opening moves (protocol tokens), played before the engines take over.
    pub moves: Vec<String>,
}

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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// `info` values the engine sent for this move that were not numbers in range
    /// (`client::SearchInfo`): dropped, only counted. Absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub info_dropped: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One finished game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: u64,
    pub pair: u64,
    pub round: u32,
    pub game: String,
    /// Engine names by side.
    pub south: String,
    pub north: String,
    pub opening: OpeningRecord,
    pub moves: Vec<MoveRecord>,
    /// The position string at the end.
    pub final_position: String,
    pub result: GameResult,
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
    pub format: u32,
    /// Arena version that wrote the file.
    pub arena: String,
    pub config: RunConfig,
    /// Games in the whole schedule (all shards).
    pub scheduled: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event {
    Run(RunHeader),
    Game(Box<GameRecord>),
    Summary(serde_json::Value),
}

/// Appends events, one flushed line each.
pub struct RecordWriter {
    file: File,
}

impl RecordWriter {
    /// A new file (refused if it exists: use `--resume` to continue one).
    pub fn create(path: &Path) -> Result<RecordWriter> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .with_context(|| {
                format!(
                    "{}: cannot create (if it exists: --resume {} continues it)",
                    path.display(),
                    path.display()
                )
            })?;
        Ok(RecordWriter { file })
    }

    /// Appends to an existing file, first cutting a torn last line (a kill -9 mid-write).
    pub fn append(path: &Path, valid_len: u64) -> Result<RecordWriter> {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("{}: cannot open for appending", path.display()))?;
        file.set_len(valid_len)?;
        let mut w = RecordWriter { file };
        use std::io::Seek;
        w.file.seek(std::io::SeekFrom::End(0))?;
        Ok(w)
    }

    pub fn write(&mut self, event: &Event) -> Result<()> {
        self.file.write_all(&event_line(event)?)?;
        self.file.flush()?;
        Ok(())
    }
}

/// One event as a records line, newline included.
pub fn event_line(event: &Event) -> Result<Vec<u8>> {
    let mut line = serde_json::to_vec(event)?;
    line.push(b'\n');
    Ok(line)
}

/// Writes a whole file so that readers find the old content or the new, never a part of it: the
/// bytes go to a temporary file beside the target, are synced to disk, and the temporary file
/// then takes the target's name (atomic within one file system). A crash or a full disk leaves
/// at most a stray `.<name>.tmp.<pid>` file. With `no_clobber` an existing target is an error,
/// checked atomically (the temporary file is linked, not renamed, to the target's name).
pub fn write_atomically(path: &Path, bytes: &[u8], no_clobber: bool) -> Result<()> {
    let name = path
        .file_name()
        .with_context(|| format!("{}: not a file name", path.display()))?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp.{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| -> std::io::Result<()> {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        if no_clobber {
            std::fs::hard_link(&tmp, path)?;
            std::fs::remove_file(&tmp)
        } else {
            std::fs::rename(&tmp, path)
        }
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("{}: cannot write", path.display()));
    }
    Ok(())
}

/// A records file as read back.
#[derive(Debug)]
pub struct RecordsFile {
    pub header: RunHeader,
    /// Games by index (a game recorded twice keeps its first record).
    pub games: BTreeMap<u64, GameRecord>,
    /// The indices of `games` in the order their lines appear: the order the games finished
    /// (the SPRT's stop and the report's charts replay it).
    pub order: Vec<u64>,
    /// Bytes of whole, valid lines: a torn last line starts here.
    pub valid_len: u64,
}

impl RecordsFile {
    pub fn read(path: &Path) -> Result<RecordsFile> {
        let file = File::open(path).with_context(|| format!("{}", path.display()))?;
        let mut reader = BufReader::new(file);
        let mut header = None;
        let mut games = BTreeMap::new();
        let mut order = Vec::new();
        let mut valid_len = 0u64;
        let mut buf = String::new();
        let mut line_no = 0;
        loop {
            buf.clear();
            let n = reader.read_line(&mut buf)?;
            if n == 0 {
                break;
            }
            line_no += 1;
            let complete = buf.ends_with('\n');
            let event: Event = match serde_json::from_str(buf.trim_end()) {
                Ok(e) if complete => e,
                Ok(_) | Err(_) => {
                    // Only the very last line may be torn (the run was killed mid-write).
                    let mut rest = String::new();
                    if !complete || reader.read_line(&mut rest)? == 0 {
                        break;
                    }
                    bail!("{} line {line_no}: not a records line", path.display());
                }
            };
            valid_len += n as u64;
            match event {
                Event::Run(h) => {
                    if header.is_some() {
                        bail!("{} line {line_no}: a second run header", path.display());
                    }
                    if h.format != FORMAT {
                        bail!(
                            "{}: records format {} (this arena reads {FORMAT})",
                            path.display(),
                            h.format
                        );
                    }
                    header = Some(h);
                }
                Event::Game(g) => {
                    let Some(h) = &header else {
                        bail!(
                            "{} line {line_no}: a game before the run header",
                            path.display()
                        );
                    };
                    for name in [&g.south, &g.north] {
                        if !h.config.engines.iter().any(|e| &e.name == name) {
                            bail!(
                                "{} line {line_no}: engine '{name}' is not in the run",
                                path.display()
                            );
                        }
                    }
                    if let std::collections::btree_map::Entry::Vacant(slot) = games.entry(g.index) {
                        order.push(g.index);
                        slot.insert(*g);
                    }
                }
                Event::Summary(_) => {}
            }
        }
        let header = header.with_context(|| format!("{}: no run header line", path.display()))?;
        Ok(RecordsFile {
            header,
            games,
            order,
            valid_len,
        })
    }
}
