//! Modiar under the real repetition rule (issue 20 item 0): the history-carrying solver
//! (`otau::tables::modiar::RealRule`) checked against a plain search, and measured over the
//! positions whose table value rests on the endless-play convention.

use std::collections::HashMap;
use std::time::Instant;

use otau::games::modiar::Board;
use otau::games::{AnyGame, Game, GameLine, Modiar, Side};
use otau::tables::modiar::{ModiarTable, RealRule};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::ugi;

fn table() -> &'static ModiarTable {
    crate::modiar_table()
}

fn boards_of(n: u8) -> Vec<Board> {
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

/// Every reachable board whose table value rests on the convention: 36 to 42 stones (even: the
/// piles are), game bounds apart.
fn convention_dependent() -> Vec<Board> {
    let t = table();
    (36..=42)
        .step_by(2)
        .flat_map(boards_of)
        .filter(|b| {
            let e = t.entry(b);
            e.game_lower < e.game_upper
        })
        .collect()
}

/// The measurement of the solver's reach: `cargo test --release --test tables
/// modiar_real_rule::measure -- --ignored --nocapture` (budget per position in OTAU_REAL_BUDGET, default 10^6).
#[test]
#[ignore = "a measurement, minutes long"]
fn measure() {
    let t = table();
    let budget: u64 = std::env::var("OTAU_REAL_BUDGET")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let boards = convention_dependent();
    assert_eq!(boards.len(), 3306);
    let mut solver = RealRule::new(t);
    let started = Instant::now();
    let (mut solved, mut differ, mut diffs) = (0, 0, std::collections::BTreeMap::new());
    for (k, b) in boards.iter().enumerate() {
        let before = solver.nodes();
        let v = solver.fresh_value(b, budget);
        let e = t.entry(b);
        if let Some(v) = v {
            solved += 1;
            assert!(e.game_lower <= v && v <= e.game_upper, "{b:?}: {v} {e:?}");
            if v != e.value {
                differ += 1;
                *diffs.entry(v - e.value).or_insert(0) += 1;
            }
        }
        if k % 100 == 0 {
            eprintln!(
                "{k}: {b:?} {v:?} table {} [{}, {}] nodes {} solved {solved} differ {differ} {:?}",
                e.value,
                e.game_lower,
                e.game_upper,
                solver.nodes() - before,
                started.elapsed()
            );
        }
    }
    eprintln!(
        "solved {solved} of {}, {differ} differ from the table {diffs:?}, nodes {}, {:?}",
        boards.len(),
        solver.nodes(),
        started.elapsed()
    );
}

fn pos(text: &str) -> Modiar {
    match AnyGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        AnyGame::Modiar(m) => m,
        other => panic!("not modiar: {other}"),
    }
}

/// South to move on a mover-relative board, the captured stones in South's pile.
fn south_to_move(b: &Board) -> Modiar {
    let n: u32 = b.iter().map(|&x| x as u32).sum();
    pos(&format!(
        "modiar {},{},{}/{},{},{} {}/0 s 9",
        b[0],
        b[1],
        b[2],
        b[3],
        b[4],
        b[5],
        42 - n
    ))
}

/// A position's board from its mover's point of view.
fn mover_board(p: &Modiar) -> Board {
    let b = p.board();
    match p.side_to_move() {
        Side::South => b,
        Side::North => [b[3], b[4], b[5], b[0], b[1], b[2]],
    }
}

/// The margin if the game ended at `p`: the mover's row minus the opponent's.
fn own_rows(p: &Modiar) -> i32 {
    let me = p.side_to_move();
    let row = |s: Side| p.row(s).iter().map(|&x| x as i32).sum::<i32>();
    row(me) - row(me.other())
}

/// A plain negamax alpha-beta under the real rule, written apart from the solver: the positions
/// of the capture-free stretch counted by the game's own repetition keys in `line` (the current
/// one included), the third occurrence ending the game with each side's own row. A capture, or
/// a move out of the position's strongly connected component (which no later move can come back
/// from: the one thing it takes from the solver), starts afresh, at the next position's fresh
/// value, memoised by board. While no position but the current one has occurred twice the
/// table's game bounds hold: a position whose bounds meet counts at that value, and the others'
/// bounds cut where they fall outside the window. Transpositions are keyed by the position's key
/// and the whole history spelled out (no hashing of it); no window narrowing.
/// A position's repetition key and its stretch's counts, sorted.
type State = (u64, Vec<(u64, u8)>);

struct Plain<'t> {
    t: &'t ModiarTable,
    components: RealRule<'t>,
    fresh: HashMap<Board, i32>,
    seen: HashMap<State, (i32, i32)>,
    budget: u64,
}

impl<'t> Plain<'t> {
    fn new(t: &'t ModiarTable) -> Plain<'t> {
        Plain {
            t,
            components: RealRule::new(t),
            fresh: HashMap::new(),
            seen: HashMap::new(),
            budget: 0,
        }
    }

    /// The value of `p` as the first position of its stretch.
    fn fresh(&mut self, p: &Modiar) -> Option<i32> {
        let b = mover_board(p);
        let e = self.t.entry(&b);
        if e.game_lower == e.game_upper {
            return Some(e.game_lower);
        }
        if let Some(&v) = self.fresh.get(&b) {
            return Some(v);
        }
        let mut line = HashMap::from([(p.repetition_key(), 1)]);
        let v = self.search(p, &mut line, e.game_lower - 1, e.game_upper + 1)?;
        self.fresh.insert(b, v);
        Some(v)
    }

    fn search(
        &mut self,
        p: &Modiar,
        line: &mut HashMap<u64, u8>,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let moves = p.legal_moves();
        if moves.is_empty() {
            return Some(own_rows(p));
        }
        let here = p.repetition_key();
        let board = mover_board(p);
        let e = self.t.entry(&board);
        let mut beta = beta;
        if line.iter().all(|(&k, &c)| c < 2 || k == here) {
            if e.game_lower == e.game_upper || e.game_lower >= beta {
                return Some(e.game_lower);
            }
            if e.game_upper <= alpha {
                return Some(e.game_upper);
            }
            // The value is within the bounds: nothing to learn outside them.
            alpha = alpha.max(e.game_lower - 1);
            beta = beta.min(e.game_upper + 1);
        }
        let mut state: Vec<(u64, u8)> = line.iter().map(|(&k, &c)| (k, c)).collect();
        state.sort_unstable();
        let state = (here, state);
        if let Some(&(lo, hi)) = self.seen.get(&state) {
            if lo == hi || lo >= beta {
                return Some(lo);
            }
            if hi <= alpha {
                return Some(hi);
            }
        }
        let alpha0 = alpha;
        let mut best = i32::MIN;
        // The moves the table rates best first.
        let mut moves: Vec<(i32, Modiar, i32)> = moves
            .iter()
            .map(|&mv| {
                let mut child = *p;
                let c = child.play(mv).captured as i32;
                (c - self.t.entry(&mover_board(&child)).value, child, c)
            })
            .collect();
        moves.sort_by_key(|m| -m.0);
        for (_, child, c) in moves {
            let v = if c > 0 {
                c - self.fresh(&child)?
            } else if !self.components.same_component(&board, &mover_board(&child)) {
                -self.fresh(&child)?
            } else {
                let key = child.repetition_key();
                let seen = line.get(&key).copied().unwrap_or(0);
                if seen == 2 {
                    -own_rows(&child)
                } else {
                    line.insert(key, seen + 1);
                    let r = self.search(&child, line, -beta, -alpha);
                    line.insert(key, seen);
                    -r?
                }
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let (lo, hi) = self.seen.get(&state).copied().unwrap_or((-99, 99));
        let bounds = if best <= alpha0 {
            (lo, hi.min(best))
        } else if best >= beta {
            (lo.max(best), hi)
        } else {
            (best, best)
        };
        self.seen.insert(state, bounds);
        Some(best)
    }

    /// The value of `p` after the stretch whose keys `line` counts (`p` included), within
    /// `budget` nodes, on a deep stack.
    fn value(&mut self, p: &Modiar, line: &mut HashMap<u64, u8>, budget: u64) -> Option<i32> {
        self.budget = budget;
        self.seen.clear();
        let n = p.board_stones() as i32;
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(1 << 30)
                .spawn_scoped(s, || self.search(p, line, -n - 1, n + 1))
                .unwrap()
                .join()
                .unwrap()
        })
    }
}

/// Where the plain search finishes from a convention-dependent position as the first of its
/// stretch, the solver finds the same value; and it finds one everywhere.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn the_solver_agrees_with_a_plain_search_from_fresh_positions() {
    let t = table();
    let mut solver = RealRule::new(t);
    let mut plain = Plain::new(t);
    let (mut compared, mut solved) = (0, 0);
    for b in convention_dependent() {
        let v = solver.fresh_value(&b, 1_000_000);
        solved += v.is_some() as usize;
        let p = south_to_move(&b);
        let mut line = HashMap::from([(p.repetition_key(), 1)]);
        if let Some(plain) = plain.value(&p, &mut line, 50_000) {
            assert_eq!(v, Some(plain), "{p}");
            compared += 1;
        }
    }
    eprintln!("fresh: {solved} solved, {compared} compared with the plain search");
    assert_eq!(solved, 3306);
    assert!(compared >= 100, "{compared}");
}

/// Histories that make the repetition rule decide, from every convention-dependent position `p`
/// and each capture-free move into its own component, to `c`: after `c` has occurred twice the
/// move ends the game (each side keeps its own row); after a position `g` that `c` moves to has
/// occurred twice, the game goes on at `c` but moving on to `g` ends it, and the game bounds no
/// longer hold there. The solver's values agree with the plain search's.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn the_solver_agrees_with_a_plain_search_where_the_repetition_rule_decides() {
    let t = table();
    let mut solver = RealRule::new(t);
    let mut plain = Plain::new(t);
    let (mut compared, mut ended, mut differ_from_fresh) = (0, 0, 0);
    let quiet_moves = |solver: &mut RealRule, p: &Modiar| -> Vec<(otau::games::Move, Modiar)> {
        let mut out = Vec::new();
        for mv in p.legal_moves().iter() {
            let mut child = *p;
            if child.play(*mv).captured == 0
                && solver.same_component(&mover_board(p), &mover_board(&child))
            {
                out.push((*mv, child));
            }
        }
        out
    };
    // Every sixth position: about 20 s in release.
    for b in convention_dependent().into_iter().step_by(6) {
        let p = south_to_move(&b);
        for (mv, c) in quiet_moves(&mut solver, &p) {
            let value_of = |solver: &mut RealRule, keys: &[u64]| {
                let values = solver.move_values_after(&p, keys, 1_000_000, None);
                values
                    .expect("solved")
                    .iter()
                    .find(|m| m.0 == mv)
                    .unwrap()
                    .1
            };
            let v = value_of(
                &mut solver,
                &[c.repetition_key(), c.repetition_key(), p.repetition_key()],
            );
            assert_eq!(v, -own_rows(&c), "{p}, {mv:?} ends the game");
            ended += 1;
            for (_, g) in quiet_moves(&mut solver, &c) {
                let keys = [g.repetition_key(), g.repetition_key(), p.repetition_key()];
                let v = value_of(&mut solver, &keys);
                let mut line: HashMap<u64, u8> = HashMap::new();
                for k in keys.iter().chain([c.repetition_key()].iter()) {
                    *line.entry(*k).or_insert(0) += 1;
                }
                let Some(w) = plain.value(&c, &mut line, 50_000) else {
                    continue;
                };
                assert_eq!(v, -w, "{p}, {mv:?} after {keys:?}");
                let fresh = solver.fresh_value(&mover_board(&c), 1_000_000).unwrap();
                differ_from_fresh += (w != fresh) as usize;
                compared += 1;
            }
        }
    }
    eprintln!(
        "repetition: {compared} compared, {ended} ending moves, {differ_from_fresh} differ from the fresh value"
    );
    assert!(compared >= 250 && ended >= 150, "{compared} {ended}");
    assert!(differ_from_fresh > 0, "no history made a difference");
}

/// The engine on both sides from every third convention-dependent position, under the real rule
/// (`GameLine` ends the game at the third occurrence): at every ply whose table value rests on
/// the convention its move keeps the real-rule value given the game so far (by a solver of its
/// own), and the game ends with the start's real-rule value. Where the plain search finishes
/// from a state of these games, with its history, it finds the solver's value.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn self_play_keeps_the_real_rule_value() {
    let t = table();
    let mut engine = RealRule::new(t);
    let mut judge = RealRule::new(t);
    let mut plain = Plain::new(t);
    let (mut checked, mut compared, mut plies) = (0, 0, 0);
    let started = Instant::now();
    // From every third position (all 3,306 take about a minute in release: 110,410 plies, every
    // one of their 50,990 convention-dependent plies kept, 5,099 compared).
    for b in convention_dependent().into_iter().step_by(3) {
        let start = south_to_move(&b);
        let value = judge.fresh_value(&b, 1_000_000).expect("solved");
        let mut line = GameLine::new(start);
        while !line.is_over() {
            let p = *line.position();
            let mv = t.best_moves_after(&mut engine, &p, line.keys(), None)[0];
            let (low, high) = t.game_bounds(&p);
            if low < high {
                let values = judge
                    .move_values_after(&p, line.keys(), 1_000_000, None)
                    .expect("solved");
                let best = values.iter().map(|v| v.1).max().unwrap();
                let chosen = values.iter().find(|v| v.0 == mv).unwrap().1;
                assert_eq!(chosen, best, "{p} after {:?}: {values:?}", line.moves());
                checked += 1;
                if checked % 10 == 0 {
                    let mut counts = HashMap::new();
                    for &k in line.keys() {
                        *counts.entry(k).or_insert(0u8) += 1;
                    }
                    if let Some(v) = plain.value(&p, &mut counts, 50_000) {
                        assert_eq!(v, best, "{p} after {:?}", line.moves());
                        compared += 1;
                    }
                }
            }
            line.play(mv).unwrap();
            plies += 1;
        }
        let fin = line.result().unwrap();
        let n = b.iter().map(|&x| x as i32).sum::<i32>();
        let margin = fin.south as i32 - fin.north as i32 - (42 - n);
        assert_eq!(margin, value, "{start}: {:?}", line.moves());
    }
    eprintln!(
        "{plies} plies, {checked} convention-dependent, {compared} compared with the plain search, {:?}",
        started.elapsed()
    );
}

/// The value of the engine's move (the first of `best_moves_after`) and the best value of any
/// move, under the real rule after the game's `keys`.
fn engine_move_and_best(
    t: &ModiarTable,
    engine: &mut RealRule,
    judge: &mut RealRule,
    p: &Modiar,
    keys: &[u64],
) -> (i32, i32) {
    let mv = t.best_moves_after(engine, p, keys, None)[0];
    let values = judge
        .move_values_after(p, keys, 1_000_000, None)
        .expect("solved");
    let best = values.iter().map(|v| v.1).max().unwrap();
    (values.iter().find(|v| v.0 == mv).unwrap().1, best)
}

/// Every convention-dependent position as the first of its stretch: the engine's move keeps the
/// real-rule value; the table's own move (`best_moves`) loses it in 3 of them.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn the_engines_move_keeps_the_real_rule_value_in_every_convention_dependent_position() {
    let t = table();
    let mut engine = RealRule::new(t);
    let mut judge = RealRule::new(t);
    let mut table_loses = Vec::new();
    for b in convention_dependent() {
        let p = south_to_move(&b);
        let keys = [p.repetition_key()];
        let (chosen, best) = engine_move_and_best(t, &mut engine, &mut judge, &p, &keys);
        assert_eq!(chosen, best, "{p}");
        assert_eq!(Some(best), judge.fresh_value(&b, 1_000_000), "{p}");
        let table_move = t.best_moves(&p)[0];
        let values = judge.move_values_after(&p, &keys, 1_000_000, None).unwrap();
        if values.iter().any(|v| v.0 == table_move && v.1 < best) {
            table_loses.push(p.to_string());
        }
    }
    table_loses.sort();
    assert_eq!(
        table_loses,
        [
            "modiar 6,10,7/10,3,6 0/0 s 9",
            "modiar 8,16,3/3,7,5 0/0 s 9",
            "modiar 9,4,7/5,9,2 6/0 s 9"
        ]
    );
}

/// Random play from random convention-dependent positions, up to 60 plies: wherever the table's
/// value rests on the convention, the engine's move keeps the real-rule value given the random
/// history so far.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn the_engines_move_keeps_the_real_rule_value_after_random_play() {
    let t = table();
    let mut engine = RealRule::new(t);
    let mut judge = RealRule::new(t);
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let boards = convention_dependent();
    let (mut positions, mut checked) = (0, 0);
    for _ in 0..600 {
        let start = south_to_move(&boards[rng.gen_range(0..boards.len())]);
        let mut line = GameLine::new(start);
        while !line.is_over() && line.moves().len() < 60 {
            let p = *line.position();
            positions += 1;
            let (low, high) = t.game_bounds(&p);
            if low < high {
                let (chosen, best) =
                    engine_move_and_best(t, &mut engine, &mut judge, &p, line.keys());
                assert_eq!(chosen, best, "{p} after {:?}", line.moves());
                checked += 1;
            }
            let moves = p.legal_moves();
            line.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
    }
    eprintln!("random play: {positions} positions, {checked} convention-dependent");
    assert!(checked >= 500, "{checked} of {positions}");
}

/// Through the protocol: in `modiar 9,4,7/5,9,2 6/0 s 9` the table's move (hole 2) loses the
/// real-rule value of 4; the engine, asked by UGI, plays a move that keeps it.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "builds the whole table: cargo test --release"
)]
fn the_engine_plays_the_real_rule_move_through_ugi() {
    let t = table();
    let text = "modiar 9,4,7/5,9,2 6/0 s 9";
    let p = pos(text);
    let mut judge = RealRule::new(t);
    let values = judge
        .move_values_after(&p, &[p.repetition_key()], 1_000_000, None)
        .unwrap();
    let best = values.iter().map(|v| v.1).max().unwrap();
    assert_eq!(best, 4);
    assert_eq!(
        t.best_moves(&p)[0],
        otau::games::Move::hole(1),
        "the table's own move"
    );
    let dir = std::env::temp_dir().join(format!("otau-modiar-real-{}", std::process::id()));
    t.save(&dir.join(otau::tables::modiar::cache_file_name()))
        .unwrap();
    let mut command = crate::support::otau();
    command.env("OTAU_CACHE_DIR", &dir);
    let mut engine = ugi::Engine::start_command(command);
    engine.send("ugi");
    engine.expect("ugiok");
    engine.send(&format!("position fen {text}"));
    assert!(engine.fence().is_empty());
    let (mv, _) = engine.go("depth 1");
    let kept: Vec<String> = values
        .iter()
        .filter(|v| v.1 == best)
        .map(|v| (v.0.index() + 1).to_string())
        .collect();
    assert!(kept.contains(&mv), "{mv} not among {kept:?}");
    engine.send("quit");
    engine.wait_exit(ugi::TIMEOUT);
    std::fs::remove_dir_all(&dir).unwrap();
}
