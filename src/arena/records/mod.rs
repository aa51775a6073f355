//! The records of a run: JSON lines, one event each.
//!
//! - `{"event":"run", ...}` first: the whole configuration and the schedule's size, so that
//!   `--resume` and `merge` rebuild the very same run;
//! - `{"event":"game", ...}` for each game, appended and flushed the moment it ends;
//! - `{"event":"summary", ...}` last, when the run (or a resumed part of it) completes.
//!
//! A game record holds only reproducible facts when neither engine is timed (depth/nodes limits):
//! wall times are left out, so such runs give byte-identical records.

pub mod pgn;
pub mod rate;
pub mod standings;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::arena::config::RunConfig;
use crate::arena::pairing::schedule::Shard;
use crate::arena::system::files::{self, Created, Target};
use crate::games::{AnyGame, EndReason, GameLine, Outcome, Side};

/// Bumped when a field changes meaning.
pub const FORMAT: u32 = 1;

/// The most bytes read from one records file: far beyond any run (a game line is a few KB), a
/// bound all the same, as for every input file ([`crate::input`]).
pub const MAX_RECORDS_BYTES: u64 = 1 << 40;

/// The longest records line read: a game of thousands of plies with every score and
/// principal variation is well under a megabyte; a longer "line" (a file of zeros without a line
/// break) is refused before it fills memory.
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// The numbers of the games recorded: one bit a game (a records file of ten million games
/// takes 1.25 MB), so a run, its resumption and a merge know what is done without keeping games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSet {
    words: Vec<u64>,
    len: u64,
}

impl GameSet {
    pub fn new() -> GameSet {
        GameSet::default()
    }

    /// Adds `index`; false if it was there already.
    pub fn insert(&mut self, index: u64) -> bool {
        let (word, bit) = ((index / 64) as usize, index % 64);
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        let fresh = self.words[word] & (1 << bit) == 0;
        self.words[word] |= 1 << bit;
        self.len += u64::from(fresh);
        fresh
    }

    pub fn contains(&self, index: u64) -> bool {
        self.words
            .get((index / 64) as usize)
            .is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The numbers, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| w as u64 * 64 + b)
        })
    }
}

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
    /// `--maxmoves` reached: a draw.
    MaxMoves,
    /// `--resign`: the engines' scores said the game was lost (see `detail`).
    Resign,
    /// `--draw`: the engines' scores said the game was even (see `detail`).
    DrawAdjudication,
    /// `--adjudicate tables`: the position is in the game's tables, which give its exact result.
    Tables,
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
            TerminationKind::MaxMoves => "max-moves",
            TerminationKind::Resign => "resign",
            TerminationKind::DrawAdjudication => "draw-adjudication",
            TerminationKind::Tables => "tables",
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

/// The records' spelling of a game's [`Outcome`]: PGN's result strings (`1-0`, `0-1`,
/// `1/2-1/2`), as every records file has held them since format 1.
mod pgn_result {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::games::Outcome;

    /// The strings a records file may hold, for the error naming a wrong one.
    const VALID: &[&str] = &["1-0", "0-1", "1/2-1/2"];

    pub fn serialize<S: Serializer>(outcome: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(outcome.pgn())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let text = String::deserialize(d)?;
        Outcome::from_pgn(&text).ok_or_else(|| serde::de::Error::unknown_variant(&text, VALID))
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

/// Serde's test for a count that is left out of the records when it is zero.
fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// One finished game, whole, as its records line holds it (the statistics keep only its summary,
/// `stats::GameStats`, made by `results::game_stats`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: u64,
    pub pair: u64,
    /// The schedule's round; a knockout's: its round of the bracket (0 is the first).
    pub round: u32,
    /// A knockout's encounter: its place in the round's bracket, 0-based (absent otherwise, and
    /// in records written before knockouts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<u32>,
    pub game: String,
    /// Engine names by side.
    pub south: String,
    pub north: String,
    pub opening: OpeningRecord,
    pub moves: Vec<MoveRecord>,
    /// The position string at the end.
    pub final_position: String,
    /// Who won, written as PGN's result string.
    #[serde(with = "pgn_result")]
    pub result: Outcome,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn: Option<PathBuf>,
    /// Bytes the PGN held before the run (`--pgn-append`): the run's games follow them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pgn_start: u64,
    /// The HTML report, rewritten at the end of each session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
    /// The engines' stderr logs.
    pub log_dir: PathBuf,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event {
    Run(Box<RunHeader>),
    Game(Box<GameRecord>),
    Summary(serde_json::Value),
}

/// Appends events, one flushed line each, to a records file held under an exclusive lock (so a
/// second run on the same file is refused instead of splicing its lines into this one's).
pub struct RecordWriter {
    file: File,
    path: PathBuf,
}

impl RecordWriter {
    /// A new file, locked (refused if the path exists: use `--resume` to continue one). The file
    /// is registered in `created`, so a start-up that fails later removes it again.
    pub fn create(path: &Path, created: &mut Created) -> Result<RecordWriter> {
        check_new(path)?;
        let shown = path.display();
        // Through a dangling link: its target is created, the link stays.
        let real = files::real_path(path);
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&real)
            .with_context(|| {
                format!(
                    "--out {shown}: cannot create (if it exists: --resume {shown} continues it)"
                )
            })?;
        created.file(&real);
        files::lock_exclusive(&file, path)?;
        Ok(RecordWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    /// An existing records file, opened for appending and locked, for `--resume`.
    pub fn open_existing(path: &Path) -> Result<RecordWriter> {
        check_records_path(path)?;
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .with_context(|| format!("{}: cannot open for appending", path.display()))?;
        files::lock_exclusive(&file, path)?;
        Ok(RecordWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Cuts a torn last line (a kill -9 mid-write): the file keeps its first `valid_len` bytes.
    pub fn cut(&mut self, valid_len: u64) -> Result<()> {
        self.file
            .set_len(valid_len)
            .with_context(|| format!("{}: cannot cut its torn last line", self.path.display()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn write(&mut self, event: &Event) -> Result<()> {
        self.file
            .write_all(&event_line(event)?)
            .and_then(|_| self.file.flush())
            .with_context(|| format!("{}: cannot write", self.path.display()))
    }
}

/// One event as a records line, newline included.
pub fn event_line(event: &Event) -> Result<Vec<u8>> {
    let mut line = serde_json::to_vec(event)?;
    line.push(b'\n');
    Ok(line)
}

/// Checks that `path` can be a new records file (refused if anything is there: an existing run
/// is continued with `--resume`, never replaced).
pub fn check_new(path: &Path) -> Result<()> {
    let shown = path.display();
    match files::target(path) {
        Ok(Target::Regular(0)) => bail!(
            "--out {shown}: exists and is empty: no run was recorded in it; remove it and \
                 start the run again"
        ),
        Ok(Target::Regular(_)) => bail!(
            "--out {shown}: exists (an existing file is never replaced): --resume {shown} \
                 continues the run it records, or choose another name"
        ),
        Ok(Target::Stream | Target::Directory) => bail!(
            "--out {shown}: not a regular file: records need a file that --resume and merge \
                 can read back"
        ),
        Ok(Target::Absent) | Err(_) => {}
    }
    files::check_location(&files::Named::new("--out", path)).map(|_| ())
}

/// A records path to read: precise errors for what is not a records file.
fn check_records_path(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => bail!(
            "{}: is a directory, not a records file; give the .jsonl file a run wrote with --out",
            path.display()
        ),
        Ok(m) if !m.is_file() => bail!(
            "{}: not a regular file; give the .jsonl file a run wrote with --out",
            path.display()
        ),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{}: no such file; give the .jsonl file a run wrote with --out",
            path.display()
        ),
        Err(e) => Err(e).with_context(|| format!("{}: cannot be read", path.display())),
    }
}

/// A records file as read back, every game in memory (a recorded run's page, tests): a run's
/// resumption, `merge`, `report` and `ratings` read it with [`RecordsFile::scan`] instead, one
/// game at a time.
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
    /// The last event is a summary: the file already ends with the statistics of every game it
    /// holds (resuming it again must not append the same summary once more).
    pub summarized: bool,
}

/// What a [`RecordsFile::scan`] keeps of a records file: its header, the set of its games (one
/// bit each), where its valid lines end, whether it ends with a summary.
#[derive(Debug)]
pub struct RecordsScan {
    pub header: RunHeader,
    /// The games recorded.
    pub done: GameSet,
    /// Bytes of whole, valid lines: a torn last line starts here.
    pub valid_len: u64,
    /// The last event is a summary (see [`RecordsFile::summarized`]).
    pub summarized: bool,
}

/// A knockout game's place as its record names it, with its line, for the bracket's check.
struct Placed {
    line: usize,
    round: u32,
    encounter: Option<u32>,
    south: usize,
    north: usize,
    result: Outcome,
}

/// Reads the lines of a records file, each whole line with its number, until `f` says stop or
/// the file ends (a torn last line, without its newline, is not read). Returns the lines begun.
fn each_line(path: &Path, mut f: impl FnMut(usize, &[u8]) -> Result<bool>) -> Result<usize> {
    let shown = path.display();
    let file = crate::input::open_input_file(path, MAX_RECORDS_BYTES, "records file")
        .map_err(anyhow::Error::msg)?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut buf = Vec::new();
    let mut line_no = 0;
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("{shown}: cannot be read"))?;
        if n == 0 {
            return Ok(line_no);
        }
        line_no += 1;
        if n as u64 > MAX_LINE_BYTES {
            bail!(
                "{shown} line {line_no}: longer than {MAX_LINE_BYTES} bytes, not a records \
                 line; the file was changed by something other than otau-arena"
            );
        }
        if !buf.ends_with(b"\n") {
            // Only a torn last write may be dropped: every line is written whole with its
            // newline last, so a line without one is a kill -9 mid-write (its game is
            // played again). A complete line that is not a records line is refused.
            return Ok(line_no);
        }
        if !f(line_no, &buf)? {
            return Ok(line_no);
        }
    }
}

impl RecordsFile {
    pub fn read(path: &Path) -> Result<RecordsFile> {
        let mut games = BTreeMap::new();
        let mut order = Vec::new();
        let scan = RecordsFile::scan(path, |_, g| {
            order.push(g.index);
            games.insert(g.index, g.clone());
            Ok(())
        })?;
        Ok(RecordsFile {
            header: scan.header,
            games,
            order,
            valid_len: scan.valid_len,
            summarized: scan.summarized,
        })
    }

    /// Reads and checks a records file one line at a time, handing each game's first record to
    /// `on_game` (with the run's header) in the order of the file (the order the games finished): memory does not grow
    /// with the games (one bit each; a knockout's placed games for its bracket check). The
    /// checks are [`RecordsFile::read`]'s: every game is checked against the run and the rules,
    /// and a game recorded a second time must be recorded alike (a second pass compares those).
    pub fn scan(
        path: &Path,
        mut on_game: impl FnMut(&RunHeader, &GameRecord) -> Result<()>,
    ) -> Result<RecordsScan> {
        check_records_path(path)?;
        let shown = path.display();
        let mut header: Option<RunHeader> = None;
        let mut done = GameSet::new();
        let mut valid_len = 0u64;
        let mut summarized = false;
        // Games recorded a second time: (index, line, record), compared in a second pass.
        let mut repeats: Vec<(u64, usize, GameRecord)> = Vec::new();
        // A knockout's games, for its bracket's check.
        let mut placed: BTreeMap<u64, Placed> = BTreeMap::new();
        let lines = each_line(path, |line_no, buf| {
            let event: Event = serde_json::from_slice(buf).map_err(|e| {
                anyhow::anyhow!(
                    "{shown} line {line_no}: not a records line ({e}); the file was changed \
                     by something other than otau-arena: restore it, or remove that line"
                )
            })?;
            valid_len += buf.len() as u64;
            match event {
                Event::Run(h) => {
                    if header.is_some() {
                        bail!("{shown} line {line_no}: a second run header");
                    }
                    if h.format != FORMAT {
                        bail!(
                            "{shown}: records format {} (this arena reads {FORMAT})",
                            h.format
                        );
                    }
                    header = Some(*h);
                }
                Event::Game(g) => {
                    let Some(h) = &header else {
                        bail!("{shown} line {line_no}: a game before the run header");
                    };
                    check_game(h, &g)
                        .map_err(|why| anyhow::anyhow!("{shown} line {line_no}: {why}"))?;
                    if done.insert(g.index) {
                        if h.config.knockout_rules().is_some() {
                            let engine = |name: &str| {
                                h.config
                                    .engines
                                    .iter()
                                    .position(|e| e.name == name)
                                    .unwrap_or(0)
                            };
                            placed.insert(
                                g.index,
                                Placed {
                                    line: line_no,
                                    round: g.round,
                                    encounter: g.encounter,
                                    south: engine(&g.south),
                                    north: engine(&g.north),
                                    result: g.result,
                                },
                            );
                        }
                        on_game(h, &g)?;
                    } else {
                        repeats.push((g.index, line_no, *g));
                    }
                    summarized = false;
                }
                Event::Summary(_) => summarized = true,
            }
            Ok(true)
        })?;
        if !repeats.is_empty() {
            check_repeats(path, &repeats)?;
        }
        if let Some(h) = &header {
            check_bracket(h, &placed, &shown.to_string())?;
        }
        let header = header.with_context(|| {
            if lines == 0 {
                format!(
                    "{shown}: empty: no run was recorded in it; remove it and start the run again"
                )
            } else {
                format!(
                    "{shown}: no run header line (the run was stopped while it started); \
                     remove it and start the run again"
                )
            }
        })?;
        Ok(RecordsScan {
            header,
            done,
            valid_len,
            summarized,
        })
    }
}

/// What is wrong with a game line of the run in `h`: an engine that is not in the run, a place
/// outside its schedule or shard, a knockout encounter that cannot be, moves the rules refuse.
fn check_game(h: &RunHeader, g: &GameRecord) -> std::result::Result<(), String> {
    for name in [&g.south, &g.north] {
        if !h.config.engines.iter().any(|e| &e.name == name) {
            return Err(format!("engine '{name}' is not in the run"));
        }
    }
    if g.index >= h.scheduled || g.pair != g.index / 2 {
        return Err(format!(
            "game index {} (pair {}) is outside the schedule of {} games",
            g.index, g.pair, h.scheduled
        ));
    }
    if let Some(s) = h.shard.filter(|s| !s.contains(g.pair)) {
        return Err(format!(
            "game index {} is not in this file's shard {s}",
            g.index
        ));
    }
    if let Some(why) = misplaced(h, g).or_else(|| contradiction(g)) {
        return Err(format!(
            "game {} {why}; the file was changed by something other than otau-arena: restore \
             it, or remove that line",
            g.index + 1
        ));
    }
    Ok(())
}

/// The games recorded a second time against their first records (read again from the file):
/// the same game twice counts once; two different records of it cannot both be true.
fn check_repeats(path: &Path, repeats: &[(u64, usize, GameRecord)]) -> Result<()> {
    let shown = path.display();
    let wanted: std::collections::BTreeSet<u64> = repeats.iter().map(|r| r.0).collect();
    let mut first: BTreeMap<u64, (usize, GameRecord)> = BTreeMap::new();
    each_line(path, |line_no, buf| {
        if let Ok(Event::Game(g)) = serde_json::from_slice::<Event>(buf) {
            if wanted.contains(&g.index) && !first.contains_key(&g.index) {
                first.insert(g.index, (line_no, *g));
            }
        }
        Ok(first.len() < wanted.len())
    })?;
    for (index, line_no, g) in repeats {
        let Some((first_line, old)) = first.get(index) else {
            continue;
        };
        if old != g {
            let (a, b) = (old.result.pgn(), g.result.pgn());
            bail!(
                "{shown} line {line_no}: game {} is recorded a second time, differently (line \
                 {first_line}: {a}, {}; here: {b}, {}); the file was changed by something other \
                 than otau-arena: keep the true record and remove the other line",
                index + 1,
                old.termination.describe(),
                g.termination.describe()
            );
        }
    }
    Ok(())
}

/// Why a game's place in the run cannot be: a knockout's encounter its bracket does not have,
/// or an encounter in a run that is no knockout.
fn misplaced(h: &RunHeader, g: &GameRecord) -> Option<String> {
    let knockout = h.config.tournament == crate::arena::pairing::schedule::TournamentKind::Knockout;
    match (knockout, g.encounter) {
        (false, None) => None,
        (false, Some(e)) => Some(format!(
            "names knockout encounter {} but the run is no knockout",
            e + 1
        )),
        (true, None) => Some("names no knockout encounter".to_string()),
        (true, Some(e)) => {
            // The bracket's size: the engines rounded up to a power of two (byes fill it).
            let size = h.config.engines.len().max(2).next_power_of_two() as u64;
            let rounds = size.trailing_zeros();
            let encounters = (g.round < rounds).then(|| size >> (g.round + 1));
            match encounters {
                Some(n) if u64::from(e) < n => None,
                Some(n) => Some(format!(
                    "names encounter {} of round {}, which has {n} encounter(s) in this knockout \
                     of {} engines",
                    u64::from(e) + 1,
                    g.round + 1,
                    h.config.engines.len()
                )),
                None => Some(format!(
                    "names round {}, but this knockout of {} engines has {rounds} round(s)",
                    u64::from(g.round) + 1,
                    h.config.engines.len()
                )),
            }
        }
    }
}

/// A knockout's games replayed through its bracket: each must be played where the bracket puts
/// it (the round and encounter its record names), and fit the bracket the games before it make.
/// An error names the game's line.
fn check_bracket(h: &RunHeader, games: &BTreeMap<u64, Placed>, shown: &str) -> Result<()> {
    let Some(rules) = h.config.knockout_rules() else {
        return Ok(());
    };
    // The game being replayed, to name its line.
    let current = std::cell::Cell::new(0u64);
    let replayed = crate::arena::pairing::knockout::Bracket::replay_placed(
        rules,
        games.iter().map(|(&index, g)| {
            current.set(index);
            // (Every name was checked against the run's engines line by line.)
            (index, g.south, g.north, g.result)
        }),
        |spec| {
            let g = &games[&spec.index];
            if (g.round, g.encounter) == (spec.round, spec.encounter) {
                return Ok(());
            }
            let place = |round: u32, e: Option<u32>| {
                let e = e.map_or("no encounter".to_string(), |e| {
                    format!("encounter {}", e + 1)
                });
                format!("round {}, {e}", u64::from(round) + 1)
            };
            Err(format!(
                "game {} names {}, but the knockout bracket plays it in {}",
                spec.index + 1,
                place(g.round, g.encounter),
                place(spec.round, spec.encounter)
            ))
        },
    );
    if let Err(why) = replayed {
        let line = games
            .get(&current.get())
            .map_or(String::new(), |g| format!(" line {}", g.line));
        bail!(
            "{shown}{line}: {why}; the file was changed by something other than otau-arena: \
             restore it, or remove that line"
        );
    }
    Ok(())
}

/// What the rules say against a game's record: its moves (opening, then played) replayed from
/// its start, each must be legal and none after the end; a game the moves end by the rules must
/// be recorded as so ended, with that result and reason, and one recorded so must end there.
fn contradiction(g: &GameRecord) -> Option<String> {
    let by_rules = g.termination.kind == TerminationKind::Rules;
    let start = match AnyGame::from_position(&g.opening.start) {
        Ok(start) => start,
        Err(e) if by_rules || !g.moves.is_empty() => {
            return Some(format!("starts from a position that cannot be read ({e})"))
        }
        // A game forfeited before it began: nothing to replay.
        Err(_) => return None,
    };
    let mut line = GameLine::new(start);
    let tokens = g.opening.moves.iter().chain(g.moves.iter().map(|m| &m.mv));
    for (ply, token) in tokens.enumerate() {
        if line.is_over() {
            return Some(format!(
                "has move {} ({token}) after the game ended by the rules",
                ply + 1
            ));
        }
        if let Err(e) = line.play_token(token) {
            return Some(format!(
                "has move {} ({token}), which the rules refuse: {e}",
                ply + 1
            ));
        }
    }
    let recorded = format!("{} ({})", g.result.pgn(), g.termination.describe());
    match line.result() {
        Some(fin) => {
            let mut t = Termination::of(TerminationKind::Rules);
            t.reason = Some(fin.reason);
            let agrees = by_rules
                && fin.outcome == g.result
                && g.termination.reason.is_none_or(|r| r == fin.reason);
            (!agrees).then(|| {
                format!(
                    "is recorded as {recorded}, but its moves end it by the rules as {} ({})",
                    fin.outcome.pgn(),
                    t.describe()
                )
            })
        }
        None => by_rules.then(|| {
            format!("is recorded as {recorded}, but its moves do not end it by the rules")
        }),
    }
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
