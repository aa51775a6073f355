//! Modiar under the real repetition rule (issue 20 item 0): the history-carrying solver
//! (`otau::tables::modiar::RealRule`) checked against a plain search, and measured over the
//! positions whose table value rests on the endless-play convention.

use std::sync::OnceLock;
use std::time::Instant;

use otau::games::modiar::Board;
use otau::tables::modiar::{ModiarTable, RealRule};

fn table() -> &'static ModiarTable {
    static TABLE: OnceLock<ModiarTable> = OnceLock::new();
    TABLE.get_or_init(ModiarTable::build)
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

/// The measurement of the solver's reach: `cargo test --release --test modiar_real_rule --
/// --ignored measure --nocapture` (budget per position in OTAU_REAL_BUDGET, default 10^6).
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
