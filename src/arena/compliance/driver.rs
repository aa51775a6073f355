//! The driver: starts the engine, runs the table of items ([`super::items::ITEMS`]) in order
//! and keeps the report. A failed handshake ends the check (an engine that does not speak UGI
//! gets one verdict, not a timeout per item), and so does an engine that, after an item failed,
//! no longer answers `isready`: the check takes at most a few timeouts past its last sign of
//! life.

use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::arena::game::openings::random_walk;
use crate::games::{AnyGame, GameLine, Variant};
use crate::ugi::wire::OptionDecl;

use super::report::{ComplianceReport, Item, Status};
use super::session::CheckedEngine;
use super::Config;

/// One row of the table: the item's name (as the report prints it), when it runs, and its
/// check.
pub(super) struct Step {
    pub name: &'static str,
    pub runs: Runs,
    pub check: fn(&mut Checker<'_>) -> Verdict,
}

impl Step {
    /// An item that starts an exchange of its own ([`Runs::IfAnswering`]).
    pub const fn new(name: &'static str, check: fn(&mut Checker<'_>) -> Verdict) -> Step {
        Step {
            name,
            runs: Runs::IfAnswering,
            check,
        }
    }

    /// The same item, run as [`Runs::WithPrevious`].
    pub const fn with_previous(self) -> Step {
        Step {
            runs: Runs::WithPrevious,
            ..self
        }
    }

    /// The same item, run as [`Runs::Always`].
    pub const fn always(self) -> Step {
        Step {
            runs: Runs::Always,
            ..self
        }
    }
}

/// When an item runs. After a failed item the checker asks `isready`, to tell an engine that
/// got one thing wrong from one that went silent (then the check stops there).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Runs {
    /// A new exchange: the `isready` after any earlier failure is asked first, and the item runs
    /// only if the engine answered it.
    IfAnswering,
    /// The second half of the item before it (the `stop` of its `go infinite`, the `go` in its
    /// finished game): it runs right after it, before the `isready` that follows a failure.
    WithPrevious,
    /// The checker's last word (`quit`): the `isready` after a failure is asked first, but its
    /// silence does not skip the item. (A check stopped earlier never reaches it.)
    Always,
}

/// What a check says of its item.
pub(super) enum Verdict {
    Pass(String),
    Fail(String),
    Skip(String),
    /// No item: the check does not apply, and the item before it said why (no finished game
    /// to play in).
    Omitted,
}

impl Verdict {
    /// The verdict of `check`: pass with its detail, or fail with its reason (so that a check
    /// can say `?` of each exchange).
    pub fn of(check: impl FnOnce() -> Result<String, String>) -> Verdict {
        check().into()
    }
}

impl From<Result<String, String>> for Verdict {
    fn from(result: Result<String, String>) -> Verdict {
        match result {
            Ok(detail) => Verdict::Pass(detail),
            Err(detail) => Verdict::Fail(detail),
        }
    }
}

/// An option declaration as read: well-formed, or why not.
pub(super) type Declaration = Result<OptionDecl, String>;

/// `info` lines kept for the syntax check.
pub(super) const MAX_INFO_LINES: usize = 10_000;

/// The check under way: the engine, and what the items hand on to later ones.
pub(super) struct Checker<'a> {
    pub engine: &'a mut CheckedEngine,
    pub config: &'a Config,
    /// The options the engine declared in its handshake.
    pub declarations: Vec<Declaration>,
    /// The positions of the middle items: a few random moves from the start.
    pub line: GameLine<AnyGame>,
    /// A random game played to its end, once one was found.
    pub finished: Option<GameLine<AnyGame>>,
    /// Every `info` line seen with the position it describes, checked at the end.
    pub info_lines: Vec<(AnyGame, String)>,
    items: Vec<Item>,
    /// Failed items whose `isready` is not asked yet.
    unfenced: Vec<&'static str>,
    /// Why the check stopped before its last item, if it did.
    halted: Option<String>,
}

/// Runs `steps` against `program args...` and reports per item. Never panics on engine
/// behaviour; an engine that cannot be started fails the first item, `start`, and the check
/// ends there.
pub(super) fn check(
    program: &str,
    args: &[String],
    config: &Config,
    steps: &[Step],
) -> ComplianceReport {
    let engine = std::iter::once(program.to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let mut conn = match CheckedEngine::spawn(program, args, config) {
        Ok(c) => c,
        Err(e) => {
            return ComplianceReport {
                engine,
                items: vec![Item::new("start", Status::Fail, e)],
                stopped: Some("the engine could not be started".into()),
            };
        }
    };
    let mut checker = Checker {
        engine: &mut conn,
        config,
        declarations: Vec::new(),
        line: random_line(config.game, config.seed, 6),
        finished: None,
        info_lines: Vec::new(),
        items: vec![Item::new("start", Status::Pass, "process started")],
        unfenced: Vec::new(),
        halted: None,
    };
    checker.run(steps);
    let report = ComplianceReport {
        engine,
        items: checker.items,
        stopped: checker.halted,
    };
    // `quit` was the checker's last word; whatever is left of the engine's process group (a
    // helper it started) is killed now.
    conn.session.shutdown(Duration::from_millis(100));
    report
}

impl Checker<'_> {
    /// Every step in order, each when its [`Runs`] says.
    fn run(&mut self, steps: &[Step]) {
        for step in steps {
            if step.runs != Runs::WithPrevious {
                self.ask_after_failures();
                if self.halted.is_some() && step.runs == Runs::IfAnswering {
                    return;
                }
            }
            let verdict = (step.check)(self);
            self.push(step.name, verdict);
        }
        self.ask_after_failures();
    }

    fn push(&mut self, name: &'static str, verdict: Verdict) {
        let (status, detail) = match verdict {
            Verdict::Pass(detail) => (Status::Pass, detail),
            Verdict::Fail(detail) => (Status::Fail, detail),
            Verdict::Skip(detail) => (Status::Skip, detail),
            Verdict::Omitted => return,
        };
        if status == Status::Fail {
            self.unfenced.push(name);
        }
        self.items.push(Item::new(name, status, detail));
    }

    /// Asks `isready` once for each item that failed since the last time, and stops the check
    /// at the first that goes unanswered.
    fn ask_after_failures(&mut self) {
        for name in std::mem::take(&mut self.unfenced) {
            if self.halted.is_some() {
                return;
            }
            if let Err(e) = self.engine.fence(self.config.reply_timeout) {
                self.halted = Some(format!(
                    "after '{name}' failed, the engine no longer answers isready ({}): nothing \
                     more was checked",
                    first_clause(&e)
                ));
            }
        }
    }

    /// Stops the check after the current item, with `why`.
    pub fn halt(&mut self, why: String) {
        self.halted = Some(why);
    }
}

/// The start of a message, up to its first parenthesis (the cause without its details).
pub(super) fn first_clause(message: &str) -> &str {
    message.split(" (").next().unwrap_or(message)
}

/// A line of up to `plies` random legal moves from the start (fewer if the game ends first):
/// the arena's own walk ([`random_walk`]).
pub(super) fn random_line(game: Variant, seed: u64, plies: usize) -> GameLine<AnyGame> {
    random_walk(
        &AnyGame::start(game),
        plies,
        &mut ChaCha8Rng::seed_from_u64(seed),
    )
}
