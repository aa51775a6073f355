//! Bestemshe solved from the start (`otau solve --game bestemshe`, whose output is
//! `crate::cli`'s): the endgame tables (built once and cached), the proof search deepened from
//! the start until the root is proven, the proof tree extracted, saved and re-checked by the
//! verifier; progress on stderr.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::proof::{self, DrawProof, Proof, ProofStats, Saved};
use super::{Bestemshe, Rules};
use crate::games::{Side, Toguz, Variant};
use crate::tables::proof_search::tree::Goal;
use crate::tables::proof_search::{self, on_deep_stack, SearchFigures};
use crate::tables::storage::file_format::{self, RestsOn, TablesFrom};
use crate::tables::toguz::Tables;

/// Stones on the board up to which the solve's endgame tables reach by default: 272 million
/// positions, about 8 minutes and 11 GB to build, 544 MB on disk (measured, see the README).
pub const DEFAULT_TABLE_STONES: usize = 28;

/// What a solve of Bestemshe is asked (`otau solve --game bestemshe`'s options).
pub struct SolveOptions {
    /// The rules to solve under.
    pub rules: Rules,
    /// Stones on the board up to which the endgame tables reach (see [`DEFAULT_TABLE_STONES`]).
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

/// A proof from a root, read or found, and checked: a win (one tree), or a draw (each side's
/// proof that it holds it), with what each check found.
pub enum Checked {
    /// The start is won.
    Win {
        /// The proof of the win.
        proof: Proof,
        /// What checking it found.
        stats: ProofStats,
    },
    /// The start is a draw.
    Draw {
        /// Each side's proof that it holds the draw.
        draw: DrawProof,
        /// What checking each proof found, in the proof's order.
        stats: Vec<ProofStats>,
    },
}

/// What [`solve_from`] did: the proof checked over the tables, and the figures the solve
/// command prints.
pub struct Solved {
    /// The proof and what checking it found.
    pub checked: Checked,
    /// The proof's file.
    pub proof_path: PathBuf,
    /// The endgame tables the proof was checked over.
    pub tables: Tables,
    /// The searches run now, in order (none when the proof was read from its file).
    pub searches: Vec<SearchFigures>,
    /// Reading (or building) the tables.
    pub tables_time: Duration,
    /// Checking the proof.
    pub verify_time: Duration,
}

/// Solves Bestemshe from `root` (the start, for `otau solve --game bestemshe`; the proof file
/// does not say its root: tests prove positions that solve in seconds) under
/// `options.table_stones` (in 2..=[`crate::tables::toguz::WIDE_STONES_LIMIT`]).
///
/// A saved proof is read first (so that a missing or refused one is said before the tables,
/// which may take 10 minutes to build), then the tables: from the cache or, with
/// `rebuild_tables`, rebuilt in memory; their digest must be the one the proof rests on
/// ([`file_format::check_digest`]) before the proof is replayed over them. Without a saved
/// proof (and not `verify_only`), the proof search finds one and saves it. Either way the
/// proof is checked over the tables. Progress on stderr.
pub fn solve_from(options: &SolveOptions, root: &Toguz) -> Result<Solved> {
    let SolveOptions {
        rules,
        table_stones,
        hash_mb,
        ref dir,
        verify_only,
        rebuild_tables,
    } = *options;
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
    let (saved, searches) = match saved {
        Some((p, rests)) => {
            eprintln!("proof: read {}", proof_path.display());
            file_format::check_digest(&proof_path, &rests, from, tables.digest())?;
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
    let t = Instant::now();
    let checked = match saved {
        Saved::Win(proof) => {
            let stats = verify_deep(&proof, root, &tables)?;
            Checked::Win { proof, stats }
        }
        Saved::Draw(draw) => {
            let stats = on_deep_stack("the verification", || {
                proof::verify_draw(&draw, root, &tables).map_err(|(side, e)| {
                    anyhow::anyhow!("{side}'s proof that it holds the draw fails: {e}")
                })
            })
            .with_context(|| format!("{}: the proof does not check", proof_path.display()))?;
            Checked::Draw { draw, stats }
        }
    };
    Ok(Solved {
        checked,
        proof_path,
        tables,
        searches,
        tables_time,
        verify_time: t.elapsed(),
    })
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

/// The proof's line where the loser always plays their first legal move: the winner's moves
/// as the proof gives them, up to the first leaf, numbered like a game record.
pub fn principal_variation(proof: &Proof, root: &Toguz, tables: &Tables) -> String {
    let moves = proof::first_line(proof, root, tables);
    crate::games::numbered(root, &moves)
        .trim_start()
        .to_string()
}
