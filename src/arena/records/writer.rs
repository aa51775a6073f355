//! Writing a records file: one flushed line an event, the file locked for the run.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::arena::records::events::Event;
use crate::arena::records::reading::check_records_path;
use crate::arena::system::files::{self, Created, Target};

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
    pub(crate) fn open_existing(path: &Path) -> Result<RecordWriter> {
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

    /// The file written (for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one event as a line and flushes it, so a kill loses at most the line being written.
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
