//! The command line's spellings of the arena's choices: `--tournament`, `--adjudicate`,
//! `--output` and `--overuse`. The arena's types know nothing of clap (the
//! layers keep argv in `src/cli`); their value names and help lines live here, one place, as
//! the derives wrote them before (the tests of the command line pin them).

use clap::builder::PossibleValue;
use clap::ValueEnum;

use crate::arena::config::Overuse;
use crate::arena::game::adjudication::AdjudicateBy;
use crate::arena::output::progress::OutputFormat;
use crate::arena::pairing::TournamentKind;

impl ValueEnum for TournamentKind {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            TournamentKind::Roundrobin,
            TournamentKind::Gauntlet,
            TournamentKind::Knockout,
            TournamentKind::Swiss,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            TournamentKind::Roundrobin => {
                PossibleValue::new("roundrobin").help("Every engine against every other")
            }
            TournamentKind::Gauntlet => {
                PossibleValue::new("gauntlet").help("The first engine against each of the others")
            }
            TournamentKind::Knockout => PossibleValue::new("knockout").help(
                "A single-elimination bracket seeded in command-line order, --rounds pairs an \
                 encounter",
            ),
            TournamentKind::Swiss => PossibleValue::new("swiss").help(
                "A Swiss by the FIDE Dutch system (C.04.3, 2025), --rounds rounds, --games 2 for \
                 game pairs",
            ),
        })
    }
}

impl ValueEnum for AdjudicateBy {
    fn value_variants<'a>() -> &'a [Self] {
        &[AdjudicateBy::None, AdjudicateBy::Tables]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            AdjudicateBy::None => {
                PossibleValue::new("none").help("Play on to the end (the default)")
            }
            AdjudicateBy::Tables => PossibleValue::new("tables").help(
                "End a game as soon as its position is within the game's tables, with their result",
            ),
        })
    }
}

impl ValueEnum for OutputFormat {
    fn value_variants<'a>() -> &'a [Self] {
        &[OutputFormat::Fastchess, OutputFormat::Cutechess]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            OutputFormat::Fastchess => PossibleValue::new("fastchess").help(
                "fastchess's blocks (`Results of a vs b`, Elo and nElo, LOS, pentanomial counts)",
            ),
            OutputFormat::Cutechess => PossibleValue::new("cutechess").help(
                "cutechess-cli's lines (`Score of a vs b: W - L - D [score] N`, `Elo difference: \
                 ...`, `SPRT: llr ...`)",
            ),
        })
    }
}

impl ValueEnum for Overuse {
    fn value_variants<'a>() -> &'a [Self] {
        &[Overuse::Warn, Overuse::Forfeit]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Overuse::Warn => PossibleValue::new("warn")
                .help("Reported by engine and count at the end of the run"),
            Overuse::Forfeit => PossibleValue::new("forfeit")
                .help("The game is lost at the first, by `cpu-overuse`"),
        })
    }
}
