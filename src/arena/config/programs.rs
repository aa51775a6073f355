//! The engine programs of a run, pinned: a records file names each program by an absolute path
//! and records its size and modification time at the start, so that `--resume` from any
//! directory starts the same programs, and stops, saying so, when one was replaced.
//!
//! Before, the header kept `cmd=./eng` as typed: resumed from another directory, the run went on
//! with that directory's `./eng`, silently mixing two programs' games under one name.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};

use crate::arena::config::{EngineConfig, RunConfig};

/// What identifies an engine's program file when the run starts.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ProgramStamp {
    /// The engine's name in the run.
    pub engine: String,
    /// The program file, absolute (a program found on `PATH`: where it was found).
    pub path: PathBuf,
    /// The file's size in bytes: with the modification time, what tells a replaced program.
    pub size: u64,
    /// Modification time: seconds and nanoseconds since the Unix epoch.
    pub mtime_s: i64,
    /// The nanoseconds of the modification time (a rebuild within the same second still shows).
    pub mtime_ns: u32,
}

impl ProgramStamp {
    fn of(engine: &str, path: &Path) -> std::io::Result<ProgramStamp> {
        let m = std::fs::metadata(path)?;
        Ok(ProgramStamp {
            engine: engine.to_string(),
            path: path.to_path_buf(),
            size: m.len(),
            mtime_s: m.mtime(),
            mtime_ns: m.mtime_nsec().clamp(0, 999_999_999) as u32,
        })
    }

    fn describe(&self) -> String {
        format!(
            "{} bytes, modified at {}.{:09} (Unix time)",
            self.size, self.mtime_s, self.mtime_ns
        )
    }
}

/// Makes the engines' working directories and program paths absolute (a relative program is
/// relative to its `dir=`, where it is started, as `exec` finds it), so that the records name
/// the same files wherever `--resume` runs. Built-in players and programs found on `PATH` stay
/// as they are.
pub(crate) fn pin_paths(engines: &mut [EngineConfig]) {
    for e in engines.iter_mut().filter(|e| e.builtin().is_none()) {
        if let Some(d) = &e.dir {
            e.dir = Some(std::path::absolute(d).unwrap_or_else(|_| d.clone()));
        }
        if e.cmd.contains('/') && !Path::new(&e.cmd).is_absolute() {
            let base = e.dir.clone().unwrap_or_default();
            let abs =
                std::path::absolute(base.join(&e.cmd)).unwrap_or_else(|_| e.cmd.clone().into());
            e.cmd = abs.to_string_lossy().into_owned();
        }
    }
}

/// The file an external engine's `cmd` starts: the path itself, or the first executable of that
/// name on `PATH` (as `exec` searches it). `None` for a built-in player or a name not found.
fn program_file(e: &EngineConfig) -> Option<PathBuf> {
    if e.builtin().is_some() {
        return None;
    }
    if e.cmd.contains('/') {
        return Some(PathBuf::from(&e.cmd));
    }
    crate::arena::config::find_on_path(&e.cmd)
}

/// The stamps of a new run's programs (after [`pin_paths`]), taken at the start.
pub fn stamps(config: &RunConfig) -> Vec<ProgramStamp> {
    config
        .engines
        .iter()
        .filter_map(|e| ProgramStamp::of(&e.name, &program_file(e)?).ok())
        .collect()
}

/// Refuses to resume when a program the run recorded is not the same file now: another path
/// (a `PATH` search that finds another file), another size or modification time, or gone.
pub(crate) fn check_same(
    config: &RunConfig,
    recorded: &[ProgramStamp],
    records: &Path,
) -> Result<()> {
    for stamp in recorded {
        let Some(e) = config.engines.iter().find(|e| e.name == stamp.engine) else {
            bail!(
                "{}: the program of engine '{}' is recorded, but the run has no such engine; the \
                 file was changed by something other than otau-arena",
                records.display(),
                stamp.engine
            );
        };
        let now = program_file(e).map(|p| ProgramStamp::of(&e.name, &p));
        let why = match now {
            Some(Ok(now)) if now == *stamp => continue,
            Some(Ok(now)) if now.path != stamp.path => {
                format!("`{}` now starts {}", e.cmd, now.path.display())
            }
            Some(Ok(now)) => format!("it is now {}", now.describe()),
            Some(Err(err)) => format!("it cannot be read now ({err})"),
            None => format!("`{}` is found nowhere now", e.cmd),
        };
        bail!(
            "{}: engine '{}' started as {} ({}); {why}: --resume would start a different \
             program, and the run's games would mix two programs under one name. Put the \
             original program back, or start a new run",
            records.display(),
            stamp.engine,
            stamp.path.display(),
            stamp.describe()
        );
    }
    Ok(())
}

/// A records file of an older arena pins nothing: a relative program path in it is taken from
/// where `--resume` runs, which may not be where the run started. Said, not refused (such files
/// resumed from their own directory are right).
pub(crate) fn warn_unpinned(config: &RunConfig, records: &Path) {
    for e in config.engines.iter().filter(|e| e.builtin().is_none()) {
        if e.cmd.contains('/') && !Path::new(&e.cmd).is_absolute() {
            crate::arena::system::console::err(format_args!(
                "otau-arena: warning: {} records engine '{}' as {}, relative to the directory \
                 the run started in (an older arena recorded no more): it is taken from here\n",
                records.display(),
                e.name,
                e.cmd
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_programs_are_made_absolute_against_their_directory() {
        let engine = |cmd: &str, dir: Option<&str>| EngineConfig {
            name: cmd.into(),
            cmd: cmd.into(),
            args: Vec::new(),
            dir: dir.map(PathBuf::from),
            options: Vec::new(),
            limits: Default::default(),
            restart: false,
            proto: Default::default(),
            stderr: None,
            confine: Default::default(),
            rating: None,
        };
        let mut engines = vec![
            engine("./eng", None),
            engine("bin/eng", Some("/opt/x")),
            engine("sh", None),
            engine("builtin:random", None),
        ];
        pin_paths(&mut engines);
        let cwd = std::env::current_dir().unwrap();
        let first = Path::new(&engines[0].cmd);
        assert!(first.is_absolute() && first.starts_with(&cwd), "{first:?}");
        assert!(first.ends_with("eng"));
        assert_eq!(engines[1].cmd, "/opt/x/bin/eng");
        assert_eq!(engines[2].cmd, "sh");
        assert_eq!(engines[3].cmd, "builtin:random");
    }
}
