//! Endgame tables inside the search: built small here (the cached full-size tables are not
//! needed), installed for this test process, and checked against plain minimax.

use std::sync::atomic::AtomicBool;

use otau::games::{AnyGame, Game, GameLine, Outcome, Side, Toguz, Variant};
use otau::search::{Limits, Options, Score, Searcher};
use otau::tables::toguz::{self, Tables};
use otau::tables::{Decided, Probe};
use rand::{Rng, SeedableRng};

const TABLE_STONES: usize = 5;

/// Whether `me` can force a win within `plies` by the real rules.
fn wins_within(pos: &Toguz, plies: u32, me: Side) -> bool {
    if let Some(f) = pos.final_result() {
        return f.outcome == Outcome::Win(me);
    }
    if plies == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    let mut child = |m: &otau::games::Move| {
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

/// Positions late in random games, with `stones` on the board and the game still on.
fn endgames(stones: std::ops::RangeInclusive<u32>, count: usize) -> Vec<Toguz> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Toguz::start(Variant::TOGUZ);
        while pos.final_result().is_none() && pos.board_stones() > *stones.end() {
            let moves = pos.legal_moves();
            pos.play(moves[rng.gen_range(0..moves.len())]);
        }
        if pos.final_result().is_none() && stones.contains(&pos.board_stones()) {
            out.push(pos);
        }
    }
    out
}

fn search(pos: &Toguz, depth: u32, tables: bool) -> Score {
    let mut searcher = Searcher::new(Options::default());
    let mut features = searcher.features();
    features.tables = tables;
    searcher.set_features(features);
    let line = GameLine::new(AnyGame::Toguz(*pos));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(&line, &limits, &AtomicBool::new(false), &mut |_| {})
        .info
        .score
}

/// The side to move's view: 1 won, -1 lost, None open.
fn decided(score: Score) -> Option<i32> {
    match score {
        Score::Mate(p) => Some(p.signum()),
        Score::Cp(cp) if cp.abs() >= 10_000 => Some(cp.signum()),
        Score::Cp(_) => None,
    }
}

#[test]
fn tables_agree_with_minimax_and_search() {
    let (tables, stats) = Tables::build(Variant::TOGUZ, TABLE_STONES);
    assert_eq!(stats.positions as usize, tables.bytes());
    assert!(toguz::install(tables).is_ok());
    let tables = toguz::tables(Variant::TOGUZ).expect("installed");

    // In the tables: a decided entry agrees with minimax wherever minimax sees a forced win.
    let mut agreed = 0;
    for pos in endgames(1..=TABLE_STONES as u32, 300) {
        let bounds = pos.probe_tables().expect("within the tables");
        let b = tables.probe(&pos).unwrap();
        assert!(b.low <= b.high);
        let me = pos.side_to_move();
        if wins_within(&pos, 5, me) {
            assert_eq!(bounds.decided(), Some(Decided::Win), "{pos}");
            agreed += 1;
        }
        let mut after_any = true;
        for &mv in pos.legal_moves().iter() {
            let mut c = pos;
            c.play(mv);
            after_any &= wins_within(&c, 4, me.other());
        }
        if after_any {
            assert_eq!(bounds.decided(), Some(Decided::Loss), "{pos}");
            agreed += 1;
        }
    }
    assert!(agreed > 20, "{agreed}");

    // Above the tables: the search reaches them, and whatever it proves agrees with the search
    // that does not use them.
    let (mut proven, mut only_by_tables) = (0, 0);
    for pos in endgames(TABLE_STONES as u32 + 1..=TABLE_STONES as u32 + 3, 40) {
        assert!(pos.probe_tables().is_none());
        let with = search(&pos, 8, true);
        let without = search(&pos, 8, false);
        match (decided(with), decided(without)) {
            (Some(a), Some(b)) => assert_eq!(a, b, "{pos}: {with:?} vs {without:?}"),
            (Some(_), None) => only_by_tables += 1,
            (None, Some(_)) => panic!("{pos}: the tables lost a proof: {with:?} vs {without:?}"),
            (None, None) => {}
        }
        proven += decided(with).is_some() as usize;
    }
    assert!(
        proven > 5 && only_by_tables > 0,
        "{proven} {only_by_tables}"
    );
}
