//! Search behaviour: forced wins reported as mates, the sign logic of extra moves and passes,
//! repetition inside the tree, determinism, the stop flag, and the baseline players.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use otau::eval::{Evaluate, Weights};
use otau::games::notation::MoveError;
use otau::games::{
    mix64, AnyGame, BoardState, EndReason, Final, Game, GameLine, Move, MoveEffect, MoveList,
    Outcome, Side, Toguz, Variant,
};
use otau::search::{Info, Limits, Options, Player, Score, SearchReport, Searcher};
use otau::tables::Probe;

fn toguz(text: &str) -> Toguz {
    match AnyGame::from_position(text).unwrap() {
        AnyGame::Toguz(t) => t,
        _ => unreachable!(),
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn run(
    searcher: &mut Searcher,
    line: &GameLine<AnyGame>,
    limits: &Limits,
) -> (SearchReport, Vec<Info>) {
    let mut infos = Vec::new();
    let report = searcher.search(line, limits, &AtomicBool::new(false), &mut |i| {
        infos.push(i.clone())
    });
    (report, infos)
}

/// A searcher that reports exact mate distances: endgame tables (if cached on this machine) prove
/// wins without a distance.
fn without_tables() -> Searcher {
    let mut searcher = Searcher::new(Options::default());
    let mut features = searcher.features();
    features.tables = false;
    searcher.set_features(features);
    searcher
}

/// Whether `me` can force a win within `plies`, by plain minimax (no pruning, no table): the
/// independent referee of the engine's mate scores.
fn wins_within(pos: &Toguz, plies: u32, me: Side) -> bool {
    if let Some(f) = pos.final_result() {
        return f.outcome == Outcome::Win(me);
    }
    if plies == 0 {
        return false;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut child = |m: &Move| {
        let mut c = *pos;
        c.play(*m);
        wins_within(&c, plies - 1, me)
    };
    if pos.side_to_move() == me {
        moves.iter().any(&mut child)
    } else {
        moves.iter().all(&mut child)
    }
}

fn shortest_win(pos: &Toguz, max: u32) -> Option<u32> {
    (1..=max).find(|&d| wins_within(pos, d, pos.side_to_move()))
}

/// Endgame positions (from random play) where the side to move forces a win: the engine must
/// find the shortest one, report it in plies, and play a move that keeps it.
#[test]
fn finds_forced_wins_as_mate_scores() {
    let cases = [
        "toguz-kumalak 0,0,2,1,1,1,1,4,1/0,0,5,0,5,4,0,1,1 55/80 7/- n 54",
        "toguz-kumalak 2,0,0,3,2,2,0,1,1/2,1,0,1,5,1,5,1,1 81/53 3/7 s 68",
        "toguz-kumalak 2,3,0,2,0,1,4,3,1/0,0,0,0,2,3,5,2,1 78/55 2/5 s 46",
        "toguz-kumalak 0,0,1,1,5,0,2,2,1/0,0,6,0,0,1,2,8,0 80/53 4/1 s 44",
    ];
    for text in cases {
        let pos = toguz(text);
        let plies = shortest_win(&pos, 7).expect("a forced win");
        let mut searcher = without_tables();
        let line = GameLine::new(AnyGame::Toguz(pos));
        let (report, _) = run(&mut searcher, &line, &depth(9));
        assert_eq!(report.info.score, Score::Mate(plies as i32), "{text}");
        let mut after = pos;
        after.play(report.best.unwrap());
        // After the move it is the opponent's turn: every reply must still lose in time.
        assert!(
            wins_within(&after, plies - 1, pos.side_to_move()),
            "{text}: the chosen move lets the win slip"
        );
        // From the loser's side, the same position one move on is a proven loss.
        let mut line = line;
        line.play(report.best.unwrap()).unwrap();
        let (report, _) = run(&mut searcher, &line, &depth(9));
        assert_eq!(
            report.info.score,
            Score::Mate(-(plies as i32 - 1)),
            "{text}"
        );
    }
}

/// A capture reaching a majority of stones wins at once: mate in one ply.
#[test]
fn immediate_win_is_mate_one() {
    // South hole 9 holds 2: one back into 9, one on North 1 (1 -> 2): captures 2, 80 + 2 = 82.
    let pos = toguz("toguz-kumalak 0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,5 80/74 -/- s 40");
    let line = GameLine::new(AnyGame::Toguz(pos));
    let (report, _) = run(&mut without_tables(), &line, &depth(4));
    assert_eq!(report.best, Some(Move::hole(8)));
    assert_eq!(report.info.score, Score::Mate(1));
}

/// A game over position gets no move, and says so at once.
#[test]
fn finished_game_has_no_move() {
    let pos = toguz("toguz-kumalak 0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 82/79 -/- n 30");
    let line = GameLine::new(AnyGame::Toguz(pos));
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (report, _) = run(&mut Searcher::new(Options::default()), &line, &infinite);
    assert_eq!(report.best, None);
}

/// Depth- and node-limited searches with one thread repeat exactly.
#[test]
fn limited_searches_are_deterministic() {
    let mut line = GameLine::new(AnyGame::start(Variant::TOGUZ));
    for token in ["87", "87", "22"] {
        line.play_token(token).unwrap();
    }
    for limits in [
        depth(9),
        Limits {
            nodes: Some(54_321),
            ..Limits::default()
        },
    ] {
        let strip = |infos: Vec<Info>| -> Vec<Info> {
            infos
                .into_iter()
                .map(|i| Info {
                    elapsed: Duration::ZERO,
                    ..i
                })
                .collect()
        };
        let (a, infos_a) = run(&mut Searcher::new(Options::default()), &line, &limits);
        let (b, infos_b) = run(&mut Searcher::new(Options::default()), &line, &limits);
        assert_eq!(a.best, b.best);
        assert!(infos_a.len() > 2);
        assert_eq!(strip(infos_a), strip(infos_b));
        if let Some(n) = limits.nodes {
            assert!(
                a.info.nodes >= n && a.info.nodes < n + 64,
                "{}",
                a.info.nodes
            );
        }
    }
}

/// A stop already raised still yields a legal move (from the first iteration), and a stop
/// raised from another thread ends an infinite search.
#[test]
fn stop_is_honoured() {
    let line = GameLine::new(AnyGame::start(Variant::TOGUZ));
    let mut searcher = Searcher::new(Options::default());
    let stop = AtomicBool::new(true);
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let report = searcher.search(&line, &infinite, &stop, &mut |_| {});
    assert!(line.position().is_legal(report.best.unwrap()));
    assert!(report.info.depth <= 2);

    let stop = AtomicBool::new(false);
    let report = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        searcher.search(&line, &infinite, &stop, &mut |_| {})
    });
    assert!(line.position().is_legal(report.best.unwrap()));
}

/// A move's time counts from when its `go` was read (`Limits::received`), not from when the
/// search thread got to it: a `go movetime 100` read 300 ms ago has no time left, so the search
/// answers at once with the first iteration's move, and its time says 300 ms or more. (Counted
/// from the search's own start, it searched for most of 100 ms more and said under 300: on a
/// loaded machine that wait for the thread was added to the move and lost games on time.)
#[test]
fn a_moves_time_counts_from_its_go() {
    let line = GameLine::new(AnyGame::start(Variant::TOGUZ));
    let mut searcher = Searcher::new(Options::default());
    let read_long_ago = Limits {
        movetime: Some(Duration::from_millis(100)),
        received: Some(std::time::Instant::now() - Duration::from_millis(300)),
        ..Limits::default()
    };
    let report = searcher.search(&line, &read_long_ago, &AtomicBool::new(false), &mut |_| {});
    assert!(line.position().is_legal(report.best.unwrap()));
    assert!(report.info.elapsed >= Duration::from_millis(300));
    assert!(
        report.info.depth <= 1,
        "searched on to depth {}",
        report.info.depth
    );
}

/// Under a clock a level answers when its nodes' time at its speed is up (the pace,
/// `Strength::pace_for`), not the moment they are searched; and `stop` ends that wait. (Bounds
/// only: the pace is a least time, and the stopped search must end long before its pace.)
#[test]
fn a_level_under_a_clock_takes_its_pace_and_stop_ends_it() {
    use otau::search::level::Strength;
    use otau::search::time::Budget;
    use otau::search::Clock;
    let line = GameLine::new(AnyGame::start(Variant::TOGUZ));
    let options = Options {
        level: 3,
        ..Options::default()
    };
    let clock = |secs: u64| Limits {
        clock: Some(Clock {
            remaining: Duration::from_secs(secs),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let limits = clock(4);
    let (report, _) = run(&mut Searcher::new(options.clone()), &line, &limits);
    let budget = Budget::new(&limits, options.move_overhead, false);
    let pace = Strength::of_level(3)
        .pace_for(&limits, &budget, report.info.nodes)
        .unwrap();
    assert!(pace > Duration::from_millis(20), "{pace:?}");
    assert!(
        report.info.elapsed >= pace,
        "{:?} < {pace:?}",
        report.info.elapsed
    );
    assert!(line.position().is_legal(report.best.unwrap()));
    // A clock of 1000 s: a pace of many seconds, ended by a stop after 50 ms.
    let limits = clock(1000);
    let budget = Budget::new(&limits, options.move_overhead, false);
    assert!(budget.soft.unwrap() > Duration::from_secs(10));
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(options);
    let report = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        searcher.search(&line, &limits, &stop, &mut |_| {})
    });
    assert!(
        report.info.elapsed < Duration::from_secs(5),
        "{:?}",
        report.info.elapsed
    );
    assert!(line.position().is_legal(report.best.unwrap()));
}

/// The baseline players make legal moves, the same ones for the same game and seed.
#[test]
fn baseline_players_are_legal_and_deterministic() {
    for player in [Player::Random, Player::Greedy] {
        let play_game = |seed: u64| {
            let mut searcher = Searcher::new(Options {
                player,
                seed,
                ..Options::default()
            });
            let mut line = GameLine::new(AnyGame::start(Variant::TOGUZ));
            while !line.is_over() && line.moves().len() < 400 {
                let report =
                    searcher.search(&line, &depth(1), &AtomicBool::new(false), &mut |_| {});
                line.play(report.best.expect("a move while the game is on"))
                    .expect("a legal move");
            }
            line.moves().to_vec()
        };
        let a = play_game(1);
        assert_eq!(a, play_game(1), "{player:?}");
        if player == Player::Random {
            assert_ne!(a, play_game(2));
        }
    }
    // Greedy takes the biggest capture: from the start, hole 8 or 9 captures 10.
    let start = GameLine::new(AnyGame::start(Variant::TOGUZ));
    let mut greedy = Searcher::new(Options {
        player: Player::Greedy,
        ..Options::default()
    });
    let best = greedy
        .search(&start, &depth(1), &AtomicBool::new(false), &mut |_| {})
        .best
        .unwrap();
    let mut after = start.position().clone();
    assert_eq!(after.play(best).captured, 10);
}

/// A tiny game given as a graph, to check the search's sign logic where the real games make it
/// hard to build a position: moves that keep the turn (Giuthi's extra move), forced passes, and
/// repetition by the game's own rule.
#[derive(Clone, PartialEq, Eq, Debug)]
struct GraphGame {
    node: usize,
    nodes: &'static [Node],
    repetition_limit: usize,
}

#[derive(Debug, PartialEq, Eq)]
struct Node {
    side: Side,
    children: &'static [usize],
    /// Who has won, for an end node.
    end: Option<Outcome>,
    /// Static evaluation from South's view.
    eval: i32,
}

const fn node(side: Side, children: &'static [usize], eval: i32) -> Node {
    Node {
        side,
        children,
        end: None,
        eval,
    }
}

const fn end(outcome: Outcome) -> Node {
    Node {
        side: Side::South,
        children: &[],
        end: Some(outcome),
        eval: 0,
    }
}

impl fmt::Display for GraphGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {}", self.node)
    }
}

/// The board [`Graph`] reports: it has none, and answers the accessors itself.
static NO_BOARD: BoardState = BoardState::start(3, 0);

impl Game for GraphGame {
    fn state(&self) -> &BoardState {
        &NO_BOARD
    }
    fn variant(&self) -> Variant {
        Variant::MODIAR
    }
    fn side_to_move(&self) -> Side {
        self.nodes[self.node].side
    }
    fn fullmove(&self) -> u32 {
        1
    }
    fn row(&self, _side: Side) -> &[u8] {
        &[]
    }
    fn store(&self, _side: Side) -> u32 {
        0
    }
    fn generate_moves(&self, moves: &mut MoveList) {
        let n = &self.nodes[self.node];
        if n.end.is_none() {
            if n.children.len() == 1 && self.nodes[n.children[0]].side != n.side {
                moves.push(Move::PASS);
            } else {
                for i in 0..n.children.len() {
                    moves.push(Move::hole(i));
                }
            }
        }
    }
    fn play(&mut self, mv: Move) -> MoveEffect {
        let n = &self.nodes[self.node];
        self.node = if mv.is_pass() {
            n.children[0]
        } else {
            n.children[mv.index()]
        };
        MoveEffect {
            extra_move: self.nodes[self.node].side == n.side,
            ..MoveEffect::default()
        }
    }
    fn final_result(&self) -> Option<Final> {
        self.nodes[self.node].end.map(|outcome| Final {
            outcome,
            south: 0,
            north: 0,
            reason: EndReason::NoMoves,
        })
    }
    fn hash(&self) -> u64 {
        mix64(self.node as u64 + 1)
    }
    fn repetition_limit(&self) -> usize {
        self.repetition_limit
    }
    fn repetition_final(&self) -> Final {
        Final {
            outcome: Outcome::Draw,
            south: 0,
            north: 0,
            reason: EndReason::Repetition,
        }
    }
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        Err(MoveError::malformed(token, "graph game"))
    }
    fn move_name(&self, mv: Move) -> String {
        format!("{}", mv.index())
    }
}

impl Evaluate for GraphGame {
    fn evaluate_with(&self, _weights: &Weights) -> i32 {
        let n = &self.nodes[self.node];
        if n.side == Side::South {
            n.eval
        } else {
            -n.eval
        }
    }
}

/// The graph has no tables.
impl Probe for GraphGame {}

fn best_in(graph: GraphGame, history: &[u64], d: u32) -> SearchReport {
    let mut searcher = Searcher::new(Options::default());
    searcher.search_position(
        &graph,
        history,
        &depth(d),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

const SOUTH_WINS: Outcome = Outcome::Win(Side::South);
const NORTH_WINS: Outcome = Outcome::Win(Side::North);

/// South's first move keeps the turn and then wins; the second hands the turn to North, who
/// wins. Negating across the extra move would make South choose the second.
#[test]
fn extra_move_keeps_the_sign() {
    static NODES: [Node; 6] = [
        node(Side::South, &[1, 2], 0),
        node(Side::South, &[3, 4], 0), // South again: an extra move
        node(Side::North, &[5, 4], 0),
        end(NORTH_WINS),
        end(SOUTH_WINS),
        end(NORTH_WINS),
    ];
    let g = GraphGame {
        node: 0,
        nodes: &NODES,
        repetition_limit: 3,
    };
    let report = best_in(g.clone(), &[g.repetition_key()], 5);
    assert_eq!(report.best, Some(Move::hole(0)));
    assert_eq!(report.info.score, Score::Mate(2));
    // After the extra move South is still to move and wins in one.
    let mut after = g;
    after.play(Move::hole(0));
    let report = best_in(after.clone(), &[after.repetition_key()], 5);
    assert_eq!(
        (report.best, report.info.score),
        (Some(Move::hole(1)), Score::Mate(1))
    );
}

/// North must pass; a pass hands the turn over like any move (negated) and counts as a ply.
#[test]
fn pass_flips_the_sign() {
    static NODES: [Node; 7] = [
        node(Side::South, &[1, 2], 0),
        node(Side::North, &[3], 0), // North's only continuation is a pass to South
        node(Side::North, &[4, 5], 0),
        node(Side::South, &[6], 0), // South's single real move (the child is North's)
        end(NORTH_WINS),
        end(SOUTH_WINS),
        end(SOUTH_WINS),
    ];
    let g = GraphGame {
        node: 0,
        nodes: &NODES,
        repetition_limit: 3,
    };
    let report = best_in(g.clone(), &[g.repetition_key()], 6);
    // Move 0: North passes, South moves into the win: 3 plies. Move 1 lets North win.
    assert_eq!(report.best, Some(Move::hole(0)));
    assert_eq!(report.info.score, Score::Mate(3));
}

/// Repetition ends the game inside the search exactly at the game's limit, counting the game's
/// history as well as the search path.
#[test]
fn repetition_follows_the_rule() {
    // South's move 0 goes to node 1, where North's best reply is back to node 0 (evaluated +3
    // stones for South) unless that return ends the game by repetition, a draw (0), which North
    // then prefers. South's move 1 leads to a quiet +1 stone.
    static NODES: [Node; 5] = [
        node(Side::South, &[1, 2], 300),
        node(Side::North, &[0, 3], 0),
        node(Side::North, &[4], 0),
        node(Side::South, &[3], 500),
        node(Side::South, &[4], 100),
    ];
    let at = |limit| GraphGame {
        node: 0,
        nodes: &NODES,
        repetition_limit: limit,
    };
    let k0 = at(3).repetition_key();
    // Third occurrence ends the game (Toguz Kumalak, Modiar): returning is the second, no end.
    let report = best_in(at(3), &[k0], 2);
    assert_eq!(
        (report.best, report.info.score),
        (Some(Move::hole(0)), Score::Cp(300))
    );
    // Second occurrence ends the game (Giuthi): returning draws.
    let report = best_in(at(2), &[k0], 2);
    assert_eq!(
        (report.best, report.info.score),
        (Some(Move::hole(1)), Score::Cp(100))
    );
    // Third occurrence, but node 0 already occurred earlier in the game: returning draws.
    let report = best_in(at(3), &[k0, at(3).hash() ^ 1, k0], 2);
    assert_eq!(
        (report.best, report.info.score),
        (Some(Move::hole(1)), Score::Cp(100))
    );
}

/// Whether `me` can force a win within `plies` by the real rules of any game, extra moves, passes
/// and the repetition rule included (counted over `path`): plain minimax, no pruning.
fn game_wins_within<G: Game>(pos: &G, plies: u32, me: Side, path: &mut Vec<u64>) -> bool {
    if let Some(f) = pos.final_result() {
        return f.outcome == Outcome::Win(me);
    }
    let key = pos.repetition_key();
    if path.iter().filter(|&&k| k == key).count() + 1 >= pos.repetition_limit() {
        return pos.repetition_final().outcome == Outcome::Win(me);
    }
    if plies == 0 {
        return false;
    }
    path.push(key);
    let moves = pos.legal_moves();
    let mut child = |m: &Move| {
        let mut c = pos.clone();
        c.play(*m);
        game_wins_within(&c, plies - 1, me, path)
    };
    let result = if pos.side_to_move() == me {
        moves.iter().any(&mut child)
    } else {
        moves.iter().all(&mut child)
    };
    path.pop();
    result
}

/// Giuthi, where a move may keep the turn (an extra move) and a player may have to pass: forced
/// wins found by the engine match plain minimax in positions whose trees hold both.
#[test]
fn giuthi_forced_wins_with_extra_moves_and_passes() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let (mut checked, mut extra_moves, mut passes) = (0, 0, 0);
    let variant: Variant = "giuthi-5x4".parse().unwrap();
    for _ in 0..4000 {
        if checked >= 25 {
            break;
        }
        let mut line = GameLine::new(AnyGame::start(variant));
        let plies = rng.gen_range(8..60);
        while !line.is_over() && line.moves().len() < plies {
            let moves = line.position().legal_moves();
            line.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if line.is_over() {
            continue;
        }
        let AnyGame::Giuthi(pos) = line.position().clone() else {
            unreachable!()
        };
        let me = pos.side_to_move();
        let history = line.keys()[..line.keys().len() - 1].to_vec();
        let Some(win) = (1..=5).find(|&d| game_wins_within(&pos, d, me, &mut history.clone()))
        else {
            continue;
        };
        // Count what the tree near the root holds.
        for &mv in pos.legal_moves().iter() {
            let mut c = pos;
            c.play(mv);
            extra_moves += (c.side_to_move() == me) as usize;
            passes += mv.is_pass() as usize;
            for &m2 in c.legal_moves().iter() {
                passes += m2.is_pass() as usize;
            }
        }
        let (report, _) = run(&mut without_tables(), &line, &depth(7));
        assert_eq!(report.info.score, Score::Mate(win as i32), "{pos}");
        checked += 1;
    }
    assert!(checked >= 25, "{checked}");
    assert!(extra_moves > 0 && passes > 0, "{extra_moves} {passes}");
}
