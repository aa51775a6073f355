//! `otau-arena ratings FILE...`: the joint rating table of any games, the arena's records or PGN
//! from any runner (as Ordo and BayesElo rate a PGN file), and the `--rating-prior` setting the
//! arena's tables share.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::records::RecordsFile;
use super::results::game_stats;
use crate::stats::{self, fit_ratings, GameStats, RatingOptions};

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

/// The games of one file: PGN when its name ends in `.pgn` (any case), the arena's records
/// otherwise. Also returns the number of unfinished PGN games left out.
pub fn load(path: &Path) -> Result<(Vec<GameStats>, usize)> {
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    if is_pgn {
        // Without a leading byte-order mark, which some exporters write.
        let text = crate::input::read_input_file(path, crate::pgn::MAX_PGN_BYTES, "PGN file")
            .map_err(anyhow::Error::msg)?;
        let games =
            crate::pgn::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        return stats::game::from_pgn(&games)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()));
    }
    let file = RecordsFile::read(path).with_context(|| {
        format!(
            "{}: not an arena records file (PGN files must end in .pgn)",
            path.display()
        )
    })?;
    Ok((file.games.values().map(game_stats).collect(), 0))
}

/// The text `otau-arena ratings` prints: what was read, then the table.
pub fn ratings_text(files: &[PathBuf], options: &RatingOptions) -> Result<String> {
    let mut games = Vec::new();
    let mut unfinished = 0;
    for path in files {
        let (mut g, u) = load(path)?;
        games.append(&mut g);
        unfinished += u;
    }
    if games.is_empty() {
        bail!("no finished games in {}", names(files));
    }
    let mut out = format!("{} games from {}", games.len(), names(files));
    if unfinished > 0 {
        out.push_str(&format!(" ({unfinished} unfinished left out)"));
    }
    out.push_str("\n\n");
    let table = fit_ratings(&games, &[], options).map_err(|e| anyhow::anyhow!("{e}"))?;
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
        let (games, unfinished) = load(&path).unwrap();
        assert_eq!((games.len(), unfinished), (1, 0));
        assert_eq!(games[0].south, "a");
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
