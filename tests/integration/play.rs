//! `otau play` driven through its stdin, as a person at a terminal would.

use std::io::Write;
use std::process::Stdio;

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["--movetime", "5", "--level", "1"];
    all.extend_from_slice(args);
    play_exactly(&all, input)
}

/// `otau play` with these arguments alone.
fn play_exactly(args: &[&str], input: &str) -> String {
    let mut child = crate::support::otau()
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn wrong_entries_are_explained_and_asked_again() {
    let out = play(
        &[],
        "hello\n0\n99999999999999999999\nfen\nmoves\n8\nundo\nfen\nnames\nquit\n",
    );
    assert!(out.contains("malformed move 'hello'"));
    assert!(out.contains("hole 0 is outside 1..9"));
    assert!(out.contains("legal moves: 1 2 3 4 5 6 7 8 9"));
    assert!(out.contains("you play 87, captures 10"));
    assert!(out.contains("north plays"));
    // After undo the start position is back.
    let fens: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("toguz-kumalak 9,"))
        .collect();
    assert_eq!(fens.len(), 2, "{out}");
    assert!(fens
        .iter()
        .all(|l| l.ends_with("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1")));
    assert!(out.contains("1=art"));
    assert!(out.trim_end().ends_with("bye"));
}

#[test]
fn a_whole_game_reaches_its_result() {
    // Offer every hole over and over: illegal ones are refused, legal ones played, until the end.
    let mut input = String::new();
    for _ in 0..400 {
        for hole in 1..=5 {
            input.push_str(&format!("{hole}\n"));
        }
    }
    let out = play(&["--game", "bestemshe", "--side", "north"], &input);
    assert!(out.contains("south plays"));
    let last = out
        .lines()
        .rev()
        .find(|l| l.starts_with("game over"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(last.contains("South ") && last.contains("North "), "{last}");
}

#[test]
fn eof_ends_quietly() {
    let out = play(&[], "");
    assert!(out.contains("south>"));
}

/// `hint` names the move with the search's score and depth, not the move alone.
#[test]
fn a_hint_gives_its_score_and_depth() {
    let out = play(&[], "hint\nquit\n");
    let hint = out
        .lines()
        .find_map(|l| l.split("hint: ").nth(1))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        hint.contains("score ") && hint.contains(" stones, depth "),
        "{hint}"
    );
}

/// A level outside the ladder is refused with the valid range, as every other bad value is
/// (it was clamped silently: `--level 25` played level 20).
#[test]
fn a_level_outside_the_ladder_is_refused() {
    for bad in ["25", "0"] {
        let out = crate::support::otau()
            .args(["play", "--level", bad])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "--level {bad} accepted");
        assert!(err.contains(bad) && err.contains("1..=20"), "{err}");
    }
}

/// A Giuthi relay shows each lap's holes as it sows, not only the final board: from the start,
/// 1a relays three times (8 seeds from south's hole 1, then north's hole 1, then south's hole 1
/// again), and the last lap is the board the move leaves (no capture).
#[test]
fn a_giuthi_relay_shows_its_laps() {
    let out = play(&["--game", "giuthi"], "1a\nquit\n");
    let laps: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("you play 1a"))
        .skip(1)
        .take_while(|l| l.starts_with("  lap "))
        .collect();
    assert_eq!(
        laps,
        [
            "  lap 1: north 8 8 8 8 8 8 8 9 | south 0 9 9 9 9 9 9 9",
            "  lap 2: north 9 8 8 8 8 8 8 0 | south 1 10 10 10 10 10 10 10",
            "  lap 3: north 0 8 8 8 8 8 8 1 | south 2 11 11 11 11 11 11 11",
        ],
        "{out}"
    );
    assert!(out.contains("        0   8   8   8   8   8   8   1\n        2  11  11"));
}

/// Digits that cannot be federation notation are one hole number out of range, with the valid
/// range named (`10` was read as hole 1 landing on hole 0: "landing hole 0 is outside 1..9").
#[test]
fn a_hole_number_out_of_range_is_named_as_such() {
    let out = play(&[], "10\n100\n99999999999999999999\n00\nquit\n");
    assert!(out.contains("hole 10 is outside 1..9"), "{out}");
    assert!(out.contains("hole 100 is outside 1..9"), "{out}");
    assert!(
        out.contains("hole 99999999999999999999 is outside 1..9"),
        "{out}"
    );
    assert!(out.contains("without a leading zero (1..9)"), "{out}");
    assert!(!out.contains("landing hole"), "{out}");
}

/// The engine's first Modiar move at level 20 is the solution's (hole 3), not a search's made
/// while the solution was still being read (hole 2, which loses by more): a person's game has no
/// clock, so the engine waits for the table, however short `--movetime` is.
#[test]
fn modiar_waits_for_its_solution_before_the_first_move() {
    let out = play_exactly(
        &[
            "--game",
            "modiar",
            "--level",
            "20",
            "--side",
            "north",
            "--movetime",
            "1",
        ],
        "quit\n",
    );
    let first = out
        .lines()
        .find(|l| l.starts_with("south plays "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        first == "south plays 3" || first.starts_with("south plays 3,"),
        "{out}"
    );
}
