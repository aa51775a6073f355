//! `otau-arena sprt`: an SPRT checked by hand from its counts (the calculator's arguments and
//! report; the test itself is `stats::sprt`).

use crate::stats::elo::{checked_total, Wdl};
use crate::stats::sprt::{SprtConfig, SprtError};
use crate::stats::Pentanomial;

/// `otau-arena sprt`: check an SPRT by hand from its counts.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "Examples:
  otau-arena sprt --penta 17,253,1042,337,39 elo0=-0.5 elo1=1.5 model=logistic
  otau-arena sprt --penta 2,1925,6607,2176,2 elo0=0 elo1=2
  otau-arena sprt --wld 412,254,396 elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic")]
pub struct SprtCalcArgs {
    /// Game-pair counts LL,LD,WL+DD,WD,WW (fastchess's Ptnml(0-2), fishtest's pentanomial)
    #[arg(
        long,
        value_name = "LL,LD,D,WD,WW",
        required_unless_present = "wld",
        conflicts_with = "wld"
    )]
    pub penta: Option<String>,
    /// Game counts W,L,D (trinomial: games not paired)
    #[arg(long, value_name = "W,L,D")]
    pub wld: Option<String>,
    /// The test: elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic]
    #[arg(value_name = "KEY=VALUE", required = true)]
    pub params: Vec<String>,
}

impl SprtCalcArgs {
    /// The report the subcommand prints.
    pub fn run(&self) -> Result<String, SprtError> {
        let config = SprtConfig::parse("sprt", &self.params)?;
        let mut out = String::new();
        let status = if let Some(text) = &self.penta {
            let c = parse_counts::<5>(text, "LL,LD,WL+DD,WD,WW")?;
            let penta = Pentanomial::from_buckets(c);
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}], Pairs: {}, Games: {}\n",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                penta.pairs(),
                penta.pairs().saturating_mul(2)
            ));
            if let Some(e) = penta.estimate() {
                out.push_str(&e.elo_line());
                out.push('\n');
                out.push_str(&e.los_line(penta.draw_ratio(), Some(penta.pairs_ratio())));
                out.push('\n');
            }
            config.status(&penta)
        } else {
            let text = self.wld.as_deref().unwrap_or_default();
            let c = parse_counts::<3>(text, "W,L,D")?;
            let wdl = Wdl {
                wins: c[0],
                losses: c[1],
                draws: c[2],
            };
            out.push_str(&wdl.games_line());
            out.push('\n');
            if let Some(e) = wdl.estimate() {
                out.push_str(&e.elo_line());
                out.push('\n');
                out.push_str(&e.los_line(wdl.draw_ratio(), None));
                out.push('\n');
            }
            config.status_trinomial(&wdl)
        };
        out.push_str(&format!(
            "{} {} alpha={} beta={}\n",
            status.line(),
            config.model.name(),
            config.alpha,
            config.beta
        ));
        out.push_str(&format!("SPRT: {}\n", status.decision.describe()));
        Ok(out)
    }
}

/// The calculator from raw arguments (those after `sprt`), for callers without clap wiring.
pub fn sprt_cli_text<S: AsRef<str>>(args: &[S]) -> Result<String, String> {
    use clap::Parser;
    #[derive(Parser)]
    #[command(name = "otau-arena sprt")]
    struct SprtCommand {
        #[command(flatten)]
        args: SprtCalcArgs,
    }
    let argv = std::iter::once("sprt").chain(args.iter().map(AsRef::as_ref));
    let command = SprtCommand::try_parse_from(argv).map_err(|e| e.to_string())?;
    command.args.run().map_err(|e| e.to_string())
}

fn parse_counts<const N: usize>(text: &str, expected: &'static str) -> Result<[u64; N], SprtError> {
    let bad = || SprtError::Counts {
        expected,
        given: text.to_string(),
    };
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != N {
        return Err(bad());
    }
    let mut out = [0u64; N];
    for (slot, part) in out.iter_mut().zip(parts) {
        *slot = part.parse().map_err(|_| bad())?;
    }
    if checked_total(&out).is_none() {
        return Err(SprtError::CountsTooLarge {
            given: text.to_string(),
            total: out.iter().map(|&c| u128::from(c)).sum(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calculator_output() {
        let text = sprt_cli_text(&[
            "--penta",
            "17,253,1042,337,39",
            "elo0=-0.5",
            "elo1=1.5",
            "model=logistic",
        ])
        .unwrap();
        assert!(
            text.contains("Ptnml(0-2): [17, 253, 1042, 337, 39], Pairs: 1688, Games: 3376"),
            "{text}"
        );
        assert!(
            text.contains("LLR: 2.96 (-2.94, 2.94) [-0.50, 1.50] logistic"),
            "{text}"
        );
        assert!(text.contains("H1 accepted"), "{text}");
        let text = sprt_cli_text(&["--wld", "100,140,260", "elo0=0", "elo1=5"]).unwrap();
        assert!(
            text.contains("Games: 500, Wins: 100, Losses: 140, Draws: 260"),
            "{text}"
        );
        assert!(text.contains("LLR: -"), "{text}");
        assert!(sprt_cli_text(&["--penta", "1,2,3", "elo0=0", "elo1=5"])
            .unwrap_err()
            .contains("LL,LD,WL+DD,WD,WW"));
        assert!(sprt_cli_text(&["--penta", "1,2,3,4,5"]).is_err());
        assert!(sprt_cli_text(&["elo0=0", "elo1=5"]).is_err());
    }

    /// Issue 27, item 6: counts whose sum wraps a u64 (2^63 + 2^63) printed "Pairs: 0" and
    /// accepted H0. Counts past 2^53 in all are refused, naming the exact sum and the bound;
    /// at the bound they are taken.
    #[test]
    fn counts_beyond_the_bound_are_refused_not_wrapped() {
        let half = (1u64 << 63).to_string();
        let penta = format!("{half},0,0,0,{half}");
        let e = sprt_cli_text(&["--penta", &penta, "elo0=0", "elo1=5"]).unwrap_err();
        assert!(
            e.contains("18446744073709551616")
                && e.contains("9007199254740992")
                && e.contains(&penta),
            "{e}"
        );
        let wld = format!("{},1,0", 1u64 << 53);
        let e = sprt_cli_text(&["--wld", &wld, "elo0=0", "elo1=5"]).unwrap_err();
        assert!(e.contains("9007199254740993"), "{e}");
        let at_bound = format!("{},0,0,0,{}", 1u64 << 52, 1u64 << 52);
        let text = sprt_cli_text(&["--penta", &at_bound, "elo0=0", "elo1=5"]).unwrap();
        assert!(
            text.contains("Pairs: 9007199254740992, Games: 18014398509481984"),
            "{text}"
        );
        // An even score is elo0 itself: with that many pairs, H0 rightly.
        assert!(text.contains("H0 accepted"), "{text}");
    }
}
