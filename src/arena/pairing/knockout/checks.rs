//! A knockout's options: its defaults, and the values and options it cannot take, refused by
//! name.

use crate::arena::config::RunConfig;
use crate::arena::pairing::schedule::{Shard, MAX_GAMES};

/// `--tiebreak-pairs` by default: two more pairs before the seeded draw.
pub const DEFAULT_TIEBREAK_PAIRS: u32 = 2;

/// The largest `--tiebreak-pairs`.
pub const MAX_TIEBREAK_PAIRS: u32 = 1000;

/// A knockout's values, checked on the command line's and on what `--resume` reads back.
pub fn check_values(config: &RunConfig) -> Result<(), String> {
    crate::arena::pairing::check_numbers_of(config, check_numbers)
}

/// A knockout cannot be split into shards: its later rounds depend on the results of the
/// earlier ones, which no shard has.
pub fn check_shard(shard: Shard) -> Result<(), String> {
    Err(format!(
        "--shard {shard}: a knockout cannot be split into shards: each round's pairings \
         depend on the results of the round before (use --concurrency for speed)"
    ))
}

/// [`check_values`] on the numbers: two engines at least, no `--games` or `--sprt`, the
/// tiebreak pairs and the most games in range.
pub fn check_numbers(
    engines: usize,
    rounds: u32,
    games: Option<u64>,
    tiebreak_pairs: Option<u32>,
    sprt: bool,
) -> Result<(), String> {
    if engines < 2 {
        return Err(format!(
            "--tournament knockout: needs at least two engines (--engine ... twice; {engines} \
             given)"
        ));
    }
    if let Some(g) = games {
        return Err(format!(
            "--games {g}: a knockout's games are set by its bracket; give --rounds R for R game \
             pairs an encounter (and --tiebreak-pairs K for its ties)"
        ));
    }
    if sprt {
        return Err(
            "--sprt: not with --tournament knockout: a sequential test of the first two \
                    engines would stop the bracket part-way; test two engines in a match of \
                    their own"
                .into(),
        );
    }
    let k = tiebreak_pairs.unwrap_or(DEFAULT_TIEBREAK_PAIRS);
    if k > MAX_TIEBREAK_PAIRS {
        return Err(format!("--tiebreak-pairs {k}: 0..={MAX_TIEBREAK_PAIRS}"));
    }
    let most = (engines as u128 - 1) * (u128::from(rounds) + u128::from(k)) * 2;
    if rounds == 0 || most > u128::from(MAX_GAMES) {
        return Err(format!(
            "--rounds {rounds}: 1..={} for a knockout of {engines} engines with {k} tiebreak \
             pair(s) (at most 2^53 games)",
            (u128::from(MAX_GAMES) / ((engines as u128 - 1) * 2))
                .saturating_sub(u128::from(k))
                .min(u128::from(u32::MAX))
        ));
    }
    Ok(())
}
