//! `otau`: the engine. With no subcommand it speaks UGI on stdin/stdout (`protocol/ugi.md`).
//! Everything lives in `otau::cli`.

use clap::Parser;

fn main() -> anyhow::Result<()> {
    let cli = otau::cli::OtauCli::parse();
    otau::cli::run(cli.game, cli.command)
}
