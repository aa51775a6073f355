//! A game as the pages show it: every ply's position string (replayed with the rules from the
//! record's start position), the move that led there, its notation and its engine comment.

use serde_json::{json, Value};

use crate::arena::pgn::move_comment;
use crate::arena::records::GameRecord;
use crate::games::{AnyGame, Game, GameLine, Side};

/// `s` or `n`, as position strings write the side to move.
pub fn side_letter(side: Side) -> &'static str {
    match side {
        Side::South => "s",
        Side::North => "n",
    }
}

/// The game's number in the run as pages and progress lines show it: its index plus one.
pub fn number(g: &GameRecord) -> u64 {
    g.index + 1
}

/// The list entry of a finished game: number, engines, result, how it ended, plies.
pub fn game_summary(g: &GameRecord) -> Value {
    json!({
        "game": number(g),
        "id": g.game,
        "south": g.south,
        "north": g.north,
        "result": g.result.pgn(),
        "termination": g.termination.describe(),
        "plies": g.opening.moves.len() + g.moves.len(),
    })
}

/// The whole game for the viewer: [`game_summary`] and `positions`, one a ply: ply 0 is the
/// record's start position, each later one has the move (`move`, its `side`, its `notation`,
/// `book` for an opening move, the engine's `comment` and recorded `score`) and the position it
/// reached; `ending` is how the game ended (`graph::ending`). A move the
/// rules refuse (a record changed by hand) ends the list there, with `error` saying why.
pub fn game_view(g: &GameRecord) -> Value {
    let mut view = game_summary(g);
    let mut plies = Vec::new();
    let mut error = None;
    match AnyGame::from_position(&g.opening.start) {
        Ok(start) => {
            let mut line = GameLine::new(start);
            plies.push(json!({ "position": line.position().to_string() }));
            let book = g.opening.moves.iter().map(|m| (m.as_str(), None));
            let played = g.moves.iter().map(|m| (m.mv.as_str(), Some(m)));
            for (token, rec) in book.chain(played) {
                let before = line.position().clone();
                let side = before.side_to_move();
                let mv = match line.play_token(token) {
                    Ok((mv, _)) => mv,
                    Err(e) => {
                        error = Some(format!("move {token}: {e}"));
                        break;
                    }
                };
                let notation = before.record_name(mv);
                let pos = line.position();
                let mut ply = json!({
                    "move": token,
                    "side": side_letter(side),
                    "notation": notation,
                    "position": pos.to_string(),
                });
                match rec {
                    None => ply["book"] = true.into(),
                    Some(m) => {
                        if let Some(c) = move_comment(m) {
                            ply["comment"] = c.into();
                        }
                        if let Some(score) = super::graph::ply_score(m) {
                            ply["score"] = score;
                        }
                    }
                }
                plies.push(ply);
            }
        }
        Err(e) => error = Some(format!("start position: {e}")),
    }
    view["positions"] = plies.into();
    view["ending"] = super::graph::ending(g);
    if let Some(e) = error {
        view["error"] = e.into();
    }
    view
}

/// JSON to put inside an HTML `<script>` element: every `<`, `>` and `&` written as a
/// `\u` escape (they only occur inside JSON strings), so no `</script>` or `<!--` in an engine's
/// name or comment can end the element.
pub fn script_json(value: &Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_end_its_element() {
        let v = json!({"name": "</script><script>alert(1)</script><!--&"});
        let s = script_json(&v);
        assert!(
            !s.contains('<') && !s.contains('>') && !s.contains('&'),
            "{s}"
        );
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }
}
