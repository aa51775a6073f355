//! `otau-arena merge <files>`: the records of shards (or of any pieces of one run) joined into
//! one, giving the statistics a single run would have given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::arena::matchmaking::tournament::{new_standings, pairing, summary_json};
use crate::arena::pairing::GameSet;
use crate::arena::records::standings::Standings;
use crate::arena::records::{
    event_line, Event, GameRecord, RecordedOutputs, RecordsFile, RunHeader,
};
use crate::arena::system::files::{self, check_distinct, check_location, Named, Target};

/// One run put back together: its header and its standings, counted from the files one game at
/// a time (memory does not grow with the games); the games themselves stay in the files, read
/// again when they are written out ([`Merged::games`], [`Merged::for_each_game`]).
#[derive(Debug)]
pub struct Merged {
    /// The run's header, without a shard.
    pub header: RunHeader,
    /// The files merged, in the order given.
    pub files: Vec<PathBuf>,
    /// The standings, fed in file order (each file in the order its games finished). The SPRT
    /// of shards is a fixed-sample verdict: the shards did not stop on it.
    pub standings: Standings,
    /// Whether the files are shards (slices) of the run.
    pub sharded: bool,
}

impl Merged {
    /// Games of the schedule that no file holds (a knockout's: the games its bracket still
    /// needs at least).
    pub fn missing(&self) -> u64 {
        match pairing(&self.header.config, None, &self.standings) {
            Ok(p) => p.games_left(),
            Err(_) => self.header.scheduled.saturating_sub(self.standings.len()),
        }
    }

    /// Every game once, in file order (each file in the order its games finished), read from
    /// the files one at a time; `f` hears its place in that order.
    pub fn for_each_game(&self, mut f: impl FnMut(usize, &GameRecord)) -> Result<()> {
        let mut seen = GameSet::new();
        let mut place = 0;
        for path in &self.files {
            RecordsFile::scan(path, |_, g| {
                if seen.insert(g.index) {
                    f(place, g);
                    place += 1;
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    /// Every game, by game number: all in memory (written out in schedule order).
    pub fn games(&self) -> Result<BTreeMap<u64, GameRecord>> {
        let mut games = BTreeMap::new();
        self.for_each_game(|_, g| {
            games.insert(g.index, g.clone());
        })?;
        Ok(games)
    }
}

/// Reads and joins records files of the same run (same configuration; shards may differ), one
/// game at a time. A game in two files must be recorded alike in both: the second records of
/// games already read are kept until they are compared with the first (a second pass).
pub fn merge(files: &[PathBuf]) -> Result<Merged> {
    let Some(first) = files.first() else {
        bail!("merge needs at least one records file");
    };
    let mut header: Option<RunHeader> = None;
    let mut standings: Option<Standings> = None;
    let mut seen = GameSet::new();
    // Games of a later file that an earlier one holds: (file, record).
    let mut repeats: Vec<(usize, GameRecord)> = Vec::new();
    let mut sharded = false;
    for (k, path) in files.iter().enumerate() {
        // Counted as read; a file of another run is refused at its end, before any use.
        let scan = RecordsFile::scan(path, |h, g| {
            if seen.insert(g.index) {
                standings
                    .get_or_insert_with(|| new_standings(&h.config))
                    .add(g);
            } else {
                repeats.push((k, g.clone()));
            }
            Ok(())
        })?;
        match &header {
            None => header = Some(scan.header.clone()),
            Some(base) => {
                if scan.header.config != base.config || scan.header.scheduled != base.scheduled {
                    bail!(
                        "{} is from a different run than {} (configurations differ)",
                        path.display(),
                        first.display()
                    );
                }
            }
        }
        sharded |= scan.header.shard.is_some();
    }
    let mut header = header.expect("a file was read");
    if !repeats.is_empty() {
        check_repeats(files, &repeats)?;
    }
    header.shard = None;
    // The pieces' own outputs are not the merged run's (see `write_outputs`).
    header.outputs = None;
    let mut standings = standings.unwrap_or_else(|| new_standings(&header.config));
    if sharded {
        standings.set_fixed_sample_sprt(None);
    }
    Ok(Merged {
        header,
        files: files.to_vec(),
        standings,
        sharded,
    })
}

/// The games found again in a later file against their first records (the files read once
/// more): a game recorded differently in two files is refused.
fn check_repeats(files: &[PathBuf], repeats: &[(usize, GameRecord)]) -> Result<()> {
    let wanted: std::collections::BTreeSet<u64> = repeats.iter().map(|(_, g)| g.index).collect();
    let mut first: BTreeMap<u64, GameRecord> = BTreeMap::new();
    for path in files {
        RecordsFile::scan(path, |_, g| {
            if wanted.contains(&g.index) && !first.contains_key(&g.index) {
                first.insert(g.index, g.clone());
            }
            Ok(())
        })?;
        if first.len() == wanted.len() {
            break;
        }
    }
    for (k, g) in repeats {
        if first.get(&g.index).is_some_and(|old| old != g) {
            bail!(
                "game {} is recorded differently in {} and an earlier file",
                g.index + 1,
                files[*k].display()
            );
        }
    }
    Ok(())
}

/// Writes a merged run: `out` as one records file, games in schedule order (never replacing a
/// file), `pgn` as the games' PGN. Both are checked (against each other and the merged files)
/// before either is written.
pub fn write_outputs(
    merged: &mut Merged,
    files: &[PathBuf],
    out: Option<&Path>,
    pgn: Option<&Path>,
    event: &str,
) -> Result<()> {
    let out = out.map(|p| Named::new("--out", p));
    let pgn = pgn.map(|p| Named::new("--pgn", p));
    let all: Vec<Named> = [&out, &pgn].into_iter().flatten().cloned().collect();
    let inputs: Vec<Named> = files.iter().map(|f| Named::new("the input", f)).collect();
    check_distinct(&all, &inputs)?;
    for o in &all {
        check_location(o)?;
    }
    if let Some(o) = &out {
        if let Target::Regular(_) = files::target(&o.path)? {
            bail!("{o}: exists (an existing file is never replaced); choose another name");
        }
        // A resumed merge (games missing) goes on writing the PGN written here.
        merged.header.outputs = Some(RecordedOutputs {
            pgn: pgn.as_ref().map(|p| files::to_record(&o.path, &p.path)),
            pgn_start: 0,
            report: None,
            trf: None,
            event: event.to_string(),
            log_dir: files::to_record(&o.path, Path::new("otau-arena-logs")),
        });
        write(merged, o)?;
    }
    if let Some(p) = &pgn {
        let games = merged.games()?;
        files::write_whole_with(p, false, |w| {
            for g in games.values() {
                w.write_all(crate::arena::records::pgn::game_pgn(g, event).as_bytes())?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// Writes a merged run as one records file, games in schedule order.
fn write(merged: &Merged, out: &Named) -> Result<()> {
    // Written whole or not at all: a half-written merge would read as a run with missing games.
    let mut bytes = event_line(&Event::Run(Box::new(merged.header.clone())))?;
    for g in merged.games()?.values() {
        bytes.extend(event_line(&Event::Game(Box::new(g.clone())))?);
    }
    if merged.missing() == 0 {
        bytes.extend(event_line(&Event::Summary(summary_json(
            &merged.standings,
            &merged.header,
        )))?);
    }
    files::write_whole(out, &bytes, true)
        .context("the merged records were not written (an existing file is never replaced)")
}
