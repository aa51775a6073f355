//! `otau-arena`'s commands other than a run: the subcommands (`merge`, `ratings`, `sprt`,
//! `report`, `view`, the hidden `fake-engine`) and `--check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::arena::matchmaking::{merge, tournament};
use crate::arena::records::GameRecord;
use crate::arena::system::console;
use crate::arena::system::files::{self, Named};
use crate::arena::system::interrupt;
use crate::stats::sprt::SprtError;
use crate::stats::{RatingOptions, SprtConfig};
use crate::web::{self, live::RunSite};

use super::{fake_engine, ArenaCommand};

/// Runs a subcommand.
pub(super) fn subcommand(command: ArenaCommand) -> Result<ExitCode> {
    match command {
        ArenaCommand::FakeEngine { mode, .. } => {
            let stdin = std::io::stdin().lock();
            let code = fake_engine::run(mode, stdin, std::io::stdout().lock());
            Ok(ExitCode::from(code as u8))
        }
        ArenaCommand::Merge {
            files,
            out,
            pgn,
            event,
            sprt,
            rating_prior,
        } => merge_command(&files, out, pgn, &event, &sprt, rating_prior),
        ArenaCommand::Ratings {
            files,
            rating_prior,
            largest_group,
        } => {
            let text =
                crate::arena::records::rate::ratings_text(&files, &rating_prior, largest_group)?;
            console::out(format_args!("{text}"));
            Ok(ExitCode::SUCCESS)
        }
        ArenaCommand::Sprt(args) => {
            let text = args.run().map_err(anyhow::Error::msg)?;
            console::out(format_args!("{text}"));
            Ok(ExitCode::SUCCESS)
        }
        ArenaCommand::Report {
            files,
            out,
            rating_prior,
        } => report_command(&files, &out, rating_prior),
        ArenaCommand::View { file, addr } => view_command(&file, addr.as_deref()),
        ArenaCommand::Pair { trf, out } => super::pair::pair_command(&trf, out.as_deref()),
    }
}

/// `--sprt KEY=VALUE...`, of a run and of `merge`: none when not given.
pub(super) fn sprt_option(tokens: &[String]) -> Result<Option<SprtConfig>> {
    if tokens.is_empty() {
        return Ok(None);
    }
    SprtConfig::parse("--sprt", tokens)
        .map(Some)
        .map_err(|e| match e {
            // The list's own errors name it.
            SprtError::List(e) => anyhow::Error::msg(e),
            e => anyhow::anyhow!("--sprt: {e}"),
        })
}

fn merge_command(
    files: &[PathBuf],
    out: Option<PathBuf>,
    pgn: Option<PathBuf>,
    event: &str,
    sprt: &[String],
    rating: RatingOptions,
) -> Result<ExitCode> {
    let mut merged = merge::merge(files)?;
    merged.standings.set_rating(rating);
    if let Some(config) = sprt_option(sprt)? {
        merged.standings.set_fixed_sample_sprt(Some(config));
    }
    merge::write_outputs(&mut merged, files, out.as_deref(), pgn.as_deref(), event)?;
    console::out(format_args!("{}", merged.standings.summary().text()));
    let pairing = tournament::pairing(&merged.header.config, None, &merged.standings)?;
    for (_, text) in pairing.notes() {
        console::out(format_args!("\n{text}"));
    }
    if merged.missing() > 0 {
        console::err(format_args!(
            "otau-arena: {} of {} scheduled games are in none of the files\n",
            merged.missing(),
            merged.header.scheduled
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn report_command(
    files: &[PathBuf],
    out: &std::path::Path,
    rating: RatingOptions,
) -> Result<ExitCode> {
    let page = Named::new("--out", out);
    let inputs: Vec<Named> = files.iter().map(|f| Named::new("the input", f)).collect();
    files::check_distinct(std::slice::from_ref(&page), &inputs)?;
    files::check_location(&page)?;
    let mut merged = merge::merge(files)?;
    merged.standings.set_rating(rating);
    let title = files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    // The viewer holds the games the page lists (a long run's first and last by number).
    let mut window = crate::stats::Window::new(crate::stats::LISTED_GAMES);
    merged.for_each_game(|finished, g| window.push(g.index + 1, finished, g.clone()))?;
    let (mut shown, _) = window.into_sorted();
    shown.sort_by_key(|&(_, finished, _)| finished);
    let games: Vec<&GameRecord> = shown.iter().map(|(_, _, g)| g).collect();
    let pairing = tournament::pairing(&merged.header.config, None, &merged.standings)?;
    let options = crate::stats::ReportOptions {
        title,
        summary: merged.standings.options(),
        notes: pairing.notes(),
        pairing: pairing.summary_json().map(|(k, v)| (k.to_string(), v)),
        appendix: web::report::viewer_section(&games),
    };
    // Written like every other results file: a reader never finds half a page.
    let summary = merged.standings.summary();
    let html = crate::stats::render_summary_html(&summary, &options, |add| {
        merged.for_each_game(|_, g| add(&crate::arena::records::standings::game_stats(g)))
    })?;
    files::write_whole(&page, html.as_bytes(), false)?;
    console::err(format_args!(
        "otau-arena: report of {} games written to {}\n",
        merged.standings.len(),
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// Starts a page server at `addr` (as `flag` gave it).
pub(super) fn serve(
    flag: &str,
    addr: &str,
    site: Arc<dyn web::server::Site>,
) -> Result<web::server::Server> {
    let at = web::server::parse_addr(Some(addr)).map_err(|e| anyhow::anyhow!("{flag} {e}"))?;
    let server = web::server::Server::start(at, site)
        .with_context(|| format!("{flag}: cannot listen on {at}"))?;
    if let Some(warning) = server.exposure() {
        console::err(format_args!("otau-arena: {flag} {warning}\n"));
    }
    Ok(server)
}

/// `otau-arena view FILE`: the live page of a recorded run, until Ctrl-C.
fn view_command(file: &std::path::Path, addr: Option<&str>) -> Result<ExitCode> {
    let site = RunSite::recorded(file)?;
    let server = serve("--addr", addr.unwrap_or(""), Arc::new(site))?;
    interrupt::install();
    console::err(format_args!(
        "otau-arena: {} at {} (Ctrl-C ends)\n",
        file.display(),
        server.url()
    ));
    while !interrupt::requested() {
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--check PROGRAM ARGS...`: the UGI compliance report (`crate::arena::compliance`).
pub(super) fn check(
    game: &str,
    timeout: &str,
    cmd: &[String],
    log_dir: &Path,
    log_limit: u64,
) -> Result<ExitCode> {
    let Some((program, args)) = cmd.split_first() else {
        bail!("--check needs the engine's program");
    };
    let timeout_ms = crate::arena::game::clock::seconds_in(timeout, 1)
        .map_err(|why| anyhow::anyhow!("--check-timeout {timeout}: {why}"))?;
    let config = crate::arena::compliance::Config {
        game: game.parse().map_err(anyhow::Error::msg)?,
        reply_timeout: Duration::from_millis(timeout_ms),
        log_dir: Some(log_dir.to_path_buf()),
        log_limit,
        ..Default::default()
    };
    // As in a run: a kill -9 of the arena during the check leaves nothing the engine started.
    let _guardian = crate::arena::engine::process::Guardian::start();
    let report = crate::arena::compliance::check(program, args, &config);
    console::out(format_args!("{report}\n"));
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
