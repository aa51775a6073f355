//! Giuthi from the start by proof search: df-pn ([`crate::tables::proof_search`]) over the
//! opening, this size's retrograde table ([`GiuthiTable`]) deciding every position with few
//! enough seeds on the board.
//!
//! The value solved is the result (win, draw or loss for the side to move): the real game's
//! repetition rule makes a margin depend on the game's history, but not who can force a win,
//! since a side wins only by ending the game normally. A proof of a win never leans on a
//! repetition (a position met again on the line counts as a draw, a win for nobody but the
//! defender), and every table leaf is a result the side to move forces in finite time.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::GiuthiTable;
use crate::games::{Game, Giuthi, Side, Variant};
use crate::tables::proof_search::tree::{self, Goal, ProofStats, ProofTree};
use crate::tables::proof_search::{
    on_deep_stack, packed_key, partial_result, prove_result, ProofGame, SearchFigures,
};
use crate::tables::storage::file_format::{self, Kind, Problem, RestsOn, TablesFrom};
use crate::tables::Decided;

/// Giuthi as the proof search asks it: the game's rules, and a table of the same board size.
#[derive(Clone, Copy)]
pub struct GiuthiProof<'t> {
    /// The solved boards that decide the leaves.
    pub table: &'t GiuthiTable,
}

impl ProofGame for GiuthiProof<'_> {
    type Pos = Giuthi;

    #[inline]
    fn decided(&self, pos: &Giuthi) -> Option<(Decided, bool)> {
        if let Some(fin) = pos.final_result() {
            return Some((Decided::of_final(&fin, pos.side_to_move()), false));
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
        packed_key(pos, 7)
    }
}

/// The proofs of a start position's result: one tree for a win, two for a draw (each side
/// holds it), over the retrograde table of this size up to `table_seeds` seeds on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartProof {
    /// The game whose start is proven.
    pub variant: Variant,
    /// Seeds on the board up to which the table the leaves lean on reaches.
    pub table_seeds: u8,
    /// One tree for a win, two for a draw (one each side).
    pub trees: Vec<ProofTree>,
}

impl StartProof {
    /// The result for South it proves; None when the trees prove neither (a lone draw-holding
    /// tree, say).
    pub fn result(&self) -> Option<Decided> {
        let holds = |side: Side| {
            self.trees
                .iter()
                .any(|t| t.winner == side && t.goal == Goal::Hold)
        };
        if let Some(t) = self.trees.iter().find(|t| t.goal == Goal::Win) {
            return Some(if t.winner == Side::South {
                Decided::Win
            } else {
                Decided::Loss
            });
        }
        (holds(Side::South) && holds(Side::North)).then_some(Decided::Draw)
    }
}

/// The cache file of a start's proof: `giuthi-5x4-20.proof`.
pub fn proof_file(variant: Variant, table_seeds: usize) -> String {
    format!("{variant}-{table_seeds}.proof")
}

/// Writes the proofs in the shared table file format (kind [`Kind::GiuthiProof`]; parameters:
/// holes and seeds a hole as `holes << 4 | seeds`, the table's seeds, the number of trees; the
/// payload: the table they rest on ([`RestsOn`]), then a tree after the other: a byte
/// `winner | hold << 1`, the moves' count (4 bytes), the moves).
pub fn save(proof: &StartProof, rests_on: &RestsOn, path: &Path) -> Result<(), file_format::Error> {
    let Variant::Giuthi { holes, seeds } = proof.variant else {
        panic!("a Giuthi proof of {}", proof.variant)
    };
    let mut payload = RestsOn::encode(std::slice::from_ref(rests_on));
    payload.extend_from_slice(&tree::encode(&proof.trees));
    let params = [
        holes << 4 | seeds,
        proof.table_seeds,
        proof.trees.len() as u8,
    ];
    file_format::write(path, Kind::GiuthiProof, params, &payload)
}

/// Reads proofs written by [`save`], and the table they rest on.
pub fn load(path: &Path) -> Result<(StartProof, RestsOn), file_format::Error> {
    let ([size, table_seeds, count], payload) = file_format::read(path, Kind::GiuthiProof)?;
    let bad = |why: String| file_format::Error::new(path, Problem::Header(why));
    let (holes, seeds) = (size >> 4, size & 15);
    let variant: Variant = format!("giuthi-{holes}x{seeds}").parse().map_err(|_| {
        bad(format!(
            "board {holes}x{seeds}: 5..10 holes a row, 4..9 seeds a hole"
        ))
    })?;
    let (mut tables, payload) = RestsOn::decode(&payload).map_err(bad)?;
    if tables.len() != 1 {
        return Err(bad(format!(
            "a Giuthi proof rests on one table, this one names {}",
            tables.len()
        )));
    }
    let trees = tree::decode(payload, count as usize).map_err(bad)?;
    let proof = StartProof {
        variant,
        table_seeds,
        trees,
    };
    Ok((proof, tables.remove(0)))
}

/// The table a new proof over `table` rests on, with its digest.
pub fn rests_on(table: &GiuthiTable) -> RestsOn {
    RestsOn {
        table: table.name(),
        digest: table.digest(),
    }
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
    let (trees, figures) = prove_result(game, &root, [Side::South, Side::North], log2)?;
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
            .with_context(|| format!("the proof that {} {}", t.winner, t.goal.words()))
        })
        .collect()
}

/// What [`solve_start`] did: the proofs checked over the table, and the figures the solve
/// command prints.
pub struct StartSolved {
    /// The proofs, checked.
    pub proof: StartProof,
    /// What checking each tree found, in the proof's order.
    pub stats: Vec<ProofStats>,
    /// The proof's file.
    pub proof_path: PathBuf,
    /// The table the proofs were checked over.
    pub table: GiuthiTable,
    /// The searches run now, in order (none when the proof was read from its file).
    pub searches: Vec<SearchFigures>,
    /// Building the table.
    pub table_time: Duration,
    /// Checking the proofs.
    pub verify_time: Duration,
}

/// Solves `variant` from the start (`otau solve --game giuthi-<holes>x<seeds>`): the table
/// (built in memory), the saved proof re-checked or a new one searched, saved and checked.
/// Progress on stderr.
pub fn solve_start(variant: Variant, options: &StartOptions) -> Result<StartSolved> {
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
        Ok((p, r)) if p.variant == variant && p.table_seeds as usize == table_seeds => Some((p, r)),
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
    let (proof, searches) = match saved {
        Some((p, rests)) => {
            eprintln!("proof: read {}", path.display());
            // The table is built anew at every run: the digest checks that it is the one the
            // proof was made over.
            file_format::check_digest(&path, &rests, TablesFrom::Rebuilt, table.digest())?;
            (p, Vec::new())
        }
        None => {
            let log2 = (hash_mb.max(1) << 20).ilog2() - 4; // 16-byte entries
            let (proof, figures) = prove_start(&table, variant, log2)?;
            if proof.result().is_none() {
                let game = GiuthiProof { table: &table };
                let root = Giuthi::start(variant);
                bail!("{}", partial_result(&game, &root, &proof.trees));
            }
            std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
            save(&proof, &rests_on(&table), &path).with_context(|| path.display().to_string())?;
            (proof, figures)
        }
    };
    let t = Instant::now();
    let stats = verify_start(&proof, &table)?;
    Ok(StartSolved {
        proof,
        stats,
        proof_path: path,
        table,
        searches,
        table_time,
        verify_time: t.elapsed(),
    })
}
