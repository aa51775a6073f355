//! Arena statistics: the numbers users decide from, computed from their definitions and printed
//! the way engine testers expect (fastchess's result block, Ordo's rating table).
//!
//! Pure functions of finished games ([`GameStats`]); nothing here touches the file system (the
//! arena writes the report). One concern per module:
//! - [`game`]: [`GameStats`], one finished game as the statistics read it;
//! - [`elo`]: logistic Elo, normal distribution, trinomial estimate, [`Wdl`];
//! - [`pentanomial`]: game pairs (LL, LD, WL+DD, WD, WW) and the pair tracker;
//! - [`sprt`]: the generalized SPRT (logistic and normalized);
//! - [`ratings`]: joint Bradley-Terry ratings with draws and first-player advantage;
//! - [`diagnostics`]: per-engine depth, speed, time, endings;
//! - [`crosstable`]: engines by engines, each cell a pairing's score;
//! - [`summary`]: all of the above for a run, as text and as JSON;
//! - [`report`] and [`svg`]: the self-contained HTML page;
//! - [`table`]: the column lists that print a table both as text and in the page;
//! - [`tally`]: a run's statistics kept as counts (memory that does not grow with the games).
//!
//! The formulas, models and what each number means: `protocol/statistics.md`.

pub mod crosstable;
pub mod diagnostics;
pub mod elo;
pub mod game;
pub mod pentanomial;
pub mod ratings;
pub mod report;
pub mod sprt;
pub mod summary;
pub mod svg;
pub mod table;
pub mod tally;

pub use crosstable::Crosstable;
pub use diagnostics::EngineDiagnostics;
pub use elo::{EloEstimate, Wdl};
pub use game::{GameStats, MoveSummary};
pub use pentanomial::{PairTracker, Pentanomial};
pub use ratings::{fit_pairings, fit_ratings, Pairings, RatingError, RatingOptions, RatingTable};
pub use report::{render_html, render_summary_html, ReportOptions, Window, LISTED_GAMES};
pub use sprt::{SprtConfig, SprtDecision, SprtModel, SprtStatus, SprtStop, SprtTest};
pub use summary::{
    cutechess_sprt_line, summarize, MatchStats, SprtSummary, Summary, SummaryOptions,
};
pub use tally::Tally;

/// Reads a number that JSON may hold as `null`: serde_json writes non-finite floats (an infinite
/// Elo after a perfect score, a NaN interval) as `null`, and summaries must read back.
pub(crate) fn f64_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    use serde::Deserialize;
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}
