//! `otau solve --game bestemshe`: the endgame tables (built once and cached), the proof search
//! deepened from the start until the root is proven, the proof tree extracted, saved and
//! re-checked by the verifier; progress on stderr, the result on stdout.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::proof::{self, DrawProof, Proof, ProofStats, Saved};
use super::{Bestemshe, Rules};
use crate::games::{Game, Side, Toguz, Variant};
use crate::tables::file::{self, RestsOn, TablesFrom};
use crate::tables::proof_search::tree::Goal;
use crate::tables::proof_search::{self, on_deep_stack, write_searches_and_trees, SearchFigures};
use crate::tables::toguz::{Tables, WIDE_STONES_LIMIT};

/// Stones on the board up to which the solve's endgame tables reach by default: 272 million
/// positions, about 8 minutes and 11 GB to build, 544 MB on disk (measured, see the README).
pub const DEFAULT_TABLE_STONES: usize = 28;

/// What `otau solve --game bestemshe` is asked.
pub struct SolveOptions {
    pub rules: Rules,
    pub table_stones: usize,
    /// Transposition table of the proof search, in MiB.
    pub hash_mb: usize,
    /// Where the tables and the proof are kept (the cache directory by default).
    pub dir: PathBuf,
    /// Check the saved proof only (never search).
    pub verify_only: bool,
    /// Check the saved proof over tables rebuilt from scratch (in memory: the cache is never
    /// read or written), their digest compared with the proof's, instead of the cache's: a
    /// table file and a proof forged together are caught. Only with `verify_only`.
    pub rebuild_tables: bool,
}

/// The cache file of the solve's tables: `bestemshe-28.table`, `bestemshe-playstrategy-28.table`
/// (apart from the engine's `bestemshe.table`).
pub fn table_file(rules: Rules, stones: usize) -> String {
    match rules {
        Rules::Otau => format!("bestemshe-{stones}.table"),
        Rules::PlayStrategy => format!("bestemshe-playstrategy-{stones}.table"),
    }
}

/// The cache file of the proof: `bestemshe-28.proof`, `bestemshe-playstrategy-28.proof`.
pub fn proof_file(rules: Rules, stones: usize) -> String {
    table_file(rules, stones).replace(".table", ".proof")
}

/// The solve's tables: read from `dir`, or built (with progress on stderr) and saved there.
pub fn load_or_build_tables(rules: Rules, stones: usize, dir: &Path) -> Result<Tables> {
    load_or_build(rules, stones, dir).map(|(tables, _)| tables)
}

/// [`load_or_build_tables`], and whether they were read from their file (else built now).
fn load_or_build(rules: Rules, stones: usize, dir: &Path) -> Result<(Tables, TablesFrom)> {
    let path = dir.join(table_file(rules, stones));
    match Tables::load(&path) {
        Ok(t) if t.stuck_rule() == rules.stuck_rule() && t.max_stones() == stones => {
            eprintln!("tables: read {}", path.display());
            return Ok((t, TablesFrom::File(path)));
        }
        Ok(_) => eprintln!("tables: {} holds other tables; building", path.display()),
        Err(e) if e.is_missing() => {}
        Err(e) => eprintln!("tables: {e}; building them again"),
    }
    let tables = build_tables(rules, stones);
    eprintln!("tables: saving {}", path.display());
    std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    tables
        .save(&path)
        .with_context(|| path.display().to_string())?;
    Ok((tables, TablesFrom::Rebuilt))
}

/// Builds the solve's tables from scratch in memory, with progress on stderr.
pub fn build_tables(rules: Rules, stones: usize) -> Tables {
    let started = Instant::now();
    let (tables, stats) = Tables::build_with(
        Variant::BESTEMSHE,
        stones,
        rules.stuck_rule(),
        &mut |s, positions| {
            eprintln!(
                "tables: {s} stones done, {positions} positions, {:.0} s",
                started.elapsed().as_secs_f64()
            )
        },
    );
    eprintln!(
        "tables: {} positions, {} with open bounds, built in {:.0} s",
        stats.positions,
        stats.open,
        started.elapsed().as_secs_f64(),
    );
    tables
}

/// The table file a new proof over `tables` rests on, with their digest.
pub fn rests_on(rules: Rules, tables: &Tables) -> RestsOn {
    RestsOn {
        table: table_file(rules, tables.max_stones()),
        digest: tables.digest(),
    }
}

/// `otau solve --game bestemshe`.
pub fn run(options: &SolveOptions, out: &mut dyn Write) -> Result<()> {
    run_from(options, &Toguz::start(Variant::BESTEMSHE), out)
}

/// [`run`] from `root` instead of the start (the proof file does not say its root: tests prove
/// positions that solve in seconds).
///
/// A saved proof is read first (so that a missing or refused one is said before the tables,
/// which may take 10 minutes to build), then the tables: from the cache or, with
/// `rebuild_tables`, rebuilt in memory; their digest must be the one the proof rests on
/// ([`file::check_digest`]) before the proof is replayed over them.
pub fn run_from(options: &SolveOptions, root: &Toguz, out: &mut dyn Write) -> Result<()> {
    let SolveOptions {
        rules,
        table_stones,
        hash_mb,
        ref dir,
        verify_only,
        rebuild_tables,
    } = *options;
    if !(2..=WIDE_STONES_LIMIT).contains(&table_stones) {
        bail!("--table-stones {table_stones}: 2..={WIDE_STONES_LIMIT}");
    }
    if rebuild_tables && !verify_only {
        bail!("--rebuild-tables checks a saved proof: give --verify too");
    }
    let proof_path = dir.join(proof_file(rules, table_stones));
    let saved = match proof::load_saved(&proof_path) {
        Ok((p, r)) if saved_for(&p) == (rules, table_stones) => Some((p, r)),
        Ok(_) => bail!(
            "{} is a proof for other rules or tables",
            proof_path.display()
        ),
        Err(e) if e.is_missing() => None,
        Err(e) => return Err(e).context("the saved proof"),
    };
    if saved.is_none() && verify_only {
        bail!("no proof to verify: {} is missing", proof_path.display());
    }
    let started = Instant::now();
    let (tables, from) = if rebuild_tables {
        eprintln!("tables: rebuilding from scratch in memory (the cache is not read)");
        (build_tables(rules, table_stones), TablesFrom::Rebuilt)
    } else {
        load_or_build(rules, table_stones, dir)?
    };
    let tables_time = started.elapsed();
    let (saved, search) = match saved {
        Some((p, rests)) => {
            eprintln!("proof: read {}", proof_path.display());
            file::check_digest(&proof_path, &rests, from, tables.digest())?;
            (p, Vec::new())
        }
        None => {
            let log2 = (hash_mb.max(1) << 20).ilog2() - 4; // 16-byte entries
            let game = Bestemshe::new(rules, &tables);
            // North first: the published winner.
            let (mut trees, figures) =
                proof_search::prove_result(game, root, [Side::North, Side::South], log2)?;
            let table_stones = table_stones as u8;
            let saved = match trees.len() {
                1 if trees[0].goal == Goal::Win => {
                    let tree = trees.remove(0);
                    Saved::Win(Proof {
                        rules,
                        table_stones,
                        winner: tree.winner,
                        moves: tree.moves,
                    })
                }
                2 => Saved::Draw(DrawProof {
                    rules,
                    table_stones,
                    holds: trees,
                }),
                _ => bail!("{}", proof_search::partial_result(&game, root, &trees)),
            };
            let rests = rests_on(rules, &tables);
            match &saved {
                Saved::Win(p) => proof::save(p, &rests, &proof_path),
                Saved::Draw(d) => proof::save_draw(d, &rests, &proof_path),
            }
            .with_context(|| proof_path.display().to_string())?;
            (saved, figures)
        }
    };
    let proof = match saved {
        Saved::Win(proof) => proof,
        Saved::Draw(draw) => {
            let t = Instant::now();
            let stats = on_deep_stack("the verification", || {
                proof::verify_draw(&draw, root, &tables).map_err(|(side, e)| {
                    anyhow::anyhow!("{side}'s proof that it holds the draw fails: {e}")
                })
            })
            .with_context(|| format!("{}: the proof does not check", proof_path.display()))?;
            writeln!(out, "position {root}")?;
            writeln!(out, "rules {}", rules.name())?;
            writeln!(
                out,
                "value draw for {}: neither side can force a win (each holds the draw)",
                root.side_to_move()
            )?;
            let game = Bestemshe::new(rules, &tables);
            write_searches_and_trees(out, &game, root, &draw.holds, &stats, &search)?;
            writeln!(
                out,
                "proof {}: checked in {:.1} s (tables {:.1} s{})",
                proof_path.display(),
                t.elapsed().as_secs_f64(),
                tables_time.as_secs_f64(),
                rebuilt_note(rebuild_tables)
            )?;
            return Ok(());
        }
    };
    let search = search.last().map(|f| SearchFigures {
        time: search.iter().map(|f| f.time).sum(),
        ..*f
    });
    let t = Instant::now();
    let stats = verify_deep(&proof, root, &tables)?;
    let verify_time = t.elapsed();
    report(
        out,
        &proof,
        root,
        &tables,
        &stats,
        search,
        &proof_path,
        (tables_time, verify_time, rebuild_tables),
    )?;
    Ok(())
}

/// What the figures line says of tables rebuilt for the check.
fn rebuilt_note(rebuilt: bool) -> &'static str {
    if rebuilt {
        ", rebuilt from scratch, digest as the proof's"
    } else {
        ""
    }
}

/// The rules and tables a saved proof is over.
fn saved_for(saved: &Saved) -> (Rules, usize) {
    match saved {
        Saved::Win(p) => (p.rules, p.table_stones as usize),
        Saved::Draw(d) => (d.rules, d.table_stones as usize),
    }
}

/// [`proof::verify`] on a thread with room for the proof's longest lines.
pub fn verify_deep(proof: &Proof, root: &Toguz, tables: &Tables) -> Result<ProofStats> {
    verify_deep_recording(proof, root, tables, None)
}

/// [`proof::verify_recording`] on a thread with room for the proof's longest lines.
pub fn verify_deep_recording(
    proof: &Proof,
    root: &Toguz,
    tables: &Tables,
    record: Option<&mut std::collections::HashMap<u128, u8>>,
) -> Result<ProofStats> {
    on_deep_stack("the verification", || {
        proof::verify_recording(
            proof,
            root,
            tables,
            &mut |st| {
                eprintln!(
                    "verify: {} positions proven",
                    st.winner_nodes + st.loser_nodes
                )
            },
            record,
        )
    })
    .context("the proof does not check")
}

#[allow(clippy::too_many_arguments)]
fn report(
    out: &mut dyn Write,
    proof: &Proof,
    root: &Toguz,
    tables: &Tables,
    stats: &ProofStats,
    search: Option<SearchFigures>,
    path: &Path,
    (tables_time, verify_time, rebuilt): (std::time::Duration, std::time::Duration, bool),
) -> Result<()> {
    let first = root.side_to_move();
    writeln!(out, "position {root}")?;
    writeln!(out, "rules {}", proof.rules.name())?;
    let verdict = if proof.winner == first {
        "the first player wins"
    } else {
        "the first player loses"
    };
    writeln!(
        out,
        "value {} for {first}: {} wins with best play ({verdict})",
        if proof.winner == first { "win" } else { "loss" },
        proof.winner
    )?;
    writeln!(out, "pv {}", principal_variation(proof, root, tables))?;
    if let Some(f) = search {
        writeln!(
            out,
            "search: {} expansions ({} table leaves, {} game ends) in {:.1} s{}",
            f.nodes,
            f.table_hits,
            f.ends,
            f.time.as_secs_f64(),
            if f.disproved_first {
                format!(", after disproving {}'s win", f.winner.other())
            } else {
                String::new()
            }
        )?;
    }
    writeln!(
        out,
        "proof {}: {} winner moves, {} loser positions, leaves: {} game ends, {} table, \
         {} transpositions; longest line {} plies; checked in {:.1} s (tables {:.1} s{})",
        path.display(),
        stats.winner_nodes,
        stats.loser_nodes,
        stats.ends,
        stats.table_leaves,
        stats.transpositions,
        stats.depth,
        verify_time.as_secs_f64(),
        tables_time.as_secs_f64(),
        rebuilt_note(rebuilt)
    )?;
    Ok(())
}

/// The proof's line where the loser always plays their first legal move: the winner's moves
/// as the proof gives them, up to the first leaf, numbered like a game record.
pub fn principal_variation(proof: &Proof, root: &Toguz, tables: &Tables) -> String {
    let moves = proof::first_line(proof, root, tables);
    crate::games::numbered(root, &moves)
        .trim_start()
        .to_string()
}
