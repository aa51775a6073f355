//! The Dutch system checked against the reference's verdicts, without the reference: random
//! tournaments made by bbpPairings' generator (every round of each is bbpPairings' pairing) and
//! single rounds with bbpPairings' `-p` output, kept in `tests/data/swiss/` (its README says
//! how they were made). Every round is paired again here and must be the same pairs, colours
//! and bye, in the same order; a round the reference found unpairable must be unpairable.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use otau::arena::pairing::swiss::{self, trf, PairingError, Round, Tournament};

use crate::support::arena::{arena, scratch};

fn data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/swiss")
        .join(dir)
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(data(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

/// The tournament as it stood before round `r` (0-based): earlier rounds, and round r's
/// entries of the players who were not paired in it (absences, requested byes).
fn before_round(full: &Tournament, r: usize) -> Tournament {
    let mut t = full.clone();
    for player in &mut t.players {
        let keep = match player.rounds.get(r) {
            Some(round) if !round.paired => r + 1,
            _ => r,
        };
        player.rounds.truncate(keep);
    }
    t
}

/// Round r of a played tournament: its (white, black) pairs and its bye.
fn played_round(full: &Tournament, r: usize) -> (BTreeSet<(usize, usize)>, Option<usize>) {
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for (id, player) in full.players.iter().enumerate() {
        let Some(round) = player.rounds.get(r) else {
            continue;
        };
        match (round.opponent, round.colour) {
            (Some(opponent), Some(swiss::Colour::White)) => {
                pairs.insert((id, opponent));
            }
            (None, _) if round.paired => bye = Some(id),
            _ => {}
        }
    }
    (pairs, bye)
}

/// Every round of one reference tournament paired again: the rounds checked.
fn check_tournament(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    // The generator's file has no XXR: a finished tournament, every round done.
    let done = trf::read(&text).unwrap();
    let played = done.rounds_done();
    for r in 0..played {
        let mut t = before_round(&done, r);
        t.total_rounds = played as u32;
        let ours = swiss::pair_round(&t)
            .unwrap_or_else(|e| panic!("{}: round {}: {e}", path.display(), r + 1));
        let (pairs, bye) = played_round(&done, r);
        let got: BTreeSet<(usize, usize)> = ours.pairs.iter().copied().collect();
        assert_eq!(
            (got, ours.bye),
            (pairs, bye),
            "{}: round {}",
            path.display(),
            r + 1
        );
    }
    played
}

#[test]
fn every_round_of_the_reference_tournaments_is_paired_the_same() {
    let tournaments = files("tournaments", "trf");
    assert!(tournaments.len() >= 50, "{} tournaments", tournaments.len());
    // Two threads: the machine's two cores.
    let half = tournaments.len() / 2;
    let rounds: usize = std::thread::scope(|s| {
        let (a, b) = tournaments.split_at(half);
        let first = s.spawn(|| a.iter().map(|p| check_tournament(p)).sum::<usize>());
        let second: usize = b.iter().map(|p| check_tournament(p)).sum();
        first.join().unwrap() + second
    });
    assert!(rounds >= 400, "{rounds} rounds");
}

#[test]
fn the_reference_verdicts_on_single_rounds_are_reproduced_exactly() {
    let inputs = files("rounds", "trf");
    assert!(inputs.len() >= 50, "{} rounds", inputs.len());
    let mut unpairable = 0;
    for input in &inputs {
        let t = trf::next_round(&std::fs::read_to_string(input).unwrap()).unwrap();
        let expected = std::fs::read_to_string(input.with_extension("pairs")).unwrap();
        let got = match swiss::pair_round(&t) {
            Ok(pairing) => trf::pairing_text(&pairing),
            Err(PairingError::NoValidPairing) => {
                unpairable += 1;
                "none\n".to_string()
            }
            Err(e) => panic!("{}: {e}", input.display()),
        };
        assert_eq!(got, expected, "{}", input.display());
    }
    assert!(unpairable >= 5, "{unpairable} unpairable rounds");
}

#[test]
fn the_pair_command_prints_the_reference_output() {
    let dir = scratch("swiss-pair");
    let input = files("rounds", "trf").into_iter().next().unwrap();
    let (code, out, err) = arena(&["pair", "--trf", input.to_str().unwrap()], &dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        std::fs::read_to_string(input.with_extension("pairs")).unwrap()
    );
    // A round the rules cannot pair: exit code 1 and the reason, as bbpPairings.
    let none = files("rounds", "pairs")
        .into_iter()
        .find(|p| std::fs::read_to_string(p).unwrap() == "none\n")
        .unwrap();
    let (code, out, err) = arena(
        &[
            "pair",
            "--trf",
            none.with_extension("trf").to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("no pairing"), "{err}");
    // --out writes the file.
    let out_file = dir.join("pairs.txt");
    let (code, _, err) = arena(
        &[
            "pair",
            "--trf",
            input.to_str().unwrap(),
            "--out",
            out_file.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&out_file).unwrap(),
        std::fs::read_to_string(input.with_extension("pairs")).unwrap()
    );
    // An invalid file and a missing one: bbpPairings' exit codes 3 and 5.
    let bad = dir.join("bad.trf");
    std::fs::write(&bad, "001    1      A\rXXR 3\r001    1      B\r").unwrap();
    let (code, _, err) = arena(&["pair", "--trf", bad.to_str().unwrap()], &dir);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("pairing number given twice"), "{err}");
    let (code, _, err) = arena(
        &["pair", "--trf", dir.join("none.trf").to_str().unwrap()],
        &dir,
    );
    assert_eq!(code, 5, "{err}");
}

#[test]
fn a_round_entry_of_an_unpaired_player_is_an_absence_not_a_round() {
    let input = files("rounds", "trf").into_iter().next().unwrap();
    let t = trf::read(&std::fs::read_to_string(&input).unwrap()).unwrap();
    let done = t.rounds_done();
    let mut absent = t.clone();
    absent.players[0].rounds.truncate(done);
    absent.players[0]
        .rounds
        .push(Round::absent(swiss::Score::Draw));
    assert_eq!(absent.rounds_done(), done);
    if let Ok(pairing) = swiss::pair_round(&absent) {
        assert!(pairing.pairs.iter().all(|&(w, b)| w != 0 && b != 0));
        assert_ne!(pairing.bye, Some(0));
    }
}

/// A Swiss of five built-in engines (a bye every round), with the caller's `extra` options.
fn swiss_run<'a>(rounds: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = Vec::new();
    for (name, cmd) in [
        ("name=r1", "cmd=builtin:random"),
        ("name=r2", "cmd=builtin:random"),
        ("name=g1", "cmd=builtin:greedy"),
        ("name=g2", "cmd=builtin:greedy"),
        ("name=o", "cmd=builtin:otau"),
    ] {
        args.extend(["--engine", name, cmd]);
    }
    // The last engine's rating makes it pairing number 1.
    args.push("rating=2400");
    args.extend([
        "--each",
        "depth=1",
        "--tournament",
        "swiss",
        "--rounds",
        rounds,
    ]);
    args.extend(["--seed", "2", "-q"]);
    args.extend(extra);
    args
}

#[test]
fn a_swiss_run_writes_its_trf_and_the_pair_command_reads_it_back() {
    let dir = scratch("swiss-trf");
    let (code, _, err) = arena(
        &swiss_run("3", &["--trf", "t.trf", "--out", "r.jsonl"]),
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("t.trf")).unwrap();
    let t = trf::read(&text).unwrap();
    assert_eq!(
        (t.players.len(), t.rounds_done(), t.total_rounds),
        (5, 3, 3)
    );
    assert_eq!(t.players[0].name, "o", "{text}");
    // Five players: each round has one bye, three rounds three different players' byes.
    let byes = t
        .players
        .iter()
        .filter(|p| p.rounds.iter().any(|r| r.paired && r.opponent.is_none()))
        .count();
    assert_eq!(byes, 3, "{text}");
    // The pair command reads the file: every round is done, none is left to pair.
    let (code, _, err) = arena(&["pair", "--trf", "t.trf"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("3 rounds done of 3"), "{err}");
    // No temporary file is left beside it.
    let stray: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp."))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");

    // An input or records file is never the TRF; a run of another kind writes none.
    let (code, _, err) = arena(&swiss_run("1", &["--trf", "r.jsonl"]), &dir);
    assert_ne!(code, 0);
    assert!(err.contains("--trf r.jsonl: holds the records"), "{err}");
    let (code, _, err) = arena(
        &[
            "--engine",
            "cmd=builtin:random",
            "--engine",
            "cmd=builtin:greedy",
            "--each",
            "depth=1",
            "--trf",
            "x.trf",
            "-q",
        ],
        &dir,
    );
    assert_ne!(code, 0);
    assert!(err.contains("a TRF is written by a Swiss only"), "{err}");
    assert!(!dir.join("x.trf").exists());
    let mut args = swiss_run("1", &[]);
    *args.iter_mut().find(|a| **a == "rating=2400").unwrap() = "rating=4001";
    let (code, _, err) = arena(&args, &dir);
    assert_ne!(code, 0);
    assert!(
        err.contains("rating=4001: a whole number in 0..=4000"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--rounds N --games 2` is a Swiss of game pairs (the form engine events play): each round's
/// encounters are two games, one opening, colours swapped. Elsewhere `--rounds` and `--games`
/// are two ways to say one size, and both at once are refused.
#[test]
fn a_swiss_of_game_pairs_takes_rounds_and_games_together() {
    let dir = scratch("swiss-pairs");
    let (code, _, err) = arena(&swiss_run("2", &["--games", "2", "--out", "r.jsonl"]), &dir);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["event"] == "game")
        .collect();
    // Five engines: two boards a round (and a bye), two games a board, two rounds.
    assert_eq!(games.len(), 8, "{text}");
    for pair in games.chunks(2) {
        assert_eq!(pair[0]["pair"], pair[1]["pair"], "{text}");
        assert_eq!(pair[0]["south"], pair[1]["north"], "{text}");
        assert_eq!(pair[0]["opening"], pair[1]["opening"], "{text}");
    }
    let (code, _, err) = arena(
        &[
            "--engine",
            "cmd=builtin:random",
            "--engine",
            "cmd=builtin:greedy",
            "--each",
            "depth=1",
            "--rounds",
            "2",
            "--games",
            "2",
            "-q",
        ],
        &dir,
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("--rounds 2 and --games 2: give one of them"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
