//! `otau check`: the UGI compliance check of an engine.

use anyhow::{Context, Result};

use crate::arena::compliance;
use crate::games::Variant;

/// Checks the engine `engine[0]` (arguments `engine[1..]`) on `game`, waiting `timeout` seconds
/// for a reply that needs no search; prints the report, and fails if an item failed.
pub fn check(game: Variant, timeout: f64, engine: &[String]) -> Result<()> {
    let config = compliance::Config {
        game,
        reply_timeout: std::time::Duration::try_from_secs_f64(timeout)
            .context("--timeout must be a non-negative number of seconds")?,
        ..Default::default()
    };
    // As in an arena run: a kill -9 of the check leaves nothing the engine started.
    let _guardian = crate::arena::engine::process::Guardian::start();
    let report = compliance::check(&engine[0], &engine[1..], &config);
    println!("{report}");
    anyhow::ensure!(report.passed(), "the engine is not UGI compliant");
    Ok(())
}
