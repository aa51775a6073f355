//! Who plays whom, and running a whole schedule of games.
//!
//! - [`pairing`]: the [`Pairing`] trait every tournament kind implements (the
//!   next game or wait, a result, the replay of recorded games, the size, text and JSON);
//! - [`schedule`]: round robin and gauntlet, a fixed schedule computed game by game, and its
//!   shards;
//! - [`knockout`]: the single-elimination bracket, whose later rounds depend on the results;
//! - [`tournament`]: running a whole run on any pairing (workers, engine pools, forfeits,
//!   resume).
//!
//! # Where a new tournament kind goes
//!
//! A kind (a Swiss system, say) is one new file here implementing [`pairing::Pairing`], and one
//! arm in [`TournamentKind`] (its `--tournament` name and help) with its construction in
//! [`TournamentKind::pairing`] and its values' checks in [`TournamentKind::check_values`] (and
//! [`TournamentKind::check_shard`] if it cannot be split into shards). Nothing else in the arena
//! names a kind: the workers, the records, `--resume`, `merge`, the summary and the report
//! only hold a `Box<dyn Pairing>`. Its rules go in `protocol/arena.md`, a run of it in the
//! tests (`tests/arena_knockout.rs` is the knockout's).

pub mod knockout;
pub mod pairing;
pub mod schedule;
pub mod tournament;

use serde::{Deserialize, Serialize};

use crate::arena::config::RunConfig;
use pairing::Pairing;
use schedule::Shard;

/// How engines are paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum TournamentKind {
    /// Every engine against every other.
    #[default]
    Roundrobin,
    /// The first engine against each of the others.
    Gauntlet,
    /// A single-elimination bracket seeded in command-line order, --rounds pairs an encounter.
    // (Its bracket: `knockout::Bracket`; the doc line above is the help text.)
    Knockout,
}

impl TournamentKind {
    /// The run's pairing, before any game is recorded: the one place each kind is built.
    /// `shard` is the slice this process plays (a kind that cannot be split refuses it in
    /// [`TournamentKind::check_shard`] first).
    pub fn pairing(self, config: &RunConfig, shard: Option<Shard>) -> Box<dyn Pairing> {
        match self {
            TournamentKind::Roundrobin | TournamentKind::Gauntlet => {
                Box::new(schedule::FixedSchedule::new(config, shard))
            }
            TournamentKind::Knockout => {
                Box::new(knockout::Bracket::new(knockout::Rules::of(config)))
            }
        }
    }

    /// The kind's values in range, and the options it cannot take refused by name: checked on
    /// the command line's and on what `--resume` reads back.
    pub fn check_values(self, config: &RunConfig) -> Result<(), String> {
        match self {
            TournamentKind::Roundrobin | TournamentKind::Gauntlet => schedule::check_values(config),
            TournamentKind::Knockout => knockout::check_values(config),
        }
    }

    /// `--shard`, refused by a kind whose games cannot be split.
    pub fn check_shard(self, shard: Shard) -> Result<(), String> {
        match self {
            TournamentKind::Knockout => knockout::check_shard(shard),
            _ => Ok(()),
        }
    }
}
