//! Giuthi from the start by proof search: df-pn ([`crate::tables::proof_search`]) over the
//! opening, this size's retrograde table ([`GiuthiTable`]) deciding every position with few
//! enough seeds on the board.
//!
//! The value solved is the result (win, draw or loss for the side to move): the real game's
//! repetition rule makes a margin depend on the game's history, but not who can force a win,
//! since a side wins only by ending the game normally. A proof of a win never leans on a
//! repetition (a position met again on the line counts as a draw, a win for nobody but the
//! defender), and every table leaf is a result the side to move forces in finite time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::GiuthiTable;
use crate::games::{Game, Giuthi, Outcome, Side, Variant};
use crate::tables::file::{self, Kind, Problem};
use crate::tables::proof_search::dfpn::{Dfpn, SearchStats};
use crate::tables::proof_search::tree::{self, Goal, ProofStats, ProofTree};
use crate::tables::proof_search::{on_deep_stack, ProofGame, SearchFigures};

/// Giuthi as the proof search asks it: the game's rules, and a table of the same board size.
#[derive(Clone, Copy)]
pub struct GiuthiProof<'t> {
    pub table: &'t GiuthiTable,
}

impl ProofGame for GiuthiProof<'_> {
    type Pos = Giuthi;

    #[inline]
    fn decided(&self, pos: &Giuthi) -> Option<(i32, bool)> {
        if let Some(fin) = pos.final_result() {
            let me = pos.side_to_move();
            let w = match fin.outcome {
                Outcome::Win(s) if s == me => 1,
                Outcome::Win(_) => -1,
                Outcome::Draw => 0,
            };
            return Some((w, false));
        }
        self.table.result(pos).map(|w| (w, true))
    }

    /// Ahead means the piles, and half as much the seeds on one's own row, which count at the
    /// end and are what one plays with.
    fn initial_numbers(&self, pos: &Giuthi) -> (u32, u32) {
        let me = pos.side_to_move();
        let row = |s: Side| pos.row(s).iter().map(|&x| x as i32).sum::<i32>();
        let lead =
            2 * (pos.store(me) as i32 - pos.store(me.other()) as i32) + row(me) - row(me.other());
        let scale = |x: i32| 1 + (x.clamp(0, 80) / 4) as u32;
        (scale(-lead), scale(lead))
    }

    /// Holes of 7 bits (a board of up to 6 holes a row holds at most 108 seeds), the piles,
    /// the side to move.
    fn exact_key(&self, pos: &Giuthi) -> u128 {
        assert!(pos.holes() <= 6, "exact keys of boards up to 6 holes a row");
        let mut k = 0u128;
        for side in Side::BOTH {
            for &x in pos.row(side) {
                k = k << 7 | x as u128;
            }
        }
        k = k << 8 | pos.store(Side::South) as u128;
        k = k << 8 | pos.store(Side::North) as u128;
        k << 1 | (pos.side_to_move() == Side::North) as u128
    }
}

/// The proofs of a start position's result: one tree for a win, two for a draw (each side
/// holds it), over the retrograde table of this size up to `table_seeds` seeds on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartProof {
    pub variant: Variant,
    pub table_seeds: u8,
    pub trees: Vec<ProofTree>,
}

impl StartProof {
    /// The result for South it proves: 1 South wins, -1 North wins, 0 a draw; None when the
    /// trees prove neither (a lone draw-holding tree, say).
    pub fn result(&self) -> Option<i32> {
        let holds = |side: Side| {
            self.trees
                .iter()
                .any(|t| t.winner == side && t.goal == Goal::Hold)
        };
        if let Some(t) = self.trees.iter().find(|t| t.goal == Goal::Win) {
            return Some(if t.winner == Side::South { 1 } else { -1 });
        }
        (holds(Side::South) && holds(Side::North)).then_some(0)
    }
}

/// The cache file of a start's proof: `giuthi-5x4-20.proof`.
pub fn proof_file(variant: Variant, table_seeds: usize) -> String {
    format!("{variant}-{table_seeds}.proof")
}

/// Writes the proofs in the shared table file format (kind [`Kind::GiuthiProof`]; parameters:
/// holes and seeds a hole as `holes << 4 | seeds`, the table's seeds, the number of trees; the
/// payload a tree after the other: a byte `winner | hold << 1`, the moves' count (4 bytes), the
/// moves).
pub fn save(proof: &StartProof, path: &Path) -> Result<(), file::Error> {
    let Variant::Giuthi { holes, seeds } = proof.variant else {
        panic!("a Giuthi proof of {}", proof.variant)
    };
    let mut payload = Vec::new();
    for t in &proof.trees {
        payload.push(t.winner.index() as u8 | ((t.goal == Goal::Hold) as u8) << 1);
        payload.extend_from_slice(&(t.moves.len() as u32).to_le_bytes());
        payload.extend_from_slice(&t.moves);
    }
    let params = [
        holes << 4 | seeds,
        proof.table_seeds,
        proof.trees.len() as u8,
    ];
    file::write(path, Kind::GiuthiProof, params, &payload)
}

/// Reads proofs written by [`save`].
pub fn load(path: &Path) -> Result<StartProof, file::Error> {
    let ([size, table_seeds, count], payload) = file::read(path, Kind::GiuthiProof)?;
    let bad = |why: String| file::Error::new(path, Problem::Header(why));
    let (holes, seeds) = (size >> 4, size & 15);
    let variant: Variant = format!("giuthi-{holes}x{seeds}").parse().map_err(|_| {
        bad(format!(
            "board {holes}x{seeds}: 5..10 holes a row, 4..9 seeds a hole"
        ))
    })?;
    let mut trees = Vec::new();
    let mut at = 0;
    for i in 0..count {
        let head = payload
            .get(at..at + 5)
            .ok_or_else(|| bad(format!("tree {} of {count} is missing", i + 1)))?;
        let (flags, len) = (
            head[0],
            u32::from_le_bytes(head[1..5].try_into().unwrap()) as usize,
        );
        if flags > 3 {
            return Err(bad(format!("tree {}: flags {flags}: 0..=3", i + 1)));
        }
        at += 5;
        let moves = payload
            .get(at..at + len)
            .ok_or_else(|| bad(format!("tree {}: {len} moves, past the file's end", i + 1)))?;
        at += len;
        trees.push(ProofTree {
            goal: if flags & 2 != 0 {
                Goal::Hold
            } else {
                Goal::Win
            },
            winner: if flags & 1 != 0 {
                Side::North
            } else {
                Side::South
            },
            moves: moves.to_vec(),
        });
    }
    if at != payload.len() {
        return Err(bad(format!("{} bytes after the trees", payload.len() - at)));
    }
    Ok(StartProof {
        variant,
        table_seeds,
        trees,
    })
}

/// What `otau solve --game giuthi-<holes>x<seeds>` (the start) is asked.
pub struct StartOptions {
    /// Seeds on the board up to which the retrograde table reaches.
    pub table_seeds: usize,
    /// The proof search's transposition table, in MiB.
    pub hash_mb: usize,
    /// Where the proof is kept (the cache directory by default).
    pub dir: PathBuf,
    /// Check the saved proof only (never search).
    pub verify_only: bool,
}

/// The seeds on the board the start solve's table reaches by default: the most the solver
/// takes on a 5-hole board ([`super::MAX_BOARD_SEEDS`]).
pub const DEFAULT_TABLE_SEEDS: usize = super::MAX_BOARD_SEEDS;

/// Proves the result of `variant`'s start over `table` (of the same holes a row: on 5 holes the
/// rules do not depend on the seeds a hole had at the start, so one table serves every size):
/// for South, then North, a df-pn search for the win; a win proven is extracted as the proof, a
/// win disproven as the defender's proof that they hold the draw. Progress on stderr.
pub fn prove_start(
    table: &GiuthiTable,
    variant: Variant,
    log2: u32,
) -> Result<(StartProof, Vec<SearchFigures>)> {
    assert_eq!(
        variant.holes(),
        table.variant().holes(),
        "a table of another board"
    );
    let root = Giuthi::start(variant);
    let game = GiuthiProof { table };
    let mut trees = Vec::new();
    let mut figures = Vec::new();
    for attacker in [Side::South, Side::North] {
        let (tree, f) = on_deep_stack("the search", || {
            let started = Instant::now();
            let progress = Box::new(move |st: &SearchStats| {
                eprintln!(
                    "search ({attacker} to win): {} expansions, {} table leaves, {} ends, \
                     line {} (longest {}), {:.0} s",
                    st.nodes,
                    st.table_hits,
                    st.ends,
                    st.line,
                    st.longest,
                    started.elapsed().as_secs_f64()
                )
            });
            let mut search = Dfpn::new(game, attacker, log2, progress);
            let won = search.solve(&root);
            let goal = if won { Goal::Win } else { Goal::Hold };
            eprintln!(
                "search: {attacker}'s win {} in {} expansions; extracting the proof tree",
                if won { "proven" } else { "disproven" },
                search.stats.nodes
            );
            let tree = tree::extract(&mut search, &root, goal)?;
            let f = SearchFigures {
                winner: attacker,
                nodes: search.stats.nodes,
                table_hits: search.stats.table_hits,
                ends: search.stats.ends,
                time: started.elapsed(),
                disproved_first: !won,
            };
            Ok::<_, anyhow::Error>((tree, f))
        })?;
        let won = tree.goal == Goal::Win;
        trees.push(tree);
        figures.push(f);
        if won {
            trees.retain(|t| t.goal == Goal::Win);
            break;
        }
    }
    let proof = StartProof {
        variant,
        table_seeds: table.max_seeds() as u8,
        trees,
    };
    Ok((proof, figures))
}

/// Checks every tree of `proof` from the start of its board over `table` (on a thread with room
/// for long lines).
pub fn verify_start(proof: &StartProof, table: &GiuthiTable) -> Result<Vec<ProofStats>> {
    let root = Giuthi::start(proof.variant);
    let game = GiuthiProof { table };
    proof
        .trees
        .iter()
        .map(|t| {
            on_deep_stack("the verification", || {
                tree::verify(&game, t, &root, &mut |_| {}, None)
            })
            .with_context(|| format!("the proof that {} {}", t.winner, goal_words(t.goal)))
        })
        .collect()
}

fn goal_words(goal: Goal) -> &'static str {
    match goal {
        Goal::Win => "wins",
        Goal::Hold => "holds the draw",
    }
}

/// `otau solve --game giuthi-<holes>x<seeds>` from the start: the table (built in memory), the
/// saved proof re-checked or a new one searched, saved and checked; the result on `out`.
pub fn run(variant: Variant, options: &StartOptions, out: &mut dyn Write) -> Result<()> {
    let StartOptions {
        table_seeds,
        hash_mb,
        ref dir,
        verify_only,
    } = *options;
    super::fits(variant, table_seeds)?;
    if variant.holes() > 6 {
        bail!("{variant}: the start solve takes boards of up to 6 holes a row");
    }
    let path = dir.join(proof_file(variant, table_seeds));
    let saved = match load(&path) {
        Ok(p) if p.variant == variant && p.table_seeds as usize == table_seeds => Some(p),
        Ok(_) => bail!("{} is a proof of another board or table", path.display()),
        Err(e) if e.is_missing() => None,
        Err(e) => return Err(e).context("the saved proof"),
    };
    if saved.is_none() && verify_only {
        bail!("no proof to verify: {} is missing", path.display());
    }
    let started = Instant::now();
    let table = GiuthiTable::for_seeds(variant, table_seeds, true)?;
    let table_time = started.elapsed();
    let (proof, figures) = match saved {
        Some(p) => {
            eprintln!("proof: read {}", path.display());
            (p, Vec::new())
        }
        None => {
            let log2 = (hash_mb.max(1) << 20).ilog2() - 4; // 16-byte entries
            let (proof, figures) = prove_start(&table, variant, log2)?;
            std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
            save(&proof, &path).with_context(|| path.display().to_string())?;
            (proof, figures)
        }
    };
    let t = Instant::now();
    let stats = verify_start(&proof, &table)?;
    let verify_time = t.elapsed();
    let root = Giuthi::start(variant);
    writeln!(out, "position {root}")?;
    match proof.result() {
        Some(0) => writeln!(
            out,
            "value draw for south: neither side can force a win (each holds the draw, by \
             repetition if need be)"
        )?,
        Some(r) => {
            let w = if r > 0 { Side::South } else { Side::North };
            writeln!(
                out,
                "value {} for south: {w} wins with best play",
                if r > 0 { "win" } else { "loss" }
            )?
        }
        None => bail!("{}: the trees prove no result", path.display()),
    }
    for f in &figures {
        writeln!(
            out,
            "search {} to win: {} in {} expansions ({} table leaves, {} game ends), {:.1} s",
            f.winner,
            if f.disproved_first {
                "disproven"
            } else {
                "proven"
            },
            f.nodes,
            f.table_hits,
            f.ends,
            f.time.as_secs_f64()
        )?;
    }
    let game = GiuthiProof { table: &table };
    for (t, st) in proof.trees.iter().zip(&stats) {
        let line = tree::first_line(&game, t, &root);
        writeln!(
            out,
            "proof that {} {}: {} prover moves, {} opponent positions, leaves: {} game ends, \
             {} table, {} repetitions, {} transpositions; longest line {} plies",
            t.winner,
            goal_words(t.goal),
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
            crate::tables::command::numbered(&root, &line).trim_start()
        )?;
    }
    writeln!(
        out,
        "proof {}: checked in {:.1} s (table of {table_seeds} seeds: {:.1} s)",
        path.display(),
        verify_time.as_secs_f64(),
        table_time.as_secs_f64()
    )?;
    Ok(())
}
