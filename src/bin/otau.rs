//! `otau`: the engine. With no subcommand it speaks UGI on stdin/stdout (`protocol/ugi.md`).
//! Everything lives in `otau::cli`.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = otau::cli::OtauCli::parse();
    match otau::cli::run(cli.game, cli.command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // As `fn main() -> anyhow::Result` prints it, with what was read from a file (a PGN
            // tag, a token) shown escaped: a NUL or ESC never reaches the terminal raw.
            let text = format!("{e:?}");
            eprintln!("Error: {}", otau::input::escape_controls(&text));
            std::process::ExitCode::from(1)
        }
    }
}
