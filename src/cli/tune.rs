//! `otau tune`: reads the game records, fits Toguz Kumalak's evaluation weights with
//! `eval::tune` (Texel's method), writes the weight file and returns the Rust constant printed.

use crate::eval::tune::{fit, read_pgn, rust_constant, samples, weight_file};

/// `otau tune`: the game records to fit on and what to write.
#[derive(Clone, Debug)]
pub struct TuneRun {
    /// PGN files (PlayOK's export, the arena's `--pgn`).
    pub pgn: Vec<std::path::PathBuf>,
    /// Plies skipped at the start of each game.
    pub skip: usize,
    /// Adam steps over all positions (progress printed every hundredth).
    pub epochs: usize,
    /// The weight file to write (the engine's `EvalFile`), if any.
    pub out: Option<std::path::PathBuf>,
}

impl TuneRun {
    /// Reads the games, fits the weights (progress through `log`), writes the weight file if
    /// asked, and returns the weights as the Rust constant of `src/eval/toguz.rs`.
    pub fn run(&self, mut log: impl FnMut(&str)) -> anyhow::Result<String> {
        use anyhow::Context;
        let mut all = Vec::new();
        for path in &self.pgn {
            let shown = path.display().to_string();
            let text = crate::input::read_input_file(path, crate::pgn::MAX_PGN_BYTES, "PGN file")
                .map_err(anyhow::Error::msg)?;
            let games = read_pgn(&text).with_context(|| shown.clone())?;
            all.extend(samples(&games, self.skip));
        }
        anyhow::ensure!(
            !all.is_empty(),
            "no positions: give --pgn with finished games"
        );
        log(&format!("{} positions", all.len()));
        let (weights, scale) = fit(
            &all,
            &crate::eval::toguz::WEIGHTS,
            self.epochs,
            |epoch, err| log(&format!("epoch {epoch} error {err:.6}")),
        );
        log(&format!("logistic scale {scale:.1} centi-stones"));
        if let Some(path) = &self.out {
            std::fs::write(path, weight_file(&weights))
                .with_context(|| path.display().to_string())?;
        }
        Ok(rust_constant(&weights))
    }
}
