//! Reading a records file back: line by line within bounds, every game checked against the run
//! (its engines, its place in the run's pairing, the rules), games recorded twice compared.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::arena::pairing::game_set::GameSet;
use crate::arena::pairing::{Pairing, Recorded};
use crate::arena::records::events::{Event, GameRecord, RunHeader};
use crate::arena::records::termination::{Termination, TerminationKind};
use crate::arena::records::FORMAT;
use crate::games::{AnyGame, GameLine};

/// The most bytes read from one records file: far beyond any run (a game line is a few KB), a
/// bound all the same, as for every input file ([`crate::input`]).
pub const MAX_RECORDS_BYTES: u64 = 1 << 40;

/// The longest records line read: a game of thousands of plies with every score and
/// principal variation is well under a megabyte; a longer "line" (a file of zeros without a line
/// break) is refused before it fills memory.
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// A records path to read: precise errors for what is not a records file.
pub(super) fn check_records_path(path: &Path) -> Result<()> {
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
    /// The first line: the run the games belong to.
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
    /// The first line: the run the games belong to.
    pub header: RunHeader,
    /// The games recorded.
    pub done: GameSet,
    /// Bytes of whole, valid lines: a torn last line starts here.
    pub valid_len: u64,
    /// The last event is a summary (see [`RecordsFile::summarized`]).
    pub summarized: bool,
}

/// A game as its record names it, with its line, for the replay of a pairing that follows the
/// results (a knockout's bracket).
struct Placed {
    line: usize,
    game: Recorded,
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
    /// Reads the whole file into memory (fails as [`RecordsFile::scan`] does).
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
    /// with the games (one bit each; the placed games of a pairing that follows the results, for its
    /// replay). The
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
        // The run's pairing, made from its header: each game's place is checked against it.
        let mut pairing: Option<Box<dyn Pairing>> = None;
        // Its games, when it follows the results, for its replay.
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
                    pairing = Some(h.config.tournament.pairing(&h.config, h.shard));
                    header = Some(*h);
                }
                Event::Game(g) => {
                    let (Some(h), Some(p)) = (&header, &pairing) else {
                        bail!("{shown} line {line_no}: a game before the run header");
                    };
                    check_game(h, p.as_ref(), &g)
                        .map_err(|why| anyhow::anyhow!("{shown} line {line_no}: {why}"))?;
                    if done.insert(g.index) {
                        if p.follows_results() {
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
                                    game: Recorded {
                                        index: g.index,
                                        south: engine(&g.south),
                                        north: engine(&g.north),
                                        result: g.result,
                                        unplayed: g.termination.unplayed,
                                        round: g.round,
                                        encounter: g.encounter,
                                    },
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
        if let Some(p) = pairing.as_mut().filter(|p| p.follows_results()) {
            check_replay(p.as_mut(), &done, &placed, &shown.to_string())?;
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
/// outside its schedule or shard, a place its pairing cannot have (a knockout encounter that
/// cannot be), moves the rules refuse.
fn check_game(
    h: &RunHeader,
    pairing: &dyn Pairing,
    g: &GameRecord,
) -> std::result::Result<(), String> {
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
    if let Some(why) = pairing
        .misplaced(g.round, g.encounter)
        .or_else(|| contradiction(g))
    {
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

/// The games of a pairing that follows the results replayed through it, in game order (a
/// knockout's through its bracket: each must be played where the bracket puts it, and fit the
/// bracket the games before it make). An error names the game's line.
fn check_replay(
    pairing: &mut dyn Pairing,
    done: &GameSet,
    games: &BTreeMap<u64, Placed>,
    shown: &str,
) -> Result<()> {
    // The game being replayed, to name its line.
    let current = std::cell::Cell::new(0u64);
    // (Every name was checked against the run's engines line by line.)
    let mut recorded = games.iter().map(|(&index, g)| {
        current.set(index);
        g.game
    });
    if let Err(why) = pairing.replay(done, &mut recorded) {
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
