//! How the engine plays Bestemshe once it is solved: the proof's moves where the proof has the
//! position, and where the endgame tables decide a win, a move of a fresh proof that has to
//! reach a smaller board (so the win is forced, not promised for ever round a cycle).
//!
//! The solution is `otau solve --game bestemshe`'s output in the cache directory (the tables of
//! [`DEFAULT_TABLE_STONES`] stones and the proof, otau's rules). It is read on a thread of its
//! own (the tables are 544 MB), the proof re-checked on the way in; a search on a clock never
//! waits for it.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use anyhow::Result;

use super::proof::{self, exact_key, Proof};
use super::solve::{proof_file, table_file, verify_deep_recording, DEFAULT_TABLE_STONES};
use super::{decided, Bestemshe, Rules, TableProbe};
use crate::games::{Game, Move, Toguz, Variant};
use crate::tables::probe::Solved;
use crate::tables::storage::file_format::{self, TablesFrom};
use crate::tables::storage::slot::Slot;
use crate::tables::toguz::Tables;
use crate::tables::Decided;

/// Expansions a move's progress proof may take (a few tenths of a second).
const PROGRESS_BUDGET: u64 = 200_000;

/// Bestemshe's solution as the engine uses it.
pub struct Solution {
    /// The endgame tables the proof rests on, which play also probes.
    pub tables: Tables,
    /// The proof of the start's result.
    pub proof: Proof,
    /// The proof's move at every position of its tree with the winner to move.
    winner_moves: HashMap<u128, u8>,
    /// Moves of the progress proofs found in play, followed until their game ends (a proof
    /// followed to its end ends the game; fresh proofs at every move might not).
    progress: Mutex<HashMap<u128, u8>>,
}

static SOLUTION: Slot<Solution> = Slot::new();

/// The tables as the progress proofs see them: only positions with fewer stones on the board
/// than `stones` are decided, so a proof has to reach one by captures.
struct Below<'t> {
    tables: &'t Tables,
    stones: u32,
}

impl TableProbe for Below<'_> {
    fn decide(&self, pos: &Toguz) -> Option<Decided> {
        if pos.board_stones() < self.stones {
            self.tables.decide(pos)
        } else {
            None
        }
    }
}

/// Why [`Solution::read`] gave no solution.
pub struct Unread {
    /// What was wrong: None when the files are simply not there (the game is not solved here).
    pub why: Option<String>,
    /// The tables, when they were sound and only the proof was missing or refused: kept for the
    /// search, not dropped with the proof.
    pub tables: Option<Tables>,
}

impl Solution {
    /// Reads the solution over tables of `stones` (the engine's: [`DEFAULT_TABLE_STONES`]) from
    /// `dir` and re-checks its proof.
    pub fn read(dir: &Path, stones: usize) -> Result<Solution, Unread> {
        let table_path = dir.join(table_file(Rules::Otau, stones));
        let tables = match Tables::load(&table_path) {
            Ok(t) => t,
            Err(e) => {
                let why = (!e.is_missing()).then(|| e.to_string());
                return Err(Unread { why, tables: None });
            }
        };
        let path = dir.join(proof_file(Rules::Otau, stones));
        let (proof, rests_on) = match proof::load(&path) {
            Ok(p) => p,
            Err(e) => {
                let why = (!e.is_missing()).then(|| e.to_string());
                return Err(Unread {
                    why,
                    tables: Some(tables),
                });
            }
        };
        if proof.rules != Rules::Otau || proof.table_stones as usize != tables.max_stones() {
            return Err(Unread {
                why: Some(format!(
                    "{} is not a proof over these tables",
                    path.display()
                )),
                tables: Some(tables),
            });
        }
        // The tables' checksum catches damage, not a changed entry re-summed: the proof's
        // digest of them does.
        let from = TablesFrom::File(table_path);
        if let Err(e) = file_format::check_digest(&path, &rests_on, from, tables.digest()) {
            return Err(Unread {
                why: Some(e.to_string()),
                tables: Some(tables),
            });
        }
        Solution::verified(tables, proof, &Toguz::start(Variant::BESTEMSHE)).map_err(
            |(e, tables)| Unread {
                why: Some(format!(
                    "{}: the proof does not hold: {e:#}",
                    path.display()
                )),
                tables: Some(tables),
            },
        )
    }

    /// [`Solution::from_parts`], giving the tables back when the proof fails.
    fn verified(
        tables: Tables,
        proof: Proof,
        root: &Toguz,
    ) -> Result<Solution, (anyhow::Error, Tables)> {
        let mut winner_moves = HashMap::new();
        if let Err(e) = verify_deep_recording(&proof, root, &tables, Some(&mut winner_moves)) {
            return Err((e, tables));
        }
        Ok(Solution {
            tables,
            proof,
            winner_moves,
            progress: Mutex::new(HashMap::new()),
        })
    }

    /// The solution of a proof from `root` over `tables`, its proof re-checked.
    pub fn from_parts(tables: Tables, proof: Proof, root: &Toguz) -> Result<Solution> {
        Solution::verified(tables, proof, root).map_err(|(e, _)| e)
    }

    /// The solution of this process, read from the cache directory on the first call (None
    /// when it is not there, or tables are turned off by `OTAU_NO_TABLES`).
    pub fn get() -> Option<&'static Solution> {
        SOLUTION.get_or_load(|| {
            if std::env::var_os("OTAU_NO_TABLES").is_some() {
                return None;
            }
            let unread =
                match Solution::read(&crate::tables::usable_cache_dir()?, DEFAULT_TABLE_STONES) {
                    Ok(s) => return Some(s),
                    Err(u) => u,
                };
            // Sound tables stay in use without their proof (the Toguz slot of Bestemshe is
            // empty as long as this runs first: see `Probe::prepare_tables` for Toguz).
            let kept = unread
                .tables
                .is_some_and(|t| crate::tables::toguz::install(t).is_ok());
            if let Some(why) = unread.why {
                crate::tables::report_problem(if kept {
                    format!("{why}; playing Bestemshe with its tables, without the proof")
                } else {
                    format!("{why}; playing Bestemshe without its solution")
                });
            }
            None
        })
    }

    /// The solution if its read is over and found it: never waits.
    pub fn loaded() -> Option<&'static Solution> {
        SOLUTION.loaded()
    }

    /// Whether the first read is over.
    pub fn is_read() -> bool {
        SOLUTION.is_read()
    }

    /// The perfect move of a position the solution decides a win for the side to move: the
    /// proof's, or a progress proof's. None elsewhere (the loser's moves, undecided positions
    /// off the proof): the engine searches there, with the tables.
    pub fn best(&self, pos: &Toguz) -> Option<Solved> {
        let key = exact_key(pos);
        let hole = match self.winner_moves.get(&key) {
            Some(&hole) => hole,
            None => self.progress_move(pos, key)?,
        };
        let best = Move::hole(hole as usize);
        Some(Solved {
            best,
            margin: 0,
            decided: Some(Decided::Win),
            pv: self.line(pos),
        })
    }

    /// A table-won position's move: from a proof (followed if one is under way) that must reach
    /// a smaller board, found within [`PROGRESS_BUDGET`].
    fn progress_move(&self, pos: &Toguz, key: u128) -> Option<u8> {
        if decided(Rules::Otau, &self.tables, pos) != Some((Decided::Win, true)) {
            return None;
        }
        let mut memo = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&hole) = memo.get(&key) {
            return Some(hole);
        }
        let below = Below {
            tables: &self.tables,
            stones: pos.board_stones(),
        };
        let mut search =
            Bestemshe::new(Rules::Otau, &below).search(pos.side_to_move(), 16, Box::new(|_| {}));
        search.set_budget(PROGRESS_BUDGET);
        if search.solve_within(pos) != Some(true) {
            return None;
        }
        let proof = proof::extract(&mut search, pos, 0).ok()?;
        let mut moves = HashMap::new();
        proof::verify_recording(&proof, pos, &below, &mut |_| {}, Some(&mut moves)).ok()?;
        let hole = *moves.get(&key)?;
        memo.extend(moves);
        Some(hole)
    }

    /// The solution's line from `pos`: the winner's known moves, the loser's first, up to 32
    /// plies or the first position it has no move for.
    fn line(&self, pos: &Toguz) -> Vec<Move> {
        let mut line = Vec::new();
        let mut p = *pos;
        let winner = pos.side_to_move();
        let memo = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        while line.len() < 32 && p.final_result().is_none() {
            let mv = if p.side_to_move() == winner {
                let key = exact_key(&p);
                match self.winner_moves.get(&key).or_else(|| memo.get(&key)) {
                    Some(&hole) => Move::hole(hole as usize),
                    None => break,
                }
            } else {
                match p.legal_moves().iter().next() {
                    Some(&mv) => mv,
                    None => break,
                }
            };
            line.push(mv);
            p.play(mv);
        }
        line
    }
}
