//! Giuthi's proof search (`tables::giuthi::prove`, over the shared `tables::proof_search`):
//! every proof it finds on positions of a few seeds, with a smaller table below them, is
//! re-checked by the verifier and agrees with the exact result of the full retrograde table;
//! damaged proofs are refused; proof files round-trip.

use std::sync::OnceLock;

use otau::games::{AnyGame, Game, Giuthi, Side, Variant};
use otau::tables::giuthi::prove::{self, GiuthiProof, StartProof};
use otau::tables::giuthi::GiuthiTable;
use otau::tables::proof_search::dfpn::Dfpn;
use otau::tables::proof_search::tree::{self, Goal, ProofTree, VerifyError};
use otau::tables::Decided;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const G54: Variant = Variant::Giuthi { holes: 5, seeds: 4 };

/// Every board of up to 12 seeds: the exact results the proofs are checked against.
fn truth() -> &'static GiuthiTable {
    static TABLE: OnceLock<GiuthiTable> = OnceLock::new();
    TABLE.get_or_init(|| GiuthiTable::for_seeds(G54, 12, false).expect("12 seeds fit"))
}

/// Every board of up to 4 seeds: the leaves the proof search stops at.
fn leaves() -> &'static GiuthiTable {
    static TABLE: OnceLock<GiuthiTable> = OnceLock::new();
    TABLE.get_or_init(|| GiuthiTable::for_seeds(G54, 4, false).expect("4 seeds fit"))
}

fn pos(text: &str) -> Giuthi {
    match AnyGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        AnyGame::Giuthi(g) => g,
        other => panic!("not giuthi: {other}"),
    }
}

/// A random position with `seeds` seeds on the board, the piles within two of each other.
fn random_position(rng: &mut ChaCha8Rng, seeds: u32) -> Giuthi {
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
    let south = (rest / 2 + rng.gen_range(0..=4))
        .saturating_sub(2)
        .min(rest);
    let side = if rng.gen_bool(0.5) { 's' } else { 'n' };
    pos(&format!(
        "giuthi-5x4 {}/{} {south}/{} {side} 1",
        row(&ring[..5]),
        row(&ring[5..]),
        rest - south
    ))
}

/// The proof of `attacker`'s question at `p`: their win if the search proves it, else the
/// defender's hold of the draw; verified.
fn prove(p: &Giuthi, attacker: Side) -> ProofTree {
    let game = GiuthiProof { table: leaves() };
    let mut search = Dfpn::new(game, attacker, 18, Box::new(|_| {}));
    let won = search.solve(p);
    let goal = if won { Goal::Win } else { Goal::Hold };
    let proof = tree::extract(&mut search, p, goal).unwrap_or_else(|e| panic!("{p}: {e}"));
    tree::verify(&game, &proof, p, &mut |_| {}, None).unwrap_or_else(|e| panic!("{p}: {e}"));
    proof
}

/// 240 random positions of 6 to 12 seeds on the board (most reach the 4-seed table only after
/// several captures, many have capture-free cycles): for each side, the search's proof (a win,
/// or the other side's hold of the draw) passes the verifier and says what the exact table says.
#[test]
fn proofs_agree_with_the_retrograde_table() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let (mut wins, mut holds, mut repetitions) = (0, 0, 0);
    for i in 0..1000 {
        let p = random_position(&mut rng, 6 + (i % 7));
        if p.final_result().is_some() {
            continue;
        }
        let exact = truth().result(&p).expect("the table holds 12 seeds");
        let me = p.side_to_move();
        for attacker in [me, me.other()] {
            let proof = prove(&p, attacker);
            let expected_win = if attacker == me {
                exact == Decided::Win
            } else {
                exact == Decided::Loss
            };
            assert_eq!(
                proof.goal == Goal::Win,
                expected_win,
                "{p}, {attacker} to win"
            );
            assert_eq!(
                proof.winner,
                if expected_win {
                    attacker
                } else {
                    attacker.other()
                }
            );
            let game = GiuthiProof { table: leaves() };
            let st = tree::verify(&game, &proof, &p, &mut |_| {}, None).unwrap();
            if proof.goal == Goal::Win {
                wins += 1;
                assert_eq!(st.repetitions, 0);
            } else {
                holds += 1;
                repetitions += (st.repetitions > 0) as u32;
            }
        }
    }
    assert!(wins > 50 && holds > 50, "{wins} wins, {holds} holds");
    eprintln!("{wins} wins, {holds} holds, {repetitions} of them with repetitions");
    assert!(
        repetitions > 10,
        "only {repetitions} holds lean on a repetition"
    );
}

/// A verifier that takes anything proves nothing: a proof for the wrong side, a move changed,
/// a truncated or lengthened file are refused.
#[test]
fn damaged_proofs_are_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let game = GiuthiProof { table: leaves() };
    let mut checked = 0;
    for i in 0..120 {
        let p = random_position(&mut rng, 6 + (i % 5));
        if p.final_result().is_some() {
            continue;
        }
        let proof = prove(&p, p.side_to_move());
        if proof.moves.is_empty() {
            continue;
        }
        checked += 1;
        let check = |t: &ProofTree| tree::verify(&game, t, &p, &mut |_| {}, None);
        let mut short = proof.clone();
        short.moves.pop();
        assert!(matches!(check(&short), Err(VerifyError::Truncated { .. })));
        let mut long = proof.clone();
        long.moves.push(0);
        assert!(matches!(
            check(&long),
            Err(VerifyError::TrailingMoves { .. })
        ));
        let mut bent = proof.clone();
        bent.moves[0] = 0xEE;
        assert!(matches!(
            check(&bent),
            Err(VerifyError::IllegalMove { code: 0xEE, .. })
        ));
        // The same moves for the other side, or a win where only a draw is held: these may
        // happen to check only when the other side's proof is the same tree, which a first
        // move of the prover's rules out.
        let mut wrong = proof.clone();
        wrong.winner = wrong.winner.other();
        assert!(check(&wrong).is_err(), "{p}");
        if proof.goal == Goal::Hold {
            let mut greedy = proof.clone();
            greedy.goal = Goal::Win;
            let exact = truth().result(&p).unwrap();
            let claims_win = if proof.winner == p.side_to_move() {
                exact == Decided::Win
            } else {
                exact == Decided::Loss
            };
            assert!(claims_win || check(&greedy).is_err(), "{p}");
        }
    }
    assert!(checked > 40, "only {checked} proofs with moves");
}

/// A start proof file round-trips, and damage is named with the file.
#[test]
fn proof_files_round_trip() {
    let dir = std::env::temp_dir().join(format!("otau-giuthi-proof-{}", std::process::id()));
    let path = dir.join(prove::proof_file(G54, 20));
    let proof = StartProof {
        variant: G54,
        table_seeds: 20,
        trees: vec![
            ProofTree {
                goal: Goal::Hold,
                winner: Side::South,
                moves: vec![0, 0x12, 3],
            },
            ProofTree {
                goal: Goal::Hold,
                winner: Side::North,
                moves: vec![0xFF],
            },
        ],
    };
    let rests = otau::tables::storage::file_format::RestsOn {
        table: "the Giuthi table".into(),
        digest: otau::tables::storage::file_format::Digest([9; 32]),
    };
    prove::save(&proof, &rests, &path).unwrap();
    assert_eq!(prove::load(&path).unwrap(), (proof.clone(), rests));
    assert_eq!(proof.result(), Some(Decided::Draw));
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 12;
    bytes[at] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = prove::load(&path).unwrap_err().to_string();
    assert!(err.contains(&path.display().to_string()), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `otau solve --game giuthi-5x4` end to end, over a table of 12 seeds (seconds; the default 20
/// seeds take minutes): the start is a draw, both proofs are saved, a second run re-checks the
/// saved file instead of searching, a proof naming another table's digest is refused, a damaged
/// file is refused naming it, and `--verify` without a file says so.
#[test]
fn the_solve_command_proves_the_start_drawn() {
    let dir = std::env::temp_dir().join(format!("otau-giuthi-start-{}", std::process::id()));
    let run = |extra: &[&str]| {
        let out = crate::support::otau()
            .args(["solve", "--game", "giuthi-5x4", "--table-stones", "12"])
            .args(["--hash", "64", "--dir"])
            .arg(&dir)
            .args(extra)
            .env("OTAU_NO_TABLES", "1")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, _, err) = run(&["--verify"]);
    assert!(!ok && err.contains("no proof to verify"), "{err}");
    let (ok, out, err) = run(&[]);
    assert!(ok, "{err}");
    for line in [
        "position giuthi-5x4 4,4,4,4,4/4,4,4,4,4 0/0 s 1",
        "value draw for south: neither side can force a win",
        "search south to win: disproven",
        "search north to win: disproven",
        "proof that north holds the draw:",
        "proof that south holds the draw:",
    ] {
        assert!(out.contains(line), "{line:?} missing from:\n{out}");
    }
    let path = dir.join("giuthi-5x4-12.proof");
    assert!(path.is_file());
    let (ok, again, err) = run(&["--verify"]);
    assert!(ok, "{err}");
    assert!(err.contains("proof: read"), "{err}");
    assert!(again.contains("value draw for south") && !again.contains("search south"));
    // The proof records the digest of the table it rests on (built anew at every run): a proof
    // naming another table is refused with both digests, before any replay.
    let (proof, rests) = prove::load(&path).unwrap();
    assert!(rests.table.contains("0..12 seeds"), "{}", rests.table);
    let other = otau::tables::storage::file_format::RestsOn {
        digest: otau::tables::storage::file_format::Digest([0x5a; 32]),
        ..rests.clone()
    };
    prove::save(&proof, &other, &path).unwrap();
    for flags in [&["--verify"][..], &["--verify", "--rebuild-tables"]] {
        let (ok, _, err) = run(flags);
        assert!(!ok, "{flags:?}");
        for part in [
            "rebuilt from scratch".to_string(),
            path.display().to_string(),
            rests.digest.to_string(),
            other.digest.to_string(),
        ] {
            assert!(err.contains(&part), "{part} missing from: {err}");
        }
    }
    prove::save(&proof, &rests, &path).unwrap();
    let (ok, _, err) = run(&["--verify", "--rebuild-tables"]);
    assert!(ok, "{err}");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let (ok, _, err) = run(&["--verify"]);
    assert!(!ok && err.contains(&path.display().to_string()), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
