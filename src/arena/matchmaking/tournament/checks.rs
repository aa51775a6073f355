//! The configuration checks a run passes before any file is written.

use anyhow::{bail, Result};

use crate::arena::config::RunConfig;
use crate::arena::matchmaking::run_options::RunOptions;
use crate::arena::pairing::schedule::Shard;
use crate::games::{Game, Variant};

/// `--sprt` with `--shard` is refused: a sequential test's error rates hold only if it sees
/// every game as it finishes and stops at the first crossing; a shard sees a part of the games
/// and would stop on its own part, and a merge of such shards is no sequential test at all.
///
/// A kind whose games cannot be split (a knockout) is refused with `--shard` too
/// ([`crate::arena::pairing::TournamentKind::check_shard`]).
pub fn check_sprt_shard(config: &RunConfig, shard: Option<Shard>) -> Result<()> {
    if let Some(shard) = shard {
        config
            .tournament
            .check_shard(shard)
            .map_err(anyhow::Error::msg)?;
    }
    if let (Some(_), Some(shard)) = (config.sprt, shard) {
        bail!(
            "--sprt cannot be combined with --shard {shard}: a sequential test must see every \
             game as it finishes to stop at the right one, and each shard would stop on its own \
             part of the results. Run the SPRT unsharded (use --concurrency for speed), or play \
             fixed-size shards without --sprt (--games N --shard k/n) and get a fixed-sample \
             verdict on the merged counts with: otau-arena merge PART.jsonl... --sprt elo0=A elo1=B"
        );
    }
    Ok(())
}

/// The configuration can be played, and every engine starts (before any file is written).
pub(super) fn check_config(config: &RunConfig, opts: &RunOptions) -> Result<()> {
    crate::arena::pairing::check(config).map_err(anyhow::Error::msg)?;
    let variant: Variant = config.game.parse().map_err(anyhow::Error::msg)?;
    if crate::games::AnyGame::start(variant)
        .legal_moves()
        .is_empty()
    {
        bail!(
            "{} cannot be played yet (its rules are not in this build)",
            config.game
        );
    }
    if config.engines.len() < 2 {
        bail!("a run needs at least two engines (--engine ... twice)");
    }
    for e in &config.engines {
        e.check_text().map_err(anyhow::Error::msg)?;
    }
    let mut names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        bail!(
            "two engines are named '{}': give each a distinct name=",
            w[0]
        );
    }
    // The openings file, every entry, before any output is made or engine started (the run
    // reads it again when the games begin: a cheap second read, one reader).
    crate::arena::game::openings::OpeningBook::new(&config.openings, variant, config.seed)
        .map_err(anyhow::Error::msg)?;
    // Ctrl-Z stops the check's engines too, as it stops the run's (the rest of the run's signals
    // are set up when the games begin; until the pause was, a Ctrl-Z here stopped the arena
    // alone, and the check's engines ran on).
    crate::arena::system::pause::install();
    let warnings =
        crate::arena::engine::preflight::check_engines(config, &opts.log_dir, opts.log_limit)
            .map_err(anyhow::Error::msg)?;
    for warning in warnings {
        eprintln!("otau-arena: {warning}");
    }
    Ok(())
}
