//! `otau web`: its command line read (the `--engine` values, `--addr`) and its one line printed;
//! the page, the game and the server are [`crate::web`]'s.

use std::io::Write;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::arena::config::{split_args, EngineConfig, EngineSpec};
use crate::arena::engine::process::Guardian;
use crate::games::Variant;
use crate::web::play::{check_limits, PlayGame, PlayWorker};
use crate::web::play_page::PlaySite;
use crate::web::server::parse_addr;

/// The engine when `otau web` is given none: otau's own search, a second a move.
pub const DEFAULT_ENGINE: &str = "cmd=builtin:otau st=1";
/// The engines' start-up timeout (handshake, options, `isready`).
const STARTUP: Duration = Duration::from_secs(10);

/// `otau web`: serves the play page for `variant` against the engines of `engines` (each one
/// `--engine` value) on `addr`, prints its URL to `out`, and serves until the process ends.
pub fn web(
    variant: Variant,
    engines: &[String],
    addr: Option<&str>,
    out: &mut impl Write,
) -> Result<()> {
    let configs = engine_configs(engines)?;
    let addr = parse_addr(addr)
        .map_err(anyhow::Error::msg)
        .context("--addr")?;
    // A kill -9 of otau web then leaves no engine process behind either.
    let _guardian = configs
        .iter()
        .any(|e| e.builtin().is_none())
        .then(Guardian::start);
    let names: Vec<&str> = configs.iter().map(|e| e.name.as_str()).collect();
    let worker = PlayWorker::start(PlayGame::new(variant, configs.clone(), STARTUP));
    let server =
        PlaySite::serve(worker, addr).with_context(|| format!("cannot listen on {addr}"))?;
    if let Some(warning) = server.exposure() {
        writeln!(out, "otau web: --addr {warning}")?;
    }
    writeln!(
        out,
        "otau web: {variant} against {} at {}",
        names.join(", "),
        server.url()
    )?;
    out.flush()?;
    loop {
        std::thread::park();
    }
}

/// The engines of `--engine` values: each either the arena's `key=value ...` keys (`cmd=`, `args=`,
/// `name=`, `option.NAME=`, `st=`, `depth=`, `nodes=`; quotes group words) or a program and its
/// arguments; `st=1` when it gives no limit. None: [`DEFAULT_ENGINE`].
pub fn engine_configs(values: &[String]) -> Result<Vec<EngineConfig>> {
    let default = [DEFAULT_ENGINE.to_string()];
    let values = if values.is_empty() {
        &default[..]
    } else {
        values
    };
    let mut configs = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let words = split_args(v).map_err(anyhow::Error::msg)?;
        let tokens: Vec<String> = if words.first().is_some_and(|w| w.contains('=')) {
            words
        } else {
            let Some((cmd, args)) = words.split_first() else {
                bail!("--engine {}: empty", i + 1);
            };
            let mut t = vec![format!("cmd={cmd}")];
            if !args.is_empty() {
                t.push(format!("args={}", quoted(args)));
            }
            t
        };
        let list = format!("--engine {}", i + 1);
        let mut spec = EngineSpec::parse(&list, &tokens).map_err(anyhow::Error::msg)?;
        let limited = spec
            .pairs
            .iter()
            .any(|(k, _)| matches!(k.as_str(), "st" | "depth" | "nodes" | "tc"));
        if !limited {
            spec.pairs.push(("st".into(), "1".into()));
        }
        // A bad value is named with the list (`--engine 1 depth=0: ...`), as in a run.
        let cfg = spec
            .build(&EngineSpec::default(), i)
            .map_err(anyhow::Error::msg)?;
        check_limits(&cfg).map_err(|e| anyhow::anyhow!("{list}: {e}"))?;
        configs.push(cfg);
    }
    Ok(configs)
}

/// Arguments joined back into one `args=` value that [`split_args`] splits the same way.
fn quoted(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.is_empty() || a.contains(char::is_whitespace) || a.contains(['"', '\'']) {
                if a.contains('"') {
                    format!("'{a}'")
                } else {
                    format!("\"{a}\"")
                }
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_values() {
        let c = engine_configs(&[]).unwrap();
        assert_eq!(
            (c[0].cmd.as_str(), c[0].limits.movetime_ms),
            ("builtin:otau", Some(1000))
        );
        let c = engine_configs(&[
            "./my engine --x 'a b'".into(),
            "name=L5 cmd=builtin:otau option.Level=5 depth=4".into(),
        ])
        .unwrap();
        assert_eq!(c[0].cmd, "./my");
        assert_eq!(c[0].args, ["engine", "--x", "a b"]);
        assert_eq!(c[0].limits.movetime_ms, Some(1000), "st=1 without a limit");
        assert_eq!((c[1].name.as_str(), c[1].limits.depth), ("L5", Some(4)));
        assert_eq!(c[1].limits.movetime_ms, None);
        assert_eq!(c[1].options, [("Level".to_string(), "5".to_string())]);
        let e = engine_configs(&["cmd=builtin:otau tc=10+0.1".into()]).unwrap_err();
        assert!(e.to_string().contains("tc= has no meaning"), "{e}");
        let e = engine_configs(&["cmd=builtin:otau bogus=1".into()]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--engine 1: unknown key 'bogus' (keys: name, cmd, args, arg, "),
            "{e}"
        );
        let e = engine_configs(&["cmd=builtin:otau depth=0".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--engine 1 depth=0: a whole number in 1..=2147483647"
        );
    }
}
