//! The files of a run: checked, created and locked before the first game, written as games end,
//! completed at the end of each session.
//!
//! Start-up is all or nothing: every output is compared with the others and with the inputs,
//! and every location checked, before anything is created; if anything fails after that (a full
//! disk at the header write, a FIFO without a reader), what the start created is removed again,
//! so no empty records file is left to trip the next attempt. The run header records every
//! output (PGN, report, log directory, PGN event), and `--resume` goes on writing them all.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};

use crate::arena::config::RunConfig;
use crate::arena::engine::protocol_log::ProtocolLog;
use crate::arena::matchmaking::run_options::{ReportViewer, RunOptions};
use crate::arena::records::pgn::{PgnWriter, Slice};
use crate::arena::records::standings::Standings;
use crate::arena::records::{
    Event, GameRecord, RecordWriter, RecordedOutputs, RecordsFile, RecordsScan, RunHeader,
};
use crate::arena::system::files::{self, check_distinct, check_location, Created, Named, Target};

/// A run's open outputs.
pub(crate) struct RunFiles {
    pub records: Option<RecordWriter>,
    pub pgn: Option<PgnWriter>,
    /// The HTML report, written at the end of each session.
    pub report: Option<Named>,
    /// The report file, held under an exclusive lock for the run (see [`hold_report`]).
    report_lock: Option<File>,
    /// The records already end with a summary of every game they hold.
    pub summarized: bool,
    /// `--log`: the lines exchanged with the engines.
    pub protocol_log: Option<Arc<ProtocolLog>>,
}

impl RunFiles {
    /// Records a finished game: its records line, then its PGN.
    pub fn record(&mut self, g: &GameRecord) -> Result<()> {
        if let Some(w) = self.records.as_mut() {
            w.write(&Event::Game(Box::new(g.clone()))).map_err(|e| {
                anyhow::anyhow!(
                    "{}: cannot record game {} ({}); the games recorded so far are kept: free \
                     space (or fix the cause), then {} continues the run",
                    w.path().display(),
                    g.index + 1,
                    e.root_cause(),
                    resume_command(w.path())
                )
            })?;
        }
        if let Some(p) = self.pgn.as_mut() {
            p.add(g)?;
        }
        Ok(())
    }

    /// The end of a session: the PGN's waiting games, and the report of every recorded game
    /// (with the pairing's `notes`, sections of text such as a knockout's bracket, its `part` of
    /// the summary (a Swiss's standings), and the game viewer when `viewer` is given and the
    /// games are recorded).
    pub fn finish(
        &mut self,
        standings: &Standings,
        title: &str,
        notes: Vec<(String, String)>,
        part: Option<(&str, serde_json::Value)>,
        viewer: Option<ReportViewer>,
    ) -> Result<()> {
        if let Some(problem) = self.protocol_log.as_ref().and_then(|l| l.finish()) {
            // The log is no record: an incomplete one is worth a word, not a failed run.
            crate::arena::system::console::err(format_args!("otau-arena: {problem}\n"));
        }
        if let Some(p) = self.pgn.as_mut() {
            p.finish()?;
        }
        if let Some(out) = &self.report {
            let records = self.records.as_ref().map(|r| r.path().to_path_buf());
            let appendix = match (viewer, &records) {
                (Some(viewer), Some(path)) => viewer_of(path, viewer)?,
                _ => String::new(),
            };
            let options = crate::stats::ReportOptions {
                title: title.to_string(),
                summary: standings.options(),
                appendix,
                notes,
                pairing: part.map(|(k, v)| (k.to_string(), v)),
            };
            let page = match (standings.kept_games(), &records) {
                (Some(games), _) => crate::stats::render_html(games, &options),
                (None, Some(path)) => report_page(path, standings, &options)?,
                (None, None) => crate::stats::render_html(&[], &options),
            };
            self.report_lock = files::rewrite_held(out, self.report_lock.take(), |w| {
                w.write_all(page.as_bytes())
            })?;
        }
        Ok(())
    }
}

/// The report of the run recorded in `path`, whose counts are `standings`: its games read from
/// the file one at a time (memory does not grow with them).
pub(crate) fn report_page(
    path: &Path,
    standings: &Standings,
    options: &crate::stats::ReportOptions,
) -> Result<String> {
    crate::stats::render_summary_html(&standings.summary(), options, |add| {
        RecordsFile::scan(path, |_, g| {
            add(&crate::arena::records::standings::game_stats(g));
            Ok(())
        })
        .map(|_| ())
    })
}

/// The report's game viewer of the games its list shows ([`crate::stats::LISTED_GAMES`] at most:
/// a long run's first and last by number), read from the records in `path`.
pub(crate) fn viewer_of(path: &Path, viewer: ReportViewer) -> Result<String> {
    let mut window = crate::stats::Window::new(crate::stats::LISTED_GAMES);
    let mut finished = 0;
    RecordsFile::scan(path, |_, g| {
        window.push(g.index + 1, finished, g.clone());
        finished += 1;
        Ok(())
    })?;
    let (mut games, _) = window.into_sorted();
    // The viewer takes them in the order they finished.
    games.sort_by_key(|&(_, finished, _)| finished);
    let games: Vec<&GameRecord> = games.iter().map(|(_, _, g)| g).collect();
    Ok(viewer(&games))
}

/// `--log`, an output like the others (not recorded in the run header: a resumed run logs where
/// its own command line says).
/// The command that resumes the run recorded in `records`, with the arena's program as it was
/// run (`target/release/otau-arena`, not a bare `otau-arena` that a fresh clone does not have on
/// its `PATH`): the path of the running executable, or `otau-arena` if the system cannot say.
pub fn resume_command(records: &Path) -> String {
    let program = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "otau-arena".to_string());
    format!("{program} --resume {}", records.display())
}

fn protocol_log(opts: &RunOptions) -> Option<Named> {
    opts.protocol_log.as_ref().map(|p| Named::new("--log", p))
}

/// Opens `--log` (appending to an existing file; a new one is removed again if the start fails).
fn open_protocol_log(opts: &RunOptions, created: &mut Created) -> Result<Option<Arc<ProtocolLog>>> {
    let Some(l) = protocol_log(opts) else {
        return Ok(None);
    };
    if check_location(&l)? == Target::Absent {
        created.file(&l.path);
    }
    ProtocolLog::open(&l, opts.protocol_log_max).map(Some)
}

/// The report is written at the end of each session, yet held from the start as every output
/// is, so that no other command writes it meanwhile: an existing file is locked as it is, a new
/// one created empty (and removed again if the start fails).
fn hold_report(report: Option<&Named>, created: &mut Created) -> Result<Option<File>> {
    let Some(r) = report else {
        return Ok(None);
    };
    match files::target(&r.path).with_context(|| format!("{r}: cannot be examined"))? {
        Target::Regular(_) => files::hold(r).map(Some),
        Target::Absent => {
            let f = files::open_append(r, true)?;
            created.file(&files::real_path(&r.path));
            Ok(Some(f))
        }
        Target::Stream | Target::Directory => Ok(None),
    }
}

fn slice(header: &RunHeader) -> Slice {
    Slice {
        scheduled: header.scheduled,
        shard: header.shard,
    }
}

/// The engines' stderr logs (external engines only): outputs too. Engines whose names map to one
/// file name share its log (each process appends, with a line naming its pid), so a log is
/// listed once.
fn logs(config: &RunConfig, dir: &Path) -> Vec<Named> {
    let mut paths: Vec<PathBuf> = config
        .engines
        .iter()
        .filter(|e| e.builtin().is_none())
        .map(|e| e.stderr_log(dir))
        .collect();
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .map(|p| Named::new("the engine log", p))
        .collect()
}

/// What a run reads besides a resumed records file: the openings file, engine programs given
/// by path.
fn inputs(config: &RunConfig) -> Vec<Named> {
    let mut v = Vec::new();
    if let Some(f) = &config.openings.file {
        v.push(Named::new("the openings file", f));
    }
    for e in &config.engines {
        if e.builtin().is_none() && e.cmd.contains('/') {
            v.push(Named::new("the engine program", &e.cmd));
        }
    }
    v
}

/// Checks every output but the records file: locations, log directory. Returns the PGN's size to
/// keep (an existing PGN is refused unless `append`) and whether the log directory was created.
fn check_outputs(
    config: &RunConfig,
    pgn: Option<&Named>,
    append: bool,
    report: Option<&Named>,
    log_dir: &Path,
    create_dir: bool,
) -> Result<(u64, Option<PathBuf>)> {
    let keep = match pgn {
        Some(p) => match check_location(p)? {
            Target::Regular(len) if len > 0 && !append => bail!(
                "{p}: exists and holds {len} bytes (an existing PGN is never replaced): choose \
                 another name, or add --pgn-append to add this run's games after them"
            ),
            Target::Regular(len) => len,
            _ => 0,
        },
        None => 0,
    };
    if let Some(r) = report {
        check_location(r)?;
    }
    let mut created_dir = None;
    let logs = logs(config, log_dir);
    if !logs.is_empty() {
        if files::prepare_dir(&Named::new("--log-dir", log_dir), create_dir)? {
            created_dir = Some(log_dir.to_path_buf());
        }
        for l in &logs {
            if l.path.exists() {
                check_location(l)?;
            }
        }
    }
    Ok((keep, created_dir))
}

/// Checks every output of a new run (collisions, locations) and creates nothing: run before the
/// engines' start-up check, so a wrong path is reported before any engine starts.
pub(crate) fn check_fresh(config: &RunConfig, opts: &RunOptions) -> Result<()> {
    fresh_checks(config, opts, false).map(|_| ())
}

/// `--trf`, refused unless the run is a Swiss.
pub(crate) fn trf_output(config: &RunConfig, opts: &RunOptions) -> Result<Option<Named>> {
    let Some(p) = &opts.trf else { return Ok(None) };
    anyhow::ensure!(
        config.tournament == crate::arena::pairing::TournamentKind::Swiss,
        "--trf {}: a TRF is written by a Swiss only (add --tournament swiss)",
        p.display()
    );
    Ok(Some(Named::new("--trf", p)))
}

/// The checks of a new run's outputs; with `create_dir` the log directory is created. Returns
/// the PGN bytes to keep and the log directory if it was created.
fn fresh_checks(
    config: &RunConfig,
    opts: &RunOptions,
    create_dir: bool,
) -> Result<(u64, Option<PathBuf>)> {
    let out = opts.out.as_ref().map(|p| Named::new("--out", p));
    let pgn = opts.pgn.as_ref().map(|p| Named::new("--pgn", p));
    let report = opts.report.as_ref().map(|p| Named::new("--report", p));
    let trf = trf_output(config, opts)?;
    let mut all: Vec<Named> = [&out, &pgn, &report, &trf]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    all.extend(logs(config, &opts.log_dir));
    all.extend(protocol_log(opts));
    check_distinct(&all, &inputs(config))?;
    if let Some(l) = protocol_log(opts) {
        check_location(&l)?;
    }
    if let Some(o) = &out {
        crate::arena::records::check_new(&o.path)?;
    }
    check_outputs(
        config,
        pgn.as_ref(),
        opts.pgn_append,
        report.as_ref(),
        &opts.log_dir,
        create_dir,
    )
}

/// The outputs of a new run: checked, created, the header written (recording every output).
pub(crate) fn open_fresh(header: &mut RunHeader, opts: &RunOptions) -> Result<RunFiles> {
    let config = &header.config;
    let (keep, created_dir) = fresh_checks(config, opts, true)?;
    let out = opts.out.as_ref().map(|p| Named::new("--out", p));
    let pgn = opts.pgn.as_ref().map(|p| Named::new("--pgn", p));
    let report = opts.report.as_ref().map(|p| Named::new("--report", p));
    let mut created = Created::default();
    if let Some(d) = &created_dir {
        created.dir(d);
    }
    let records = match &out {
        Some(o) => {
            header.outputs = Some(RecordedOutputs {
                pgn: opts.pgn.as_ref().map(|p| files::to_record(&o.path, p)),
                pgn_start: keep,
                report: opts.report.as_ref().map(|p| files::to_record(&o.path, p)),
                trf: opts.trf.as_ref().map(|p| files::to_record(&o.path, p)),
                event: opts.event.clone(),
                log_dir: files::to_record(&o.path, &opts.log_dir),
            });
            let mut w = RecordWriter::create(&o.path, &mut created)?;
            w.write(&Event::Run(Box::new(header.clone())))
                .map_err(|e| {
                    anyhow::anyhow!(
                        "{}: cannot write the run header ({}); nothing was kept (the file is \
                     removed): free space (or fix the cause) and start the run again",
                        o.path.display(),
                        e.root_cause()
                    )
                })?;
            Some(w)
        }
        None => None,
    };
    let pgn = match pgn {
        Some(p) => Some(PgnWriter::create(
            p,
            &opts.event,
            slice(header),
            keep,
            &mut created,
        )?),
        None => None,
    };
    let report_lock = hold_report(report.as_ref(), &mut created)?;
    let protocol_log = open_protocol_log(opts, &mut created)?;
    created.keep();
    Ok(RunFiles {
        records,
        pgn,
        report,
        report_lock,
        summarized: false,
        protocol_log,
    })
}

/// The records file of a run to resume, locked, its torn last line cut, and every output the
/// header records opened again, once `check` accepted the recorded run with the options the
/// header fixes (shard, outputs), which are returned.
///
/// The file is read one game at a time, each handed to `on_game` in the order the games
/// finished; only a run with a PGN keeps its games while the PGN is written again (in schedule
/// order, from the records).
pub(crate) fn open_resume(
    path: &Path,
    opts: &RunOptions,
    mut on_game: impl FnMut(&RunHeader, &GameRecord),
    check: impl FnOnce(&RunHeader, &RunOptions) -> Result<()>,
) -> Result<(RecordsScan, RunFiles, RunOptions)> {
    // Locked before it is read: another run appending meanwhile would change what is read.
    let mut writer = RecordWriter::open_existing(path)?;
    let mut pgn_games: BTreeMap<u64, GameRecord> = BTreeMap::new();
    let file = RecordsFile::scan(path, |h, g| {
        on_game(h, g);
        let pgn = h.outputs.as_ref().is_some_and(|o| o.pgn.is_some()) || opts.pgn.is_some();
        if pgn {
            pgn_games.insert(g.index, g.clone());
        }
        Ok(())
    })?;
    let mut opts = opts.clone();
    opts.shard = file.header.shard;
    opts.out = Some(path.to_path_buf());
    let mut keep = 0;
    if let Some(o) = &file.header.outputs {
        let pgn = o.pgn.as_ref().map(|p| files::from_record(path, p));
        if let Some(given) = &opts.pgn {
            if !pgn.as_ref().is_some_and(|p| files::same_file(p, given)) {
                let recorded = match &pgn {
                    Some(p) => format!("writes its PGN to {}", p.display()),
                    None => "has no PGN".to_string(),
                };
                bail!(
                    "--pgn {}: the run recorded in {} {recorded}, and --resume goes on writing \
                     what the run recorded (leave out --pgn); for the games as PGN elsewhere: \
                     otau-arena merge {} --pgn FILE",
                    given.display(),
                    path.display(),
                    path.display()
                );
            }
        }
        opts.pgn = pgn;
        keep = o.pgn_start;
        opts.report = o.report.as_ref().map(|p| files::from_record(path, p));
        if let Some(recorded) = o.trf.as_ref().map(|p| files::from_record(path, p)) {
            if let Some(given) = opts
                .trf
                .as_ref()
                .filter(|g| !files::same_file(&recorded, g))
            {
                bail!(
                    "--trf {}: the run recorded in {} writes its TRF to {}, and --resume goes \
                     on writing it (leave out --trf)",
                    given.display(),
                    path.display(),
                    recorded.display()
                );
            }
            opts.trf = Some(recorded);
        }
        opts.event = o.event.clone();
        opts.log_dir = files::from_record(path, &o.log_dir);
    }
    // (A file of an older arena records no outputs: they come from the command line.)
    let config = &file.header.config;
    let pgn = opts.pgn.as_ref().map(|p| Named::new("the PGN", p));
    let report = opts.report.as_ref().map(|p| Named::new("the report", p));
    let trf = trf_output(config, &opts)?;
    let mut all: Vec<Named> = [&pgn, &report, &trf]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    all.extend(logs(config, &opts.log_dir));
    all.extend(protocol_log(&opts));
    let mut ins = vec![Named::new("the records file", path)];
    ins.extend(inputs(config));
    check_distinct(&all, &ins)?;
    // The PGN is the run's own: rewritten from the records, whatever it holds.
    let (_, created_dir) = check_outputs(
        config,
        pgn.as_ref(),
        true,
        report.as_ref(),
        &opts.log_dir,
        true,
    )?;
    // The configuration (and the engines' start-up check) after every cheap check, and before
    // any file is changed.
    if let Some(l) = protocol_log(&opts) {
        check_location(&l)?;
    }
    check(&file.header, &opts)?;
    let mut created = Created::default();
    if let Some(d) = &created_dir {
        created.dir(d);
    }
    writer.cut(file.valid_len)?;
    let pgn = match pgn {
        Some(p) => Some(PgnWriter::resume(
            p,
            &opts.event,
            slice(&file.header),
            keep,
            &pgn_games,
        )?),
        None => None,
    };
    let report_lock = hold_report(report.as_ref(), &mut created)?;
    let protocol_log = open_protocol_log(&opts, &mut created)?;
    created.keep();
    let files = RunFiles {
        records: Some(writer),
        pgn,
        report,
        report_lock,
        summarized: file.summarized,
        protocol_log,
    };
    Ok((file, files, opts))
}
