//! `otau`: the engine. With no subcommand it speaks UGI on stdin/stdout (`protocol/ugi.md`).

use std::io::Write;

use anyhow::{Context, Result};
use clap::Parser;
use otau::cli::{OtauCli, OtauCommand};
use otau::games::GameLine;

fn main() -> Result<()> {
    let cli = OtauCli::parse();
    match cli.command {
        Some(OtauCommand::Selfplay {
            a,
            b,
            pairs,
            plies,
            seed,
            concurrency,
            max_plies,
            balance,
            record,
        }) => {
            use otau::search::selfplay::{play_match, Contender, MatchSpec};
            let a = Contender::parse(&a)
                .map_err(anyhow::Error::msg)
                .context("--a")?;
            let b = Contender::parse(&b)
                .map_err(anyhow::Error::msg)
                .context("--b")?;
            let spec = MatchSpec {
                variant: cli.game,
                pairs,
                opening_plies: plies,
                seed,
                concurrency,
                max_plies,
                balance,
            };
            let mut record = match record {
                Some(path) => Some(std::io::BufWriter::new(
                    std::fs::File::create(&path).with_context(|| path.clone())?,
                )),
                None => None,
            };
            let summary = play_match(&spec, &a, &b, |s, games| {
                if s.games() % 20 == 0 {
                    eprintln!("{}", s.line(&a.name, &b.name));
                }
                if let Some(out) = record.as_mut() {
                    for g in games {
                        let result = match g.outcome {
                            otau::games::Outcome::Win(otau::games::Side::South) => "1",
                            otau::games::Outcome::Win(otau::games::Side::North) => "0",
                            otau::games::Outcome::Draw => "0.5",
                        };
                        let mut replay = GameLine::new(g.line.start().clone());
                        for &mv in g.line.moves() {
                            let _ = writeln!(out, "{result} {}", replay.position());
                            replay.play(mv).expect("a played move is legal");
                        }
                    }
                }
            });
            if let Some(mut out) = record {
                out.flush()?;
            }
            println!("{}", summary.line(&a.name, &b.name));
            Ok(())
        }
        Some(OtauCommand::Tables { max_stones, dir }) => {
            otau::tables::command::tables(cli.game, max_stones, dir, &mut std::io::stdout().lock())
        }
        Some(OtauCommand::Tune {
            pgn,
            positions,
            skip,
            epochs,
            out,
        }) => {
            use otau::eval::{toguz, tune};
            let mut samples = Vec::new();
            for path in &pgn {
                let text = std::fs::read_to_string(path).with_context(|| path.clone())?;
                let games = tune::read_pgn(&text).with_context(|| path.clone())?;
                samples.extend(tune::samples(&games, skip));
            }
            for path in &positions {
                let text = std::fs::read_to_string(path).with_context(|| path.clone())?;
                samples.extend(tune::read_positions(&text).with_context(|| path.clone())?);
            }
            anyhow::ensure!(
                !samples.is_empty(),
                "no positions: give --pgn or --positions"
            );
            eprintln!("{} positions", samples.len());
            let (weights, scale) = tune::fit(&samples, &toguz::WEIGHTS, epochs, |epoch, err| {
                eprintln!("epoch {epoch} error {err:.6}")
            });
            eprintln!("logistic scale {scale:.1} centi-stones");
            if let Some(path) = out {
                std::fs::write(&path, tune::weight_file(&weights)).with_context(|| path)?;
            }
            print!("{}", tune::rust_constant(&weights));
            Ok(())
        }
        Some(OtauCommand::Solve {
            position,
            max_plies,
        }) => otau::tables::command::solve(
            cli.game,
            position.as_deref(),
            max_plies,
            &mut std::io::stdout().lock(),
        ),
        command => otau::cli::run(cli.game, command),
    }
}
