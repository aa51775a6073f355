//! `otau bench`: fixed-depth searches, the node signature and the speed.

use std::io::Write;

use anyhow::Result;

use crate::games::{AnyGame, Variant};
use crate::search::bench as searches;

/// Searches the built-in positions (or `position` alone, `startpos` for `game`'s start, to
/// `depth` or 12) and writes each result, then `nodes`, `nps` and `time`.
pub fn bench(
    game: Variant,
    depth: Option<u32>,
    hash: usize,
    threads: usize,
    position: Option<&str>,
    out: &mut impl Write,
) -> Result<()> {
    let single = position.map(|p| {
        if p == "startpos" {
            AnyGame::start(game).to_string()
        } else {
            p.to_string()
        }
    });
    let list = single.as_deref().map(|p| [(p, depth.unwrap_or(12))]);
    let (nodes, time) = searches::run(depth, hash, threads, list.as_ref().map(|l| &l[..]), |r| {
        let _ = match (&r.skipped, &r.info) {
            (Some(why), _) => writeln!(out, "skipped {}: {why}", r.position),
            (None, Some(info)) => writeln!(
                out,
                "{} | depth {} score {} nodes {} time {} bestmove {}",
                r.position,
                info.depth,
                info.score,
                info.nodes,
                info.elapsed.as_millis(),
                r.best.as_deref().unwrap_or("none")
            ),
            _ => Ok(()),
        };
    });
    writeln!(out, "nodes {nodes}")?;
    writeln!(
        out,
        "nps {}",
        (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
    )?;
    writeln!(out, "time {}", time.as_millis())?;
    Ok(())
}
