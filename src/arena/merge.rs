//! `otau-arena merge <files>`: the records of shards (or of any pieces of one run) joined into
//! one, giving the statistics a single run would have given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::outputs::{self, check_distinct, check_location, Named, Target};
use super::records::{event_line, Event, GameRecord, RecordedOutputs, RecordsFile, RunHeader};
use super::results::Standings;
use super::tournament::{bracket, new_standings, summary_json};

/// One run put back together.
#[derive(Debug)]
pub struct Merged {
    /// The run's header, without a shard.
    pub header: RunHeader,
    pub games: BTreeMap<u64, GameRecord>,
    /// The games' numbers in file order (each file in the order its games finished).
    pub order: Vec<u64>,
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
        match bracket(&self.header.config, &self.standings) {
            Ok(Some(b)) => b.games_left(),
            _ => self
                .header
                .scheduled
                .saturating_sub(self.games.len() as u64),
        }
    }
}

/// Reads and joins records files of the same run (same configuration; shards may differ).
pub fn merge(files: &[PathBuf]) -> Result<Merged> {
    let Some((first, rest)) = files.split_first() else {
        bail!("merge needs at least one records file");
    };
    let base = RecordsFile::read(first)?;
    let mut header = base.header;
    let mut sharded = header.shard.is_some();
    header.shard = None;
    // The pieces' own outputs are not the merged run's (see `write_outputs`).
    header.outputs = None;
    let mut order = base.order;
    let mut games = base.games;
    for path in rest {
        let f = RecordsFile::read(path)?;
        if f.header.config != header.config || f.header.scheduled != header.scheduled {
            bail!(
                "{} is from a different run than {} (configurations differ)",
                path.display(),
                first.display()
            );
        }
        sharded |= f.header.shard.is_some();
        order.extend(f.order.iter().filter(|i| !games.contains_key(i)));
        for (index, g) in f.games {
            match games.get(&index) {
                Some(old) if *old != g => bail!(
                    "game {} is recorded differently in {} and an earlier file",
                    index + 1,
                    path.display()
                ),
                Some(_) => {}
                None => {
                    games.insert(index, g);
                }
            }
        }
    }
    let mut standings = new_standings(&header.config);
    if sharded {
        standings.set_fixed_sample_sprt(None);
    }
    for index in &order {
        standings.add(&games[index]);
    }
    Ok(Merged {
        header,
        games,
        order,
        standings,
        sharded,
    })
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
        if let Target::Regular(_) = outputs::target(&o.path)? {
            bail!("{o}: exists (an existing file is never replaced); choose another name");
        }
        // A resumed merge (games missing) goes on writing the PGN written here.
        merged.header.outputs = Some(RecordedOutputs {
            pgn: pgn.as_ref().map(|p| outputs::to_record(&o.path, &p.path)),
            pgn_start: 0,
            report: None,
            event: event.to_string(),
            log_dir: outputs::to_record(&o.path, Path::new("otau-arena-logs")),
        });
        write(merged, o)?;
    }
    if let Some(p) = &pgn {
        outputs::write_whole_with(p, false, |w| {
            for g in merged.games.values() {
                w.write_all(super::pgn::game_pgn(g, event).as_bytes())?;
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
    for g in merged.games.values() {
        bytes.extend(event_line(&Event::Game(Box::new(g.clone())))?);
    }
    if merged.missing() == 0 {
        bytes.extend(event_line(&Event::Summary(summary_json(
            &merged.standings,
            &merged.header,
        )))?);
    }
    outputs::write_whole(out, &bytes, true)
        .context("the merged records were not written (an existing file is never replaced)")
}
