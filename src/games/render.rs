//! A readable board for people: UGI's `d` command and `otau play` both print this.
//!
//! North's row is drawn above South's and reversed, so the ring reads counter-clockwise as on a
//! real board: South's holes 1..N left to right, North's holes 1..N right to left.

use std::fmt::Write;

use super::{Family, Game, Side};

/// Traditional names of the Toguz Kumalak holes, from hole 1.
pub const TOGUZ_HOLE_NAMES: [&str; 9] = [
    "art",
    "tekturmas",
    "atopes",
    "atsyratar",
    "bel",
    "belbasar",
    "kandykpan",
    "kokmoyin",
    "manday",
];

/// Draws the board: hole numbers from each player's side, stones, tuzdiks (`X`), stores, and the
/// side to move. With `names`, Toguz Kumalak holes are also listed by their traditional names.
pub fn render<G: Game>(pos: &G, names: bool) -> String {
    let n = pos.holes();
    let width = 4;
    let mut out = String::new();
    let cell = |out: &mut String, text: &str| {
        let _ = write!(out, "{text:>width$}");
    };
    let store_word = match pos.variant().family() {
        Family::Toguz => "store",
        _ => "captured",
    };
    let marker = |side: Side| {
        if pos.side_to_move() == side && pos.final_result().is_none() {
            " <- to move"
        } else {
            ""
        }
    };

    // North: numbers then stones, both right to left.
    out.push_str("     ");
    for i in (1..=n).rev() {
        cell(&mut out, &i.to_string());
    }
    let _ = writeln!(
        out,
        "   North {} {}{}",
        store_word,
        pos.store(Side::North),
        marker(Side::North)
    );
    out.push_str("     ");
    for i in (0..n).rev() {
        cell(&mut out, &hole_text(pos, Side::North, i));
    }
    out.push('\n');
    out.push_str("     ");
    for i in 0..n {
        cell(&mut out, &hole_text(pos, Side::South, i));
    }
    out.push('\n');
    out.push_str("     ");
    for i in 1..=n {
        cell(&mut out, &i.to_string());
    }
    let _ = writeln!(
        out,
        "   South {} {}{}",
        store_word,
        pos.store(Side::South),
        marker(Side::South)
    );
    for side in Side::BOTH {
        if let Some(h) = pos.tuzdik(side) {
            let _ = writeln!(
                out,
                "{side}'s tuzdik: hole {h} of {}'s row (X)",
                side.other()
            );
        }
    }
    if names && pos.variant().family() == Family::Toguz && n == 9 {
        out.push_str("hole names: ");
        for (i, name) in TOGUZ_HOLE_NAMES.iter().enumerate() {
            let _ = write!(
                out,
                "{}={name}{}",
                i + 1,
                if i + 1 < n { ", " } else { "\n" }
            );
        }
    }
    out
}

fn hole_text<G: Game>(pos: &G, side: Side, index: usize) -> String {
    if pos.tuzdik(side.other()) == Some(index as u8 + 1) {
        "X".to_string()
    } else {
        pos.row(side)[index].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::AnyGame;

    #[test]
    fn draws_tuzdiks_and_stores() {
        let pos =
            AnyGame::from_position("toguz-kumalak 9,9,0,9,9,9,9,9,9/9,9,9,9,9,9,0,9,9 9/9 7/3 s 1")
                .unwrap();
        let text = render(&pos, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0].split_whitespace().take(9).collect::<Vec<_>>(),
            ["9", "8", "7", "6", "5", "4", "3", "2", "1"]
        );
        // North's hole 7 is South's tuzdik; South's hole 3 is North's.
        assert_eq!(lines[1].split_whitespace().nth(2), Some("X"));
        assert_eq!(lines[2].split_whitespace().nth(2), Some("X"));
        assert!(lines[3].contains("South store 9 <- to move"));
        assert!(text.contains("9=manday"));
    }
}
