//! The pairing's properties on its own (the reference's verdicts are checked in
//! `tests/integration/arena_swiss.rs`).

use super::*;

fn field(n: usize) -> Tournament {
    Tournament {
        players: (0..n)
            .map(|i| Player {
                name: format!("P{}", i + 1),
                rating: 2000 - i as u32,
                rounds: Vec::new(),
            })
            .collect(),
        total_rounds: 5,
        points: Points::default(),
        initial_colour: Colour::White,
        forbidden: Vec::new(),
    }
}

#[test]
fn round_one_pairs_top_half_against_bottom_half() {
    let t = field(8);
    let p = pair_round(&t).unwrap();
    assert_eq!(p.pairs, vec![(0, 4), (5, 1), (2, 6), (7, 3)]);
    assert_eq!(p.bye, None);
}
