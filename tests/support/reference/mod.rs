//! Plain second implementations of every game's rules, written from `protocol/` alone, and the
//! comparisons that hold the fast rules to them. Shared by the rules tests and the differential
//! test (`tests/integration/differential.rs`), so each reference exists once.

pub mod giuthi;
pub mod modiar;
pub mod toguz;

use otau::games::{AnyGame, Game, Giuthi, Modiar, Move, Side, Variant};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Holds a Toguz Kumalak position (any board) to the plain rules: the legal moves, the end and its
/// totals, and for every legal move the resulting holes, stores, tuzdiks and side to move. Returns
/// the number of moves compared.
pub fn compare_toguz(pos: &AnyGame) -> usize {
    let plain = toguz::Plain::from(pos);
    let moves: Vec<usize> = pos.legal_moves().iter().map(|m| m.index()).collect();
    assert_eq!(moves, plain.moves(), "{pos}: legal moves");
    let fin = pos.final_result().map(|f| (f.outcome, f.south, f.north));
    assert_eq!(fin, plain.result(), "{pos}: end");
    for &hole in &moves {
        let mut after = pos.clone();
        after.play(Move::hole(hole));
        let mut theirs = plain.clone();
        theirs.play(hole);
        let ours = toguz::Plain::from(&after);
        assert_eq!(
            (&ours.holes, ours.stores, ours.tuzdik, ours.side),
            (&theirs.holes, theirs.stores, theirs.tuzdik, theirs.side),
            "{pos}: hole {}",
            hole + 1
        );
        let AnyGame::Toguz(toguz) = pos else {
            panic!("{pos}: not Toguz Kumalak");
        };
        assert_eq!(
            toguz.makes_tuzdik(Move::hole(hole)),
            theirs.tuzdik != plain.tuzdik,
            "{pos}: hole {}: tuzdik flag",
            hole + 1
        );
        let me = pos.side_to_move();
        assert_eq!(
            after.fullmove(),
            pos.fullmove() + (me == Side::North) as u32,
            "{pos}: full-move number"
        );
    }
    moves.len()
}

/// Holds a Giuthi position string to the plain rules: the move list, the resulting position
/// string, captures, extra moves and where the last seed fell, and the end. Returns the number of
/// non-ending sowings the position has (which are not moves).
pub fn compare_giuthi(text: &str) -> usize {
    let ours = match AnyGame::from_position(text) {
        Ok(AnyGame::Giuthi(g)) => g,
        other => panic!("{text}: {other:?}"),
    };
    let theirs = giuthi::Pos::parse(text);
    assert_eq!(ours.to_string(), theirs.to_text(), "{text}");
    let legal: Vec<String> = ours
        .legal_moves()
        .iter()
        .map(|&m| ours.move_name(m))
        .collect();
    assert_eq!(legal, theirs.legal(), "{text}: legal moves");
    let fin = ours.final_result().map(|f| (f.outcome, f.south, f.north));
    assert_eq!(fin, theirs.result(), "{text}: end");
    for name in &legal {
        let mut after: Giuthi = ours;
        let effect = after.play(ours.parse_move(name).unwrap());
        let played = theirs.play(name);
        assert_eq!(after.to_string(), played.pos.to_text(), "{text} {name}");
        assert_eq!(effect.captured, played.captured, "{text} {name}");
        assert_eq!(effect.extra_move, played.extra, "{text} {name}");
        if name != "pass" {
            assert_eq!(effect.last as usize, played.last_place, "{text} {name}");
        }
    }
    theirs.non_ending_moves()
}

/// Holds a Modiar position to the plain rules: the legal moves, the end and its totals, and for
/// every legal move the resulting holes, piles, side to move and first-move flag. Returns the
/// number of moves compared.
pub fn compare_modiar(pos: &Modiar) -> usize {
    let plain = modiar::Simple::from(pos);
    let expected = plain.moves();
    let moves: Vec<usize> = pos.legal_moves().iter().map(|m| m.index()).collect();
    let theirs: Vec<usize> = expected.iter().map(|(hole, _)| *hole).collect();
    assert_eq!(moves, theirs, "{pos}: legal moves");
    let fin = pos.final_result().map(|f| (f.outcome, f.south, f.north));
    assert_eq!(fin, plain.result(), "{pos}: end");
    for (hole, after) in &expected {
        let mut child = *pos;
        child.play(Move::hole(*hole));
        assert_eq!(
            &modiar::Simple::from(&child),
            after,
            "{pos}: hole {}",
            hole + 1
        );
        let me = pos.side_to_move();
        assert_eq!(
            child.fullmove(),
            pos.fullmove() + (me == Side::North) as u32
        );
    }
    moves.len()
}

/// A random Modiar position: stones scattered, even piles splitting the rest.
pub fn random_modiar_position(rng: &mut ChaCha8Rng) -> Modiar {
    let total = Variant::MODIAR.total_stones();
    let in_piles = 2 * rng.gen_range(0..=total / 2);
    let holes = scatter(rng, 6, total - in_piles, &[]);
    let south = 2 * rng.gen_range(0..=in_piles / 2);
    let text = format!(
        "modiar {}/{} {}/{} {} {}",
        row_text(&holes[..3]),
        row_text(&holes[3..]),
        south,
        in_piles - south,
        if rng.gen_bool(0.5) { 's' } else { 'n' },
        rng.gen_range(1..200)
    );
    match AnyGame::from_position(&text) {
        Ok(AnyGame::Modiar(m)) => m,
        other => panic!("{text}: {other:?}"),
    }
}

/// A row of a position string.
pub fn row_text(holes: &[u32]) -> String {
    holes
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Stones spread over `places` holes: one at a time, in small handfuls, or piled up (several whole
/// rounds of the ring in one hole), so sowings of every length occur.
fn scatter(rng: &mut ChaCha8Rng, places: usize, stones: u32, skip: &[usize]) -> Vec<u32> {
    let mut holes = vec![0u32; places];
    let style = rng.gen_range(0..3);
    let mut left = stones;
    while left > 0 {
        let i = rng.gen_range(0..places);
        if skip.contains(&i) {
            continue;
        }
        let k = match style {
            0 => 1,
            1 => rng.gen_range(1..=left.min(6)),
            _ => rng.gen_range(1..=left),
        };
        holes[i] += k;
        left -= k;
    }
    holes
}

pub fn random_giuthi_variant(rng: &mut ChaCha8Rng) -> Variant {
    Variant::Giuthi {
        holes: rng.gen_range(5..=10),
        seeds: rng.gen_range(4..=9),
    }
}

/// A random Giuthi position: any size, seeds spread evenly or piled up, random piles, side and
/// full-move number.
pub fn random_giuthi_position(rng: &mut ChaCha8Rng) -> String {
    let variant = random_giuthi_variant(rng);
    let n = variant.holes();
    let total = variant.total_stones();
    let on_board = rng.gen_range(0..=total);
    let holes = scatter(rng, 2 * n, on_board, &[]);
    let south_pile = rng.gen_range(0..=total - on_board);
    format!(
        "{variant} {}/{} {}/{} {} {}",
        row_text(&holes[..n]),
        row_text(&holes[n..]),
        south_pile,
        total - on_board - south_pile,
        if rng.gen_bool(0.5) { 's' } else { 'n' },
        rng.gen_range(1..200)
    )
}

/// A random Toguz Kumalak position of the given board that the position-string rules accept:
/// stones scattered, stores splitting the rest (sometimes past half: a finished game), and on 9
/// and 7 holes zero, one or two tuzdiks (empty, never on hole N, never mirroring each other).
pub fn random_toguz_position(rng: &mut ChaCha8Rng, variant: Variant) -> AnyGame {
    let n = variant.holes();
    let total = variant.total_stones();
    let mut tuzdiks: [Option<usize>; 2] = [None, None];
    if variant.has_tuzdik() {
        for side in 0..2 {
            if rng.gen_bool(0.4) {
                let hole = rng.gen_range(1..n);
                if tuzdiks[1 - side] != Some(hole) {
                    tuzdiks[side] = Some(hole);
                }
            }
        }
    }
    // Ring places of the tuzdiks: South's tuzdik is on North's row.
    let skip: Vec<usize> = (0..2)
        .filter_map(|side| tuzdiks[side].map(|h| (1 - side) * n + h - 1))
        .collect();
    // Mostly games in progress: at most half of the stones in any one store.
    let in_stores = if rng.gen_bool(0.9) {
        rng.gen_range(0..=total / 2)
    } else {
        rng.gen_range(0..=total)
    };
    let holes = scatter(rng, 2 * n, total - in_stores, &skip);
    let south = rng.gen_range(0..=in_stores);
    let show = |t: Option<usize>| t.map_or("-".to_string(), |h| h.to_string());
    let tuzdik_field = if variant.has_tuzdik() || matches!(variant, Variant::Toguz { .. }) {
        format!(" {}/{}", show(tuzdiks[0]), show(tuzdiks[1]))
    } else {
        String::new()
    };
    let text = format!(
        "{variant} {}/{} {}/{}{tuzdik_field} {} {}",
        row_text(&holes[..n]),
        row_text(&holes[n..]),
        south,
        in_stores - south,
        if rng.gen_bool(0.5) { 's' } else { 'n' },
        rng.gen_range(1..200)
    );
    AnyGame::from_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}
