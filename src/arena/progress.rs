//! What the user sees while a run goes on: a live line on a terminal, plain lines otherwise.

use std::io::{IsTerminal, Write};

use super::records::GameRecord;
use super::results::Standings;

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
    pub fn detect(quiet: bool) -> ProgressMode {
        if quiet {
            ProgressMode::Quiet
        } else if std::io::stdout().is_terminal() {
            ProgressMode::Live
        } else {
            ProgressMode::Plain
        }
    }
}

pub struct Progress {
    mode: ProgressMode,
    total: u64,
    /// Plain mode: the results every this many games (0: never).
    table_every: u64,
    done: u64,
    live_shown: bool,
}

impl Progress {
    pub fn new(mode: ProgressMode, total: u64, table_every: u64) -> Progress {
        Progress {
            mode,
            total,
            table_every,
            done: 0,
            live_shown: false,
        }
    }

    /// A note for the user (openings exhausted, an engine disqualified, ...), shown in any mode
    /// but quiet, on stderr.
    pub fn note(&mut self, text: &str) {
        self.clear_live();
        eprintln!("otau-arena: {text}");
    }

    /// Games already recorded when the run (or its resumption) starts.
    pub fn set_done(&mut self, done: u64) {
        self.done = done;
    }

    pub fn game_done(&mut self, g: &GameRecord, standings: &Standings) {
        self.done += 1;
        let done = self.done;
        let mut out = std::io::stdout().lock();
        match self.mode {
            ProgressMode::Quiet => {}
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
                let _ = write!(
                    out,
                    "\r\x1b[2K[{done}/{}] {}",
                    self.total,
                    standings.headline()
                );
                self.live_shown = true;
            }
        }
        let _ = out.flush();
    }

    /// Ends the live line so that following output starts on a fresh line.
    pub fn clear_live(&mut self) {
        if self.live_shown {
            println!();
            self.live_shown = false;
        }
    }
}
