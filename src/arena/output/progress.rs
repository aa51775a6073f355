//! What the user sees while a run goes on: a live line on a terminal, plain lines otherwise.

use std::fmt::Write;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use crate::arena::output::live::LiveProgress;
use crate::arena::system::console;

use crate::arena::records::standings::Standings;
use crate::arena::records::GameRecord;

/// How much the run prints while it goes on (`--progress`, `--quiet`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProgressMode {
    /// One line rewritten in place.
    Live,
    /// A line per finished game (for logs and pipes).
    Plain,
    /// Nothing until the final table.
    Quiet,
}

impl ProgressMode {
    /// The mode for stdout as it is: live on a terminal, plain otherwise.
    pub fn detect(quiet: bool) -> ProgressMode {
        ProgressMode::choose(quiet, std::io::stdout().is_terminal())
    }

    fn choose(quiet: bool, terminal: bool) -> ProgressMode {
        if quiet {
            ProgressMode::Quiet
        } else if terminal {
            ProgressMode::Live
        } else {
            ProgressMode::Plain
        }
    }
}

/// `--output` (fastchess's `-output format=`): the form of the plain progress lines and of
/// the results at the end.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum OutputFormat {
    /// fastchess's blocks (`Results of a vs b`, Elo and nElo, LOS, pentanomial counts).
    #[default]
    Fastchess,
    /// cutechess-cli's lines (`Score of a vs b: W - L - D [score] N`, `Elo difference: ...`,
    /// `SPRT: llr ...`).
    Cutechess,
}

impl OutputFormat {
    /// The results at the end of a run in this format.
    pub fn summary_text(self, summary: &crate::stats::Summary) -> String {
        match self {
            OutputFormat::Fastchess => summary.text(),
            OutputFormat::Cutechess => summary.cutechess_text(),
        }
    }
}

/// The progress shown while a run goes on: counts the games as they end and prints them as the mode
/// says.
pub struct Progress {
    mode: ProgressMode,
    format: OutputFormat,
    total: u64,
    /// Plain mode: the results every this many games (0: never).
    table_every: u64,
    done: u64,
    /// Games recorded when this session started, and when: the live line's rate and ETA are
    /// this session's.
    done_at_start: u64,
    started: Instant,
    /// The live line shown last (drawn again after a note).
    live_shown: Option<String>,
}

impl Progress {
    /// `total` games to play; in plain mode, the results after every `table_every` games (0: only
    /// at the end).
    pub fn new(mode: ProgressMode, total: u64, table_every: u64) -> Progress {
        Progress {
            mode,
            format: OutputFormat::Fastchess,
            total,
            table_every,
            done: 0,
            done_at_start: 0,
            started: Instant::now(),
            live_shown: None,
        }
    }

    /// Plain lines in `format` (fastchess's by default).
    pub(crate) fn with_format(mut self, format: OutputFormat) -> Progress {
        self.format = format;
        self
    }

    /// A note for the user (openings exhausted, an engine disqualified, ...), shown in any mode
    /// but quiet, on stderr.
    /// On a terminal the live line is cleared first and drawn again after it, so the note never
    /// runs into it.
    pub fn note(&mut self, text: &str) {
        if self.live_shown.is_some() {
            console::out(format_args!("\r\x1b[2K"));
        }
        console::err(format_args!("otau-arena: {text}\n"));
        if let Some(line) = &self.live_shown {
            console::out(format_args!("{line}"));
        }
    }

    /// Games already recorded when the run (or its resumption) starts.
    pub(crate) fn set_done(&mut self, done: u64) {
        self.done = done;
        self.done_at_start = done;
        self.started = Instant::now();
    }

    pub(crate) fn game_done(&mut self, g: &GameRecord, standings: &Standings) {
        self.done += 1;
        let done = self.done;
        let mut out = String::new();
        match self.mode {
            ProgressMode::Quiet => {}
            ProgressMode::Plain if self.format == OutputFormat::Cutechess => {
                let _ = writeln!(
                    out,
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    g.index + 1,
                    g.south,
                    g.north,
                    g.result.pgn(),
                    g.termination.describe()
                );
                if let Some(m) = standings.first_match() {
                    let _ = writeln!(out, "{}", m.cutechess_score_line());
                    if self.table_every > 0
                        && done.is_multiple_of(self.table_every)
                        && done < self.total
                    {
                        let _ = writeln!(out, "{}", m.cutechess_elo_line());
                        if let Some(s) = standings.sprt_status() {
                            let _ = writeln!(out, "{}", crate::stats::cutechess_sprt_line(&s));
                        }
                    }
                }
            }
            ProgressMode::Plain => {
                let _ = writeln!(
                    out,
                    "Finished game {} ({} of {}): {} vs {}: {} {{{}}}",
                    g.index + 1,
                    done,
                    self.total,
                    g.south,
                    g.north,
                    g.result.pgn(),
                    g.termination.describe()
                );
                if self.table_every > 0
                    && done.is_multiple_of(self.table_every)
                    && done < self.total
                {
                    let _ = write!(out, "{}", standings.interval_text());
                }
            }
            ProgressMode::Live => {
                let line = live_line(
                    done,
                    self.total,
                    done - self.done_at_start,
                    self.started.elapsed(),
                    &standings.headline(),
                );
                out = format!("\r\x1b[2K{line}");
                self.live_shown = Some(line);
            }
        }
        if !out.is_empty() {
            console::out(format_args!("{out}"));
        }
    }

    /// Games done, rate and ETA, for the live page (`crate::arena::output::live`).
    pub fn figures(&self) -> LiveProgress {
        let session = self.done - self.done_at_start;
        let figures = rate_and_eta(self.done, self.total, session, self.started.elapsed());
        LiveProgress {
            done: self.done,
            total: self.total,
            rate: figures.as_ref().map(|f| f.0),
            eta: figures.map(|f| f.1),
        }
    }

    /// Ends the live line so that following output starts on a fresh line.
    pub(crate) fn clear_live(&mut self) {
        if self.live_shown.take().is_some() {
            console::out(format_args!("\n"));
        }
    }
}

/// The live line: `[12/100] 2.5 games/s, ETA 0:35 | a vs b: W 5 L 4 D 3 (54.2%) ... LLR ...`,
/// the rate and ETA from the `session` games played in `elapsed` (none before the first).
fn live_line(done: u64, total: u64, session: u64, elapsed: Duration, headline: &str) -> String {
    let mut line = format!("[{done}/{total}]");
    if let Some((rate, eta)) = rate_and_eta(done, total, session, elapsed) {
        let _ = write!(line, " {rate:.2} games/s, ETA {eta}");
    }
    if !headline.is_empty() {
        let _ = write!(line, " | {headline}");
    }
    line
}

/// Games a second and the time left at that rate, from the `session` games played in `elapsed`
/// (none before the first): the live line's figures and the live page's.
fn rate_and_eta(done: u64, total: u64, session: u64, elapsed: Duration) -> Option<(f64, String)> {
    let secs = elapsed.as_secs_f64();
    if session == 0 || secs <= 0.0 {
        return None;
    }
    let rate = session as f64 / secs;
    let left = total.saturating_sub(done) as f64 / rate;
    Some((rate, clock_text(left)))
}

/// Seconds as `m:ss` or `h:mm:ss` (rounded up: an ETA of 0:00 means done).
fn clock_text(secs: f64) -> String {
    let s = if secs.is_finite() {
        secs.ceil().min(u64::MAX as f64) as u64
    } else {
        u64::MAX
    };
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_gets_the_live_line_anything_else_plain_lines() {
        assert_eq!(ProgressMode::choose(false, true), ProgressMode::Live);
        assert_eq!(ProgressMode::choose(false, false), ProgressMode::Plain);
        assert_eq!(ProgressMode::choose(true, true), ProgressMode::Quiet);
        assert_eq!(ProgressMode::choose(true, false), ProgressMode::Quiet);
    }

    #[test]
    fn the_live_line_shows_rate_eta_score_and_llr() {
        let head = "a vs b: W 5 L 4 D 3 (54.2%) Elo +29.0 +/- 80.1 LLR 0.31 [-2.94, 2.94]";
        assert_eq!(
            live_line(12, 100, 10, Duration::from_secs(4), head),
            format!("[12/100] 2.50 games/s, ETA 0:36 | {head}")
        );
        // A resumed run: the rate is this session's (10 games in 4 s, not 52).
        assert_eq!(
            live_line(52, 10_052, 10, Duration::from_secs(4), ""),
            "[52/10052] 2.50 games/s, ETA 1:06:40"
        );
        // Before any game of the session: no rate to tell.
        assert_eq!(live_line(0, 8, 0, Duration::ZERO, ""), "[0/8]");
        assert!(clock_text(f64::INFINITY).len() > 5);
        assert_eq!(clock_text(59.2), "1:00");
    }
}
