//! `otau solve` from a game's start, by proof search: Bestemshe ([`crate::tables::bestemshe`])
//! and Giuthi's small boards ([`crate::tables::giuthi::prove`]); the result, the searches' and
//! the proofs' figures as the binary prints them (progress goes to stderr from the library).

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Result};

use crate::games::{Game, Giuthi, Side, Toguz, Variant};
use crate::tables::bestemshe::proof::{Proof, ProofStats};
use crate::tables::bestemshe::solve::{self, principal_variation, Checked, SolveOptions};
use crate::tables::bestemshe::Bestemshe;
use crate::tables::giuthi::prove::{self, GiuthiProof, StartOptions};
use crate::tables::proof_search::tree::{self, ProofTree};
use crate::tables::proof_search::{ProofGame, SearchFigures};
use crate::tables::toguz::{Tables, WIDE_STONES_LIMIT};
use crate::tables::Decided;

/// `otau solve --game bestemshe`.
pub fn solve_bestemshe(options: &SolveOptions, out: &mut dyn Write) -> Result<()> {
    solve_bestemshe_from(options, &Toguz::start(Variant::BESTEMSHE), out)
}

/// [`solve_bestemshe`] from `root` instead of the start (tests prove positions that solve in
/// seconds): the options checked, the solve ([`solve::solve_from`]), its result and figures.
pub fn solve_bestemshe_from(
    options: &SolveOptions,
    root: &Toguz,
    out: &mut dyn Write,
) -> Result<()> {
    let table_stones = options.table_stones;
    if !(2..=WIDE_STONES_LIMIT).contains(&table_stones) {
        bail!("--table-stones {table_stones}: 2..={WIDE_STONES_LIMIT}");
    }
    if options.rebuild_tables && !options.verify_only {
        bail!("--rebuild-tables checks a saved proof: give --verify too");
    }
    let solved = solve::solve_from(options, root)?;
    let rules = options.rules;
    let (proof, stats) = match solved.checked {
        Checked::Win { proof, stats } => (proof, stats),
        Checked::Draw { draw, stats } => {
            writeln!(out, "position {root}")?;
            writeln!(out, "rules {}", rules.name())?;
            writeln!(
                out,
                "value draw for {}: neither side can force a win (each holds the draw)",
                root.side_to_move()
            )?;
            let game = Bestemshe::new(rules, &solved.tables);
            write_searches_and_trees(out, &game, root, &draw.holds, &stats, &solved.searches)?;
            writeln!(
                out,
                "proof {}: checked in {:.1} s (tables {:.1} s{})",
                solved.proof_path.display(),
                solved.verify_time.as_secs_f64(),
                solved.tables_time.as_secs_f64(),
                rebuilt_note(options.rebuild_tables)
            )?;
            return Ok(());
        }
    };
    let search = solved.searches.last().map(|f| SearchFigures {
        time: solved.searches.iter().map(|f| f.time).sum(),
        ..*f
    });
    report(
        out,
        &proof,
        root,
        &solved.tables,
        &stats,
        search,
        &solved.proof_path,
        (
            solved.tables_time,
            solved.verify_time,
            options.rebuild_tables,
        ),
    )
}

/// What the figures line says of tables rebuilt for the check.
fn rebuilt_note(rebuilt: bool) -> &'static str {
    if rebuilt {
        ", rebuilt from scratch, digest as the proof's"
    } else {
        ""
    }
}

/// A proven win's lines: the position, the rules, the value, the proof's line, the search's and
/// the check's figures.
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

/// `otau solve --game giuthi-<holes>x<seeds>` from the start: the solve
/// ([`prove::solve_start`]), its result and figures.
pub fn solve_giuthi_start(
    variant: Variant,
    options: &StartOptions,
    out: &mut dyn Write,
) -> Result<()> {
    let solved = prove::solve_start(variant, options)?;
    let path = &solved.proof_path;
    let root = Giuthi::start(variant);
    writeln!(out, "position {root}")?;
    match solved.proof.result() {
        Some(Decided::Draw) => writeln!(
            out,
            "value draw for south: neither side can force a win (each holds the draw, by \
             repetition if need be)"
        )?,
        Some(r) => {
            let w = if r == Decided::Win {
                Side::South
            } else {
                Side::North
            };
            writeln!(out, "value {} for south: {w} wins with best play", r.word())?
        }
        None => bail!("{}: the trees prove no result", path.display()),
    }
    write_searches_and_trees(
        out,
        &GiuthiProof {
            table: &solved.table,
        },
        &root,
        &solved.proof.trees,
        &solved.stats,
        &solved.searches,
    )?;
    writeln!(
        out,
        "proof {}: checked in {:.1} s (table of {} seeds: {:.1} s)",
        path.display(),
        solved.verify_time.as_secs_f64(),
        options.table_seeds,
        solved.table_time.as_secs_f64()
    )?;
    Ok(())
}

/// The lines the solve commands print for their searches and proofs: each search's outcome and
/// figures, then each tree's figures and its first line (the opponent's first legal move at each
/// of their turns).
fn write_searches_and_trees<G: ProofGame>(
    out: &mut dyn std::io::Write,
    game: &G,
    root: &G::Pos,
    trees: &[ProofTree],
    stats: &[ProofStats],
    figures: &[SearchFigures],
) -> std::io::Result<()> {
    for f in figures {
        writeln!(
            out,
            "search {} to win: {} in {} expansions ({} table leaves, {} game ends), {:.1} s",
            f.winner,
            if f.proven { "proven" } else { "disproven" },
            f.nodes,
            f.table_hits,
            f.ends,
            f.time.as_secs_f64()
        )?;
    }
    for (t, st) in trees.iter().zip(stats) {
        let line = tree::first_line(game, t, root);
        writeln!(
            out,
            "proof that {} {}: {} prover moves, {} opponent positions, leaves: {} game ends, \
             {} table, {} repetitions, {} transpositions; longest line {} plies",
            t.winner,
            t.goal.words(),
            st.winner_nodes,
            st.loser_nodes,
            st.ends,
            st.table_leaves,
            st.repetitions,
            st.transpositions,
            st.depth
        )?;
        writeln!(
            out,
            "  line (the opponent's first move each turn): {}",
            crate::games::numbered(root, &line).trim_start()
        )?;
    }
    Ok(())
}
