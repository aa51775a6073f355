//! The hidden tuning options (`protocol/ugi.md`, "Tuning options") change the search they are
//! meant to change, through the real binary: what the arena's built-in engine relies on when a
//! match measures a technique or a weight set.

use crate::support::ugi::{errors, Engine};

/// The node count of the last `info` of a `go depth 6` from the start, after `setup`.
fn nodes_after(setup: &[&str]) -> u64 {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.expect("ugiok");
    for line in setup {
        e.send(line);
    }
    let said = e.fence();
    assert!(errors(&said).is_empty(), "{said:?}");
    e.send("position startpos");
    let (_, lines) = e.go("depth 6");
    let last = lines.iter().rev().find(|l| l.contains(" nodes ")).unwrap();
    let nodes = last
        .split(" nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    e.send("quit");
    nodes.parse().unwrap()
}

#[test]
fn tuning_options_change_the_search() {
    let full = nodes_after(&["setoption name Hash value 1"]);
    assert_eq!(
        full,
        nodes_after(&[
            "setoption name Hash value 1",
            "setoption name UseTT value true"
        ])
    );
    for switch in ["UseTT", "UseLMR", "UsePositionalEval"] {
        let off = nodes_after(&[
            "setoption name Hash value 1",
            &format!("setoption name {switch} value false"),
        ]);
        assert_ne!(full, off, "{switch} false searched the same tree");
    }
    let q0 = nodes_after(&[
        "setoption name Hash value 1",
        "setoption name QuiescencePlies value 0",
    ]);
    assert_ne!(full, q0);
}

#[test]
fn a_bad_tuning_value_is_an_error_and_changes_nothing() {
    let mut e = Engine::start(&[]);
    e.send("setoption name UseTT value maybe");
    let said = e.fence();
    assert_eq!(
        errors(&said),
        ["info string error setoption: bad value 'maybe' for UseTT: expected true or false; nothing changed"]
    );
    e.send("quit");
}
