//! `otau-arena merge <files>`: the records of shards (or of any pieces of one run) joined into
//! one, giving the statistics a single run would have given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::records::{Event, GameRecord, RecordWriter, RecordsFile, RunHeader};
use super::results::Standings;
use super::tournament::{new_standings, summary_json};

/// One run put back together.
#[derive(Debug)]
pub struct Merged {
    /// The run's header, without a shard.
    pub header: RunHeader,
    pub games: BTreeMap<u64, GameRecord>,
    pub standings: Standings,
}

impl Merged {
    /// Games of the schedule that no file holds.
    pub fn missing(&self) -> u64 {
        self.header
            .scheduled
            .saturating_sub(self.games.len() as u64)
    }
}

/// Reads and joins records files of the same run (same configuration; shards may differ).
pub fn merge(files: &[PathBuf]) -> Result<Merged> {
    let Some((first, rest)) = files.split_first() else {
        bail!("merge needs at least one records file");
    };
    let base = RecordsFile::read(first)?;
    let mut header = base.header;
    header.shard = None;
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
    for g in games.values() {
        standings.add(g);
    }
    Ok(Merged {
        header,
        games,
        standings,
    })
}

/// Writes a merged run as one records file, games in schedule order.
pub fn write(merged: &Merged, path: &Path) -> Result<()> {
    let mut w = RecordWriter::create(path)?;
    w.write(&Event::Run(merged.header.clone()))?;
    for g in merged.games.values() {
        w.write(&Event::Game(Box::new(g.clone())))?;
    }
    if merged.missing() == 0 {
        w.write(&Event::Summary(summary_json(
            &merged.standings,
            &merged.header,
        )))?;
    }
    Ok(())
}
