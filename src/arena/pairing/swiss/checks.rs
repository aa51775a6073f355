//! A Swiss run's options from the run's configuration: its rules, and the values and options it
//! cannot take, refused by name (the `TournamentKind` arm's `pairing`, `check_values` and
//! `check_shard`).

use super::run::Rules;
use super::standings::TieBreak;
use crate::arena::config::RunConfig;
use crate::arena::pairing::schedule::{Shard, MAX_GAMES};

/// The most rounds (the TRF's two digits).
pub const MAX_ROUNDS: u32 = 99;

impl Rules {
    /// A Swiss run's rules: its engines ranked by `rating=` where given (else command-line
    /// order), `--rounds` rounds, one game a pairing or a game pair (`--games 2`), the
    /// bye's points (`--bye-score`, a win's by default), the tie-breaks (`--tiebreaks`, else
    /// [`TieBreak::DEFAULT`]).
    pub fn of(config: &RunConfig) -> Rules {
        Rules {
            names: config.engine_names(),
            ratings: config.engines.iter().map(|e| e.rating).collect(),
            rounds: config.rounds,
            games_per_round: if config.games == Some(2) { 2 } else { 1 },
            bye_points: config.swiss.bye_score.map_or(10, |b| b.tenths()),
            tiebreaks: if config.swiss.tiebreaks.is_empty() {
                TieBreak::DEFAULT.to_vec()
            } else {
                // Checked by `check_values` on the command line's and on a resumed header.
                TieBreak::parse_list(&config.swiss.tiebreaks.join(","))
                    .unwrap_or_else(|_| TieBreak::DEFAULT.to_vec())
            },
        }
    }
}

/// A Swiss run's values, checked on the command line's and on what `--resume` reads back.
pub fn check_values(config: &RunConfig) -> Result<(), String> {
    crate::arena::pairing::check_numbers_of(config, check_numbers)?;
    if !config.swiss.tiebreaks.is_empty() {
        TieBreak::parse_list(&config.swiss.tiebreaks.join(","))?;
    }
    Ok(())
}

/// A Swiss cannot be split into shards: each round is paired from the results of the rounds
/// before it, which no shard has.
pub fn check_shard(shard: Shard) -> Result<(), String> {
    Err(format!(
        "--shard {shard}: a Swiss cannot be split into shards: each round's pairings depend on \
         the results of the rounds before (use --concurrency for speed)"
    ))
}

/// [`check_values`] on the numbers.
pub fn check_numbers(
    engines: usize,
    rounds: u32,
    games: Option<u64>,
    tiebreak_pairs: Option<u32>,
    sprt: bool,
) -> Result<(), String> {
    if engines < 2 {
        return Err(format!(
            "--tournament swiss: needs at least two engines (--engine ... twice; {engines} given)"
        ));
    }
    if !(1..=MAX_ROUNDS).contains(&rounds) {
        return Err(format!(
            "--rounds {rounds}: 1..={MAX_ROUNDS} rounds for a Swiss"
        ));
    }
    match games {
        None | Some(1) | Some(2) => {}
        Some(g) => {
            return Err(format!(
                "--games {g}: a Swiss round is one game (--games 1, the default) or a game pair \
                 with colours swapped (--games 2)"
            ))
        }
    }
    if let Some(k) = tiebreak_pairs {
        return Err(format!(
            "--tiebreak-pairs {k}: only for --tournament knockout (a Swiss ranks ties by its \
             tie-breaks)"
        ));
    }
    if sprt {
        return Err(
            "--sprt: not with --tournament swiss: a sequential test of the first two \
                    engines would stop the tournament part-way; test two engines in a match of \
                    their own"
                .into(),
        );
    }
    let most = u128::from(rounds) * (engines as u128 / 2) * u128::from(games.unwrap_or(1));
    if most > u128::from(MAX_GAMES) {
        return Err(format!("--rounds {rounds}: more than 2^53 games"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_out_of_range_are_refused_by_name() {
        assert!(check_numbers(9, 5, None, None, false).is_ok());
        assert!(check_numbers(9, 5, Some(2), None, false).is_ok());
        assert!(check_numbers(1, 5, None, None, false)
            .unwrap_err()
            .contains("two engines"));
        assert!(check_numbers(9, 0, None, None, false)
            .unwrap_err()
            .contains("--rounds 0"));
        assert!(check_numbers(9, 5, Some(4), None, false)
            .unwrap_err()
            .contains("--games 4"));
        assert!(check_numbers(9, 5, None, Some(1), false)
            .unwrap_err()
            .contains("--tiebreak"));
        assert!(check_numbers(9, 5, None, None, true)
            .unwrap_err()
            .contains("--sprt"));
    }
}
