//! A readable board for people: UGI's `d` command and `otau play` both print this.
//!
//! North's row is drawn above South's and reversed, so the ring reads counter-clockwise as on a
//! real board: South's holes 1..N left to right, North's holes 1..N right to left.

use std::fmt::Write;

use super::game::Game;
use super::types::Side;

/// Draws the board: hole numbers from each player's side, stones (or the game's mark for a hole,
/// such as a Toguz Kumalak tuzdik's `X`), stores, and the side to move, then the game's own notes
/// ([`Game::board_notes`]: tuzdiks, and with `names` the traditional hole names).
pub fn render<G: Game>(pos: &G, names: bool) -> String {
    let n = pos.holes();
    let width = 4;
    let mut out = String::new();
    let cell = |out: &mut String, text: &str| {
        let _ = write!(out, "{text:>width$}");
    };
    let store_word = pos.store_word();
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
        cell(&mut out, &pos.hole_text(Side::North, i));
    }
    out.push('\n');
    out.push_str("     ");
    for i in 0..n {
        cell(&mut out, &pos.hole_text(Side::South, i));
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
    out.push_str(&pos.board_notes(names));
    out
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
