//! The Modiar table, checked three independent ways: a naive re-solve of the small boards from the
//! simple rules implementation, a plain alpha-beta search to the end of the game on a sample of
//! positions, and the stated invariants over every entry. Then the engine side: the table's moves
//! secure the value against any opponent.
//!
//! Building the table takes seconds in release and much longer without optimisation, so these
//! tests run under `cargo test --release` (what CI runs) and are ignored in debug builds.

use std::collections::HashMap;

use otau::games::modiar::{analyse, Board, HoleStatus};
use otau::games::{AnyGame, EndReason, Game, GameLine, Modiar, Move, Side, Variant};
use otau::tables::modiar::{ModiarEntry, ModiarTable, POSITIONS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::reference;
use crate::support::ugi;
use reference::modiar::Simple;

mod engine_moves;

fn table() -> &'static ModiarTable {
    crate::modiar_table()
}

fn pos(text: &str) -> Modiar {
    match AnyGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        AnyGame::Modiar(m) => m,
        other => panic!("not modiar: {other}"),
    }
}

/// A position string for a board given from the mover's point of view.
fn position_of(board: &[u32; 6], side: Side, rng: &mut ChaCha8Rng) -> Modiar {
    let n: u32 = board.iter().sum();
    let south_pile = 2 * rng.gen_range(0..=(42 - n) / 2);
    let (s, o) = (&board[..3], &board[3..]);
    let (south, north) = match side {
        Side::South => (s, o),
        Side::North => (o, s),
    };
    let text = format!(
        "modiar {},{},{}/{},{},{} {south_pile}/{} {} 9",
        south[0],
        south[1],
        south[2],
        north[0],
        north[1],
        north[2],
        42 - n - south_pile,
        side.letter()
    );
    pos(&text)
}

fn random_board(rng: &mut ChaCha8Rng, stones: u32) -> [u32; 6] {
    let mut b = [0u32; 6];
    for _ in 0..stones {
        b[rng.gen_range(0..6)] += 1;
    }
    b
}

fn boards_of(n: u32) -> Vec<[u32; 6]> {
    let mut out = Vec::new();
    for a in 0..=n {
        for b in 0..=n - a {
            for c in 0..=n - a - b {
                for d in 0..=n - a - b - c {
                    for e in 0..=n - a - b - c - d {
                        out.push([a, b, c, d, e, n - a - b - c - d - e]);
                    }
                }
            }
        }
    }
    out
}

fn as_board(b: &[u32; 6]) -> Board {
    b.map(|x| x as u8)
}

fn own_rows(b: &[u32; 6]) -> i32 {
    (b[0] + b[1] + b[2]) as i32 - (b[3] + b[4] + b[5]) as i32
}

// ---------------------------------------------------------------------------------------------
// 1. A naive re-solve from the simple rules: every board of up to NAIVE_STONES stones from
//    scratch, and the stone counts where unforced entries live.

const NAIVE_STONES: u32 = 16;

/// The moves of a mover-relative board: (captured, the child from the opponent's point of view).
fn simple_moves(b: &[u32; 6]) -> Vec<(i32, [u32; 6])> {
    let s = Simple {
        holes: *b,
        piles: [0, 0],
        mover: 0,
        first: false,
    };
    s.moves()
        .into_iter()
        .map(|(_, c)| {
            let h = c.holes;
            (c.piles[0] as i32, [h[3], h[4], h[5], h[0], h[1], h[2]])
        })
        .collect()
}

/// The boards of one stone count, each with its moves, numbered by position in `boards`.
struct NaiveLayer {
    n: i32,
    boards: Vec<[u32; 6]>,
    /// (captured, child board from the opponent's point of view)
    moves: Vec<Vec<(i32, [u32; 6])>>,
    /// For each capture-free move (in the order of `moves`), the child's number.
    slots: Vec<Vec<usize>>,
}

impl NaiveLayer {
    fn new(n: u32) -> NaiveLayer {
        let boards = boards_of(n);
        let slot: HashMap<[u32; 6], usize> =
            boards.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let moves: Vec<Vec<(i32, [u32; 6])>> = boards.iter().map(simple_moves).collect();
        let slots = moves
            .iter()
            .map(|m| {
                m.iter()
                    .filter(|(c, _)| *c == 0)
                    .map(|(_, child)| slot[child])
                    .collect()
            })
            .collect();
        NaiveLayer {
            n: n as i32,
            boards,
            moves,
            slots,
        }
    }

    /// Sweeps `lower = max(exit_lo, -upper(child))`, `upper = max(exit_hi, -lower(child))` until
    /// nothing changes, from `-n`/`+n`; `exit` gives a capture's (lo, hi) worth.
    fn bounds(&self, exit: impl Fn(i32, &[u32; 6]) -> (i32, i32)) -> Vec<(i32, i32)> {
        let mut bounds: Vec<(i32, i32)> = self
            .boards
            .iter()
            .zip(&self.moves)
            .map(|(b, m)| {
                if m.is_empty() {
                    (own_rows(b), own_rows(b))
                } else {
                    (-self.n, self.n)
                }
            })
            .collect();
        loop {
            let mut changed = false;
            for i in 0..self.boards.len() {
                if self.moves[i].is_empty() {
                    continue;
                }
                let (mut lo, mut hi) = (i32::MIN, i32::MIN);
                for (captured, child) in self.moves[i].iter().filter(|(c, _)| *c > 0) {
                    let (l, h) = exit(*captured, child);
                    lo = lo.max(l);
                    hi = hi.max(h);
                }
                for &j in &self.slots[i] {
                    let (cl, ch) = bounds[j];
                    lo = lo.max(-ch);
                    hi = hi.max(-cl);
                }
                if bounds[i] != (lo, hi) {
                    bounds[i] = (lo, hi);
                    changed = true;
                }
            }
            if !changed {
                return bounds;
            }
        }
    }

    /// Solves the layer given the entries of smaller boards.
    fn solve(&self, smaller: impl Fn(&[u32; 6]) -> ModiarEntry) -> Vec<ModiarEntry> {
        let layer = self.bounds(|c, child| {
            let v = c - smaller(child).value;
            (v, v)
        });
        let game = self.bounds(|c, child| {
            let e = smaller(child);
            (c - e.game_upper, c - e.game_lower)
        });
        let unforced = |i: usize| layer[i].0 < layer[i].1;
        // Cyclic: an unforced board that capture-free moves through unforced boards lead back to.
        let cyclic: Vec<bool> = (0..self.boards.len())
            .map(|i| {
                if !unforced(i) {
                    return false;
                }
                let mut seen = std::collections::HashSet::new();
                let mut todo = vec![i];
                while let Some(x) = todo.pop() {
                    for &j in &self.slots[x] {
                        if unforced(j) {
                            if j == i {
                                return true;
                            }
                            if seen.insert(j) {
                                todo.push(j);
                            }
                        }
                    }
                }
                false
            })
            .collect();
        let mut value: Vec<Option<i32>> = (0..self.boards.len())
            .map(|i| {
                let (lo, hi) = layer[i];
                if lo == hi {
                    Some(lo)
                } else if cyclic[i] {
                    Some(own_rows(&self.boards[i]).clamp(lo, hi))
                } else {
                    None
                }
            })
            .collect();
        // The rest: minimax, successors first (they form no cycle).
        fn minimax(
            l: &NaiveLayer,
            i: usize,
            value: &mut Vec<Option<i32>>,
            smaller: &dyn Fn(&[u32; 6]) -> ModiarEntry,
        ) -> i32 {
            if let Some(v) = value[i] {
                return v;
            }
            let mut best = i32::MIN;
            for (c, child) in l.moves[i].iter().filter(|(c, _)| *c > 0) {
                best = best.max(c - smaller(child).value);
            }
            for j in l.slots[i].clone() {
                best = best.max(-minimax(l, j, value, smaller));
            }
            value[i] = Some(best);
            best
        }
        for i in 0..self.boards.len() {
            minimax(self, i, &mut value, &smaller);
        }
        (0..self.boards.len())
            .map(|i| ModiarEntry {
                value: value[i].unwrap(),
                lower: layer[i].0,
                upper: layer[i].1,
                game_lower: game[i].0,
                game_upper: game[i].1,
                cyclic: cyclic[i],
            })
            .collect()
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn small_boards_match_a_naive_re_solve() {
    let t = table();
    let mut solved: HashMap<[u32; 6], ModiarEntry> = HashMap::new();
    for n in 0..=NAIVE_STONES {
        let layer = NaiveLayer::new(n);
        let entries = layer.solve(|b| solved[b]);
        for (b, e) in layer.boards.iter().zip(entries) {
            assert_eq!(t.entry(&as_board(b)), e, "board {b:?}");
            solved.insert(*b, e);
        }
    }
}

/// The stone counts with unforced and cyclic entries (none below 36), re-solved naively from
/// the table's entries for smaller boards.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn unforced_layers_match_a_naive_re_solve() {
    let t = table();
    for n in [36, 42] {
        let layer = NaiveLayer::new(n);
        let entries = layer.solve(|b| t.entry(&as_board(b)));
        let (mut unforced, mut cyclic, mut game_unforced) = (0, 0, 0);
        for (b, e) in layer.boards.iter().zip(entries) {
            assert_eq!(t.entry(&as_board(b)), e, "board {b:?}");
            unforced += (e.lower < e.upper) as usize;
            cyclic += e.cyclic as usize;
            game_unforced += (e.game_lower < e.game_upper) as usize;
        }
        assert!(unforced > 0 && cyclic > 0 && game_unforced > 0, "{n}");
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Plain alpha-beta to the end of the game.

/// Negamax alpha-beta to the end of the game over the real rules, from the side to move's point
/// of view, margins counted from the stones on the board at the root. A position repeated on the
/// current line is an endless game: scored as the worst share-out of the stones then on the board
/// for the root's mover (all to the opponent) when `endless_loses`, else the best. Returns None
/// when the node budget runs out.
fn alpha_beta(
    p: &Modiar,
    root_mover: Side,
    endless_loses: bool,
    mut alpha: i32,
    beta: i32,
    line: &mut Vec<u64>,
    budget: &mut u64,
) -> Option<i32> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let key = p.repetition_key();
    if line.contains(&key) {
        let stones = p.board_stones() as i32;
        let root_loses = if p.side_to_move() == root_mover {
            -stones
        } else {
            stones
        };
        return Some(if endless_loses {
            root_loses
        } else {
            -root_loses
        });
    }
    let moves = p.legal_moves();
    if moves.is_empty() {
        let me = p.side_to_move();
        let row = |s: Side| p.row(s).iter().map(|&x| x as i32).sum::<i32>();
        return Some(row(me) - row(me.other()));
    }
    line.push(key);
    let mut best = i32::MIN;
    for &mv in moves.iter() {
        let mut child = *p;
        let c = child.play(mv).captured as i32;
        let v = c - alpha_beta(
            &child,
            root_mover,
            endless_loses,
            c - beta,
            c - alpha,
            line,
            budget,
        )?;
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    line.pop();
    Some(best)
}

/// Searches `p` to the end both ways and checks the table's game bounds; None when a search ran
/// out of nodes, else whether the position's value rests on the cycle convention.
fn check_by_alpha_beta(t: &ModiarTable, p: &Modiar, budget: u64) -> Option<bool> {
    let side = p.side_to_move();
    let mut nodes = budget;
    let low = alpha_beta(p, side, true, -100, 100, &mut vec![], &mut nodes)?;
    let mut nodes = budget;
    let high = alpha_beta(p, side, false, -100, 100, &mut vec![], &mut nodes)?;
    let board = p.board();
    let mover = match side {
        Side::South => board,
        Side::North => [board[3], board[4], board[5], board[0], board[1], board[2]],
    };
    let e = t.entry(&mover);
    assert_eq!((e.game_lower, e.game_upper), (low, high), "{p}");
    assert!(e.game_lower <= e.value && e.value <= e.game_upper, "{p}");
    assert_eq!(t.value(p), e.value);
    Some(e.game_lower < e.game_upper)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn alpha_beta_to_the_end_agrees_on_a_sample() {
    let t = table();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    // (pairs of stones, samples, node budget, searches that must finish): on small boards nearly
    // every search finishes; on larger ones, up to the full 42, those whose game ends soon enough.
    for (pairs, samples, budget, needed) in
        [(1..=10, 3000, 300_000, 2500), (11..=21, 150, 100_000, 30)]
    {
        let mut checked = 0;
        for sample in 0..samples {
            let stones = 2 * rng.gen_range(pairs.clone());
            let board = random_board(&mut rng, stones);
            let side = [Side::South, Side::North][sample % 2];
            let p = position_of(&board, side, &mut rng);
            checked += check_by_alpha_beta(t, &p, budget).is_some() as usize;
        }
        assert!(
            checked >= needed,
            "only {checked} searches finished, {pairs:?} pairs"
        );
        eprintln!("alpha-beta: {checked} of {samples} boards of {pairs:?} pairs of stones searched to the end");
    }
}

// ---------------------------------------------------------------------------------------------
// 3. The stated invariants over every entry.

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn every_entry_keeps_the_stated_semantics() {
    let t = table();
    let mut visited = 0usize;
    for n in 0..=42u32 {
        for b in boards_of(n) {
            visited += 1;
            let board = as_board(&b);
            let e = t.entry(&board);
            let rows = own_rows(&b);
            assert!(
                e.game_lower <= e.lower
                    && e.lower <= e.value
                    && e.value <= e.upper
                    && e.upper <= e.game_upper,
                "{b:?}: {e:?}"
            );
            assert!(-(n as i32) <= e.game_lower && e.game_upper <= n as i32);
            let a = analyse(&board, 0, true);
            if !a.has_moves() {
                assert_eq!((e.value, e.game_lower, e.game_upper), (rows, rows, rows));
                continue;
            }
            let best = (0..3)
                .filter(|&h| a.status[h] == HoleStatus::Legal)
                .map(|h| {
                    let after = a.after[h];
                    let child = [after[3], after[4], after[5], after[0], after[1], after[2]];
                    a.sowing[h].captured as i32 - t.entry(&child).value
                })
                .max()
                .unwrap();
            if e.cyclic {
                assert!(e.lower < e.upper, "{b:?}");
                assert_eq!(e.value, rows.clamp(e.lower, e.upper), "{b:?}");
            } else {
                assert_eq!(e.value, best, "{b:?}: minimax");
            }
        }
    }
    assert_eq!(visited, POSITIONS);
}

// ---------------------------------------------------------------------------------------------
// 4. The value from the start, and the engine side.

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn start_value() {
    let t = table();
    let start = Modiar::start(Variant::MODIAR);
    assert_eq!(t.value(&start), -2);
    assert_eq!(
        t.game_bounds(&start),
        (-2, -2),
        "forced without any convention"
    );
    assert_eq!(t.final_totals(&start), [20, 22]);
    let values: Vec<(usize, i32)> = t
        .move_values(&start)
        .iter()
        .map(|m| (m.mv.index() + 1, m.value))
        .collect();
    assert_eq!(values, [(1, -18), (2, -4), (3, -2)]);
    assert_eq!(t.best_moves(&start).as_slice(), &[Move::hole(2)]);
    let line = t.principal_variation(&start, 400);
    let fin = line.result().expect("the principal variation ends");
    assert_eq!((fin.south, fin.north), (20, 22));
    assert_eq!(fin.reason, EndReason::NoMoves);
}

/// Plays `table_side` by the table's first best move and the other side at random until the end;
/// returns the final margin for `table_side` (piles included).
fn play_out(start: Modiar, table_side: Side, rng: &mut ChaCha8Rng) -> (i32, EndReason, usize) {
    let t = table();
    let mut line = GameLine::new(start);
    while !line.is_over() {
        let p = *line.position();
        let mv = if p.side_to_move() == table_side {
            let best = t.best_moves(&p);
            assert!(!best.is_empty(), "{p}");
            for m in best.iter() {
                assert!(p.is_legal(*m));
            }
            best[rng.gen_range(0..best.len())]
        } else {
            let moves = p.legal_moves();
            moves[rng.gen_range(0..moves.len())]
        };
        line.play(mv).unwrap();
    }
    let fin = line.result().unwrap();
    let margin = fin.total(table_side) as i32 - fin.total(table_side.other()) as i32;
    (margin, fin.reason, line.moves().len())
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn the_tables_moves_secure_the_value_against_any_opponent() {
    let t = table();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // From the start, each side in turn.
    let start = Modiar::start(Variant::MODIAR);
    for round in 0..40 {
        let side = if round % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let expected = if side == Side::South { -2 } else { 2 };
        let (margin, _, _) = play_out(start, side, &mut rng);
        assert!(margin >= expected, "{side} got {margin}");
    }
    // From random positions: at least the bound forced whatever the rule for endless games.
    let mut played = 0;
    while played < 400 {
        let stones = 2 * rng.gen_range(1..=21);
        let board = random_board(&mut rng, stones);
        let side = if rng.gen_bool(0.5) {
            Side::South
        } else {
            Side::North
        };
        let p = position_of(&board, side, &mut rng);
        if p.final_result().is_some() {
            continue;
        }
        let (lower, _) = t.game_bounds(&p);
        let piles = p.store(side) as i32 - p.store(side.other()) as i32;
        let (margin, _, plies) = play_out(p, side, &mut rng);
        assert!(margin >= lower + piles, "{p}: {margin} < {lower} + {piles}");
        assert!(plies < 2000);
        played += 1;
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn cache_file_round_trips_and_damage_is_detected() {
    let t = table();
    let dir = std::env::temp_dir().join(format!("otau-modiar-test-{}", std::process::id()));
    let path = dir.join(otau::tables::modiar::cache_file_name());
    t.save(&path).unwrap();
    let loaded = ModiarTable::load(&path).unwrap();
    assert_eq!(loaded.bytes(), t.bytes());
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..10_000 {
        let stones = rng.gen_range(0..=42);
        let b = as_board(&random_board(&mut rng, stones));
        assert_eq!(loaded.entry(&b), t.entry(&b));
    }
    drop(loaded);
    // One flipped byte in the middle: the checksum refuses the file.
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(ModiarTable::load(&path).is_err());
    let name = path.display().to_string();
    let e = ModiarTable::load(&path).unwrap_err().to_string();
    assert!(e.contains(&name) && e.contains("checksum"), "{e}");
    // A truncated file too.
    std::fs::write(&path, &bytes[..1000]).unwrap();
    assert!(ModiarTable::load(&path).is_err());
    let e = ModiarTable::load(&path).unwrap_err().to_string();
    assert!(e.contains(&name) && e.contains("truncated"), "{e}");
    // The format-1 file of an older otau (its own magic and header, then the sections): named
    // as such, and rebuilt by `ModiarTable::load_or_build`, never read.
    let mut old = b"OTAUMDR\0".to_vec();
    old.extend_from_slice(&1u32.to_le_bytes());
    old.extend_from_slice(&(POSITIONS as u64).to_le_bytes());
    old.extend_from_slice(&bytes[24..1000]);
    std::fs::write(&path, &old).unwrap();
    let e = ModiarTable::load(&path).unwrap_err().to_string();
    assert!(e.contains(&name) && e.contains("format 1"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// 5. The engine's move keeps the value (issue 20 item 0).
