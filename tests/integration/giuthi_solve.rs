//! The Giuthi solver (`otau::tables::giuthi`), checked against a plain alpha-beta search to the end
//! of the game on the deliberately plain rules of `tests/support/reference/giuthi.rs` (the history kept,
//! the repetition rule applied), on hand-worked positions, against its own fixpoint equations over
//! every board it holds, and on what it refuses.

use std::sync::OnceLock;

use otau::games::{AnyGame, Game, Giuthi, Side, Variant};
use otau::tables::giuthi::{fits, totals, GiuthiTable, SolveError, UNFORCED};
use otau::tables::Decided;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::reference;
use reference::giuthi::Pos;

const G54: Variant = Variant::Giuthi { holes: 5, seeds: 4 };

/// Every board of `giuthi-5x4` with up to 8 seeds on it (45,760 positions, well under a second).
fn table() -> &'static GiuthiTable {
    static TABLE: OnceLock<GiuthiTable> = OnceLock::new();
    TABLE.get_or_init(|| GiuthiTable::for_seeds(G54, 8, false).expect("8 seeds fit"))
}

fn pos(text: &str) -> Giuthi {
    match AnyGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        AnyGame::Giuthi(g) => g,
        other => panic!("not giuthi: {other}"),
    }
}

/// The mover's margin on the board's seeds with best play, by plain alpha-beta to the end of the
/// game on the reference rules (exact: the game with its history is a finite tree): the second
/// occurrence of the holes with the same side to move (`path`: the positions so far) ends the
/// game worth [`ENDLESS`] to the mover when `to_mover`, else to the opponent: a result beyond any
/// margin, the table's two bounds counting only normal ends ([`clamped`] turns it back into the
/// table's [`UNFORCED`]). No table, no move ordering: obvious and exponential.
fn alpha_beta(p: &Pos, to_mover: bool, mut alpha: i32, beta: i32, path: &mut Vec<String>) -> i32 {
    let text = p.to_text();
    let fields: Vec<&str> = text.split(' ').collect();
    let rows: Vec<i32> = fields[1]
        .split(['/', ','])
        .map(|x| x.parse().unwrap())
        .collect();
    let n = rows.len() / 2;
    let (south, north): (i32, i32) = (rows[..n].iter().sum(), rows[n..].iter().sum());
    let (own, theirs) = if fields[3] == "s" {
        (south, north)
    } else {
        (north, south)
    };
    let key = format!("{} {}", fields[1], fields[3]);
    if path.contains(&key) {
        return if to_mover { ENDLESS } else { -ENDLESS };
    }
    let legal = p.legal();
    if legal.is_empty() {
        return own - theirs;
    }
    path.push(key);
    let mut best = i32::MIN;
    for mv in &legal {
        let played = p.play(mv);
        let v = if played.extra {
            alpha_beta(&played.pos, to_mover, alpha, beta, path)
        } else {
            let c = played.captured as i32;
            c - alpha_beta(&played.pos, !to_mover, c - beta, c - alpha, path)
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    path.pop();
    best
}

/// The exact margin under one convention (a window wider than any result), as the table
/// keeps it: a result that leans on endless play is [`UNFORCED`].
fn exact(p: &Pos, to_mover: bool) -> i32 {
    clamped(raw(p, to_mover))
}

/// [`exact`] before it is clamped: endless play's worth shifted by the captures on the way.
fn raw(p: &Pos, to_mover: bool) -> i32 {
    alpha_beta(p, to_mover, -2 * ENDLESS, 2 * ENDLESS, &mut Vec::new())
}

/// What endless play is worth in the reference search: more than any margin (at most the 40
/// seeds of `giuthi-5x4`) plus any captures on the way, so the two stay apart; small, so the
/// search's window stays narrow.
const ENDLESS: i32 = 100;

/// A reference result as the table keeps it.
fn clamped(v: i32) -> i32 {
    if v.abs() > ENDLESS / 2 {
        v.signum() * UNFORCED as i32
    } else {
        v
    }
}

/// A random `giuthi-5x4` position with `seeds` seeds on the board and `side` to move.
fn random_position(rng: &mut ChaCha8Rng, seeds: u32, side: Side) -> Giuthi {
    let mut ring = [0u32; 10];
    for _ in 0..seeds {
        ring[rng.gen_range(0..10)] += 1;
    }
    let row = |r: &[u32]| {
        r.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let rest = 40 - seeds;
    let south_pile = rng.gen_range(0..=rest);
    pos(&format!(
        "giuthi-5x4 {}/{} {south_pile}/{} {} 1",
        row(&ring[..5]),
        row(&ring[5..]),
        rest - south_pile,
        side.letter()
    ))
}

/// The table's two bounds equal plain alpha-beta under the two conventions for 1,000 random
/// positions of 1 to 5 seeds, either side to move: the lower bound is what the mover forces with
/// repetitions scored against them, the upper what the opponent forces with them scored for the
/// mover (module documentation of `tables::giuthi`). Some of these positions have bounds that
/// differ, so both conventions are exercised. (Six seeds already take the plain search minutes.)
#[test]
fn bounds_agree_with_plain_alpha_beta() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let mut open = 0;
    for i in 0..1000 {
        let seeds = 1 + i % 5;
        let side = if i % 2 == 0 { Side::South } else { Side::North };
        let p = random_position(&mut rng, seeds, side);
        let reference = Pos::parse(&p.to_string());
        let lower = exact(&reference, false);
        let upper = exact(&reference, true);
        assert_eq!(table().bounds(&p), Some((lower, upper)), "{p}");
        open += (lower != upper) as usize;
    }
    assert!(open > 0, "no position with open bounds in the sample");
}

/// Each move's bounds, from the table, equal plain alpha-beta from the position after it.
#[test]
fn move_bounds_agree_with_plain_alpha_beta() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for i in 0..100 {
        let p = random_position(&mut rng, 3 + i % 3, Side::South);
        for m in table().move_bounds(&p) {
            let played = Pos::parse(&p.to_string()).play(&p.move_name(m.mv));
            let (lo, hi) = if played.extra {
                (exact(&played.pos, false), exact(&played.pos, true))
            } else {
                let c = played.captured as i32;
                (
                    clamped(c - raw(&played.pos, true)),
                    clamped(c - raw(&played.pos, false)),
                )
            };
            assert_eq!((m.lower, m.upper), (lo, hi), "{p} {}", p.move_name(m.mv));
        }
    }
}

/// Worked by hand. South 2,0,0,0,0 against North's single seed in hole 5: `1a` sows S2 and S3, no
/// seed reaches North, so South moves again, and then neither side has a hole of two: the game
/// ends 2-1 on the board (+1). `1c` sows N5 and N4 (the turn passes with N 0,0,0,1,2) and North
/// then keeps all three seeds (-3). The value is +1, forced, 21-19 with the piles.
#[test]
fn a_hand_worked_extra_move_and_its_alternative() {
    let p = pos("giuthi-5x4 2,0,0,0,0/0,0,0,0,1 19/18 s 1");
    assert_eq!(table().bounds(&p), Some((1, 1)));
    let moves: Vec<(String, i32, i32)> = table()
        .move_bounds(&p)
        .iter()
        .map(|m| (p.move_name(m.mv), m.lower, m.upper))
        .collect();
    assert_eq!(
        moves,
        vec![("1a".to_string(), 1, 1), ("1c".to_string(), -3, -3)]
    );
    assert_eq!(totals(&p, 1), [21, 19]);
    let line = table().principal_variation(&p, 10);
    assert_eq!(
        line.iter().map(|&m| p.move_name(m)).collect::<Vec<_>>(),
        ["1a"]
    );
}

/// Worked by hand: a board with no hole of two on either side is over; each keeps their row
/// (South 1, North 2: -1 for South; +1 for North to move on the same holes). An empty board is 0.
#[test]
fn ended_and_empty_boards() {
    let p = pos("giuthi-5x4 1,0,0,0,0/0,1,0,1,0 20/17 s 1");
    assert!(p.final_result().is_some());
    assert_eq!(table().bounds(&p), Some((-1, -1)));
    let p = pos("giuthi-5x4 1,0,0,0,0/0,1,0,1,0 20/17 n 1");
    assert_eq!(table().bounds(&p), Some((1, 1)));
    let p = pos("giuthi-5x4 0,0,0,0,0/0,0,0,0,0 20/20 s 1");
    assert_eq!(table().bounds(&p), Some((0, 0)));
}

/// Over every board the table holds (0 to 8 seeds), its bounds satisfy the equations they are
/// the fixpoint of: a position's lower bound is the best of its moves' lower bounds and its upper
/// bound the best of their upper bounds (the game over: its own-row margin), lower <= upper, and
/// each bound within the board's seeds, of the board's parity.
#[test]
fn every_entry_satisfies_its_equations() {
    let table = table();
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut checked = 0;
    for seeds in 0..=8u32 {
        for _ in 0..400 {
            let p = random_position(&mut rng, seeds, Side::South);
            let (lower, upper) = table.bounds(&p).expect("in the table");
            let margin = |b: i32| b.abs() <= seeds as i32;
            let unforced = UNFORCED as i32;
            assert!(lower <= upper, "{p}");
            assert!(margin(lower) || lower == -unforced, "{p}");
            assert!(margin(upper) || upper == unforced, "{p}");
            for b in [lower, upper].into_iter().filter(|&b| margin(b)) {
                assert_eq!((b + seeds as i32) % 2, 0, "{p}");
            }
            let moves = table.move_bounds(&p);
            if moves.is_empty() {
                let own: i32 = p.row(Side::South).iter().map(|&s| s as i32).sum();
                assert_eq!(
                    (lower, upper),
                    (2 * own - seeds as i32, 2 * own - seeds as i32)
                );
            } else {
                assert_eq!(lower, moves.iter().map(|m| m.lower).max().unwrap(), "{p}");
                assert_eq!(upper, moves.iter().map(|m| m.upper).max().unwrap(), "{p}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 3600);
}

/// Found by the proof search from the start: South, 9 behind on the piles with 7 seeds on the
/// board, loses by every normal end, but North has no hole of two and must pass while South
/// sows, so South can keep the game going until a position repeats: a draw. The table says so
/// (North forces no end: upper bound `UNFORCED`), where scoring endless play as all the board's
/// seeds to one side called it a loss.
#[test]
fn a_side_behind_on_the_piles_holds_the_draw_by_repetition() {
    let p = pos("giuthi-5x4 0,0,2,2,1/1,0,1,0,0 12/21 s 2");
    let (lower, upper) = table().bounds(&p).unwrap();
    assert_eq!(upper, UNFORCED as i32, "North forces no end");
    assert!(lower <= 7);
    assert_eq!(table().result(&p), Some(Decided::Draw));
}

/// A principal variation keeps the value at every step and ends the game where the value is
/// forced, for a sample of forced positions: replayed by the game's rules, it reaches the totals
/// the value gives.
#[test]
fn principal_variations_reach_the_value() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut ended = 0;
    for i in 0..200 {
        let p = random_position(&mut rng, 2 + i % 7, Side::South);
        let Some(value) = table().value(&p) else {
            continue;
        };
        let line = table().principal_variation(&p, 400);
        let mut end = p;
        for &mv in &line {
            assert!(end.is_legal(mv), "{p}: {} in {end}", end.move_name(mv));
            end.play(mv);
        }
        if let Some(fin) = end.final_result() {
            assert_eq!([fin.south, fin.north], totals(&p, value), "{p}");
            ended += 1;
        }
    }
    assert!(ended > 100, "only {ended} lines reached the end");
}

/// The start of `giuthi-5x4` (40 seeds on the board) is refused with the size and why; smaller
/// seed counts fit, and what is no Giuthi game is refused as such.
#[test]
fn what_does_not_fit_is_refused_naming_the_size() {
    let err = fits(G54, 40).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("giuthi-5x4") && text.contains("40 seeds") && text.contains("2054455634"),
        "{text}"
    );
    assert!(fits(G54, 20).is_ok());
    assert!(matches!(fits(G54, 21), Err(SolveError::TooLarge { .. })));
    // 12 holes reach the same layer size sooner: 15 seeds fit (C(26, 11)), 16 do not.
    let g64 = Variant::Giuthi { holes: 6, seeds: 4 };
    assert!(fits(g64, 15).is_ok());
    assert!(matches!(fits(g64, 16), Err(SolveError::TooLarge { .. })));
    assert!(matches!(
        fits(Variant::MODIAR, 4),
        Err(SolveError::NotGiuthi(_))
    ));
    let mut out = Vec::new();
    let err = otau::cli::solve(G54, None, 10, &mut out).unwrap_err();
    assert!(
        err.to_string().contains("giuthi-5x4 with 40 seeds"),
        "{err}"
    );
}

/// `otau solve` on a small Giuthi position prints its value, result, moves and line.
#[test]
fn the_solve_command_prints_a_giuthi_position() {
    let mut out = Vec::new();
    otau::cli::solve(
        G54,
        Some("giuthi-5x4 2,0,0,0,0/0,0,0,0,1 19/18 s 1"),
        10,
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    for line in [
        "value +1 for south from the 3 seeds on the board",
        "forced: the value holds whatever the convention for endless play",
        "result south wins: 21-19 (south 21, north 19)",
        "moves 1a:+1 1c:-3",
        "pv 1. 1a",
    ] {
        assert!(text.contains(line), "{line:?} missing from:\n{text}");
    }
}

/// A position whose bounds differ (South can only pass; 7 seeds): the command prints the bounds
/// (South forces no end at all), says the margin is not forced, and still gives the result the
/// repetition rule leaves: North wins, since North forces an end that leaves South behind.
#[test]
fn the_solve_command_prints_open_bounds_and_the_result() {
    let p = "giuthi-5x4 0,1,1,1,0/0,1,2,1,0 16/17 s 1";
    let mut out = Vec::new();
    otau::cli::solve(G54, Some(p), 10, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    for line in [
        "bounds none..-5 for south from the 7 seeds on the board",
        "not forced: south can force the game to a normal end with a margin of at least none, \
         north with at most -5 (none: cannot force it to end)",
        "result north wins under the repetition rule (the margin rests on the convention)",
        "moves pass:none..-5",
    ] {
        assert!(text.contains(line), "{line:?} missing from:\n{text}");
    }
}
