//! `otau-arena ratings FILE...`: the joint rating table of any games, the arena's records or PGN
//! from any runner (as Ordo and BayesElo rate a PGN file), and the `--rating-prior` setting the
//! arena's tables share.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::arena::records::RecordsFile;
use crate::stats::{self, fit_pairings, Pairings, RatingError, RatingOptions};

/// `--rating-prior DRAWS`: BayesElo's prior, virtual draws per player (2, BayesElo's default;
/// 0 for plain maximum likelihood, as Ordo).
pub fn parse_prior(text: &str) -> Result<RatingOptions, String> {
    match text.trim().parse::<f64>() {
        Ok(draws) if draws.is_finite() && (0.0..=1000.0).contains(&draws) => {
            Ok(RatingOptions { prior_draws: draws })
        }
        _ => Err(format!(
            "'{text}' is not a number of virtual draws from 0 to 1000 (2 is BayesElo's default, \
             0 the plain maximum-likelihood fit)"
        )),
    }
}

/// Adds the games of one file to `pairings`: PGN when its name ends in `.pgn` (any case),
/// streamed a game at a time so that no file is held whole; the arena's records otherwise.
/// Returns the finished games read and the unfinished PGN games left out; `progress` hears the
/// count of games read every 100,000.
pub(crate) fn read_into(
    path: &Path,
    pairings: &mut Pairings,
    progress: &mut dyn FnMut(u64),
) -> Result<(u64, u64)> {
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let (mut finished, mut unfinished) = (0u64, 0u64);
    if is_pgn {
        // Bounded and regular files only (a FIFO or /dev/zero is refused by name).
        let file = crate::input::open_input_file(path, crate::pgn::MAX_PGN_BYTES, "PGN file")
            .map_err(anyhow::Error::msg)?;
        let mut index = 0;
        crate::pgn::read_games(std::io::BufReader::with_capacity(1 << 16, file), |game| {
            match stats::game::game_from_pgn(index, &game).map_err(anyhow::Error::msg)? {
                Some(g) => {
                    pairings.add(&g.south, &g.north, g.outcome);
                    finished += 1;
                    if finished % 100_000 == 0 {
                        progress(finished);
                    }
                }
                None => unfinished += 1,
            }
            index += 1;
            Ok::<(), anyhow::Error>(())
        })
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        return Ok((finished, unfinished));
    }
    // One game at a time, in the order they finished, counted at its game number: the fit reads
    // them as in game order, whatever order they finished in.
    let mut tally = stats::Tally::new();
    RecordsFile::scan(path, |_, g| {
        let game = stats::GameStats {
            pair: g.pair,
            game: g.index + 1,
            south: g.south.clone(),
            north: g.north.clone(),
            outcome: g.result,
            termination: String::new(),
            plies: 0,
            south_total: 0,
            north_total: 0,
            south_moves: Default::default(),
            north_moves: Default::default(),
        };
        tally.add(&game, g.index);
        finished += 1;
        if finished % 100_000 == 0 {
            progress(finished);
        }
        Ok(())
    })
    .with_context(|| {
        format!(
            "{}: not an arena records file (PGN files must end in .pgn)",
            path.display()
        )
    })?;
    tally.add_to(pairings);
    Ok((finished, unfinished))
}

/// The text `otau-arena ratings` prints: what was read, then the table. With `largest_group`,
/// only the largest group of players that met is rated (the way forward when the players did
/// not all meet). A long read or fit reports its progress on stderr after the first second.
pub fn ratings_text(
    files: &[PathBuf],
    options: &RatingOptions,
    largest_group: bool,
) -> Result<String> {
    let started = std::time::Instant::now();
    let say = |line: &str| {
        if started.elapsed() >= std::time::Duration::from_secs(1) {
            eprintln!("otau-arena ratings: {line}");
        }
    };
    let mut pairings = Pairings::new();
    let (mut games, mut unfinished) = (0, 0);
    for path in files {
        let (g, u) = read_into(path, &mut pairings, &mut |read| {
            say(&format!("{}: {read} games read", path.display()))
        })?;
        games += g;
        unfinished += u;
    }
    if games == 0 {
        bail!("no finished games in {}", names(files));
    }
    // Said here, not only skipped by the fit: a count that does not add up reads as lost games.
    let own = pairings.self_games;
    let mut out = format!("{games} games from {}: {} rated", names(files), games - own);
    let mut left_out = Vec::new();
    if own > 0 {
        left_out.push(format!(
            "{own} of a player against itself (they say nothing of strength)"
        ));
    }
    if unfinished > 0 {
        left_out.push(format!("{unfinished} unfinished"));
    }
    if !left_out.is_empty() {
        out.push_str(&format!("; left out: {}", left_out.join(", ")));
    }
    if own == games {
        bail!("{out}: no game to rate");
    }
    out.push_str("\n\n");
    if largest_group {
        let (group, left_out) = pairings.largest_group();
        if left_out > 0 {
            out.push_str(&format!(
                "Rated the largest group of players that met: {} of {} players, {} of {} games \
                 ({left_out} other groups left out)\n\n",
                group.players(),
                pairings.players(),
                group.games(),
                pairings.games()
            ));
        }
        pairings = group;
    }
    say(&format!(
        "fitting {} players, {} pairings",
        pairings.players(),
        pairings.pairings()
    ));
    let table = fit_pairings(&pairings, options, &mut |line| say(line)).map_err(|e| match e {
        RatingError::Disconnected(_) => anyhow::anyhow!(
            "{e}. Rate the largest group alone with --largest-group, or add games between the \
             groups"
        ),
        e => anyhow::anyhow!("{e}"),
    })?;
    out.push_str(&table.text());
    Ok(out)
}

fn names(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_with_a_byte_order_mark_reads() {
        let dir = std::env::temp_dir().join(format!("otau-rate-bom-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bom.PGN");
        std::fs::write(
            &path,
            "\u{feff}[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n",
        )
        .unwrap();
        let mut pairings = Pairings::new();
        let read = read_into(&path, &mut pairings, &mut |_| {}).unwrap();
        assert_eq!(read, (1, 0));
        assert_eq!((pairings.players(), pairings.games()), (2, 1));
        let table = fit_pairings(&pairings, &RatingOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(table.players[0].name, "a", "{}", table.text());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn prior_values_are_checked() {
        assert_eq!(parse_prior("0").unwrap().prior_draws, 0.0);
        assert_eq!(parse_prior(" 2.5").unwrap().prior_draws, 2.5);
        for bad in ["-1", "x", "inf", "NaN", "1e9"] {
            let e = parse_prior(bad).unwrap_err();
            assert!(e.contains(bad) && e.contains("BayesElo's default"), "{e}");
        }
    }
}
