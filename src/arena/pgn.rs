//! PGN for every game, written from its record (so a resumed or merged run can rewrite it).
//!
//! The seven standard tags come first, so rating tools (Ordo, BayesElo) read the games as they
//! read chess games; `Variant` names the game id. Moves are in the game's record notation
//! (federation notation for Toguz Kumalak), numbered by the position's full-move number so that
//! Giuthi's extra moves (the same side twice) still read correctly. Opening moves carry `{book}`.

use std::fmt::Write as _;

use super::records::{GameRecord, TerminationKind};
use crate::games::{AnyGame, Game, Side};

/// One game as PGN text, ending with a blank line.
pub fn game_pgn(record: &GameRecord, event: &str) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    };
    tag(&mut out, "Event", event);
    tag(&mut out, "Site", "otau-arena");
    tag(&mut out, "Date", "????.??.??");
    tag(
        &mut out,
        "Round",
        &format!("{}.{}", record.round + 1, record.index + 1),
    );
    tag(&mut out, "White", &record.south);
    tag(&mut out, "Black", &record.north);
    tag(&mut out, "Result", record.result.pgn());
    tag(&mut out, "Variant", &record.game);
    let start = AnyGame::from_position(&record.opening.start).ok();
    let standard = start.as_ref().map(|s| *s == AnyGame::start(s.variant()));
    if standard == Some(false) {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &record.opening.start);
    }
    tag(
        &mut out,
        "Termination",
        match record.termination.kind {
            TerminationKind::Rules | TerminationKind::MaxPlies => "normal",
            TerminationKind::DecidedScore => "adjudication",
            TerminationKind::TimeLoss => "time forfeit",
            TerminationKind::IllegalMove => "rules infraction",
            TerminationKind::Crash | TerminationKind::Stall | TerminationKind::Forfeit => {
                "abandoned"
            }
        },
    );
    tag(
        &mut out,
        "PlyCount",
        &(record.opening.moves.len() + record.moves.len()).to_string(),
    );
    out.push('\n');

    let mut text = String::new();
    let mut pos = start;
    let book = record.opening.moves.iter().map(|m| (m.as_str(), None));
    let played = record.moves.iter().map(|m| (m.mv.as_str(), Some(m)));
    let mut last_side = None;
    for (i, (token, rec)) in book.chain(played).enumerate() {
        let (number, side, name) = match pos.as_mut() {
            Some(p) => {
                let number = p.fullmove();
                let side = p.side_to_move();
                let name = match p.parse_move(token) {
                    Ok(mv) => {
                        let name = p.record_name(mv);
                        p.play(mv);
                        name
                    }
                    Err(_) => token.to_string(),
                };
                (number, side, name)
            }
            None => (
                (i / 2 + 1) as u32,
                if i % 2 == 0 { Side::South } else { Side::North },
                token.to_string(),
            ),
        };
        if side == Side::South {
            let _ = write!(text, "{number}. ");
        } else if last_side != Some(Side::South) {
            let _ = write!(text, "{number}... ");
        }
        last_side = Some(side);
        text.push_str(&name);
        text.push(' ');
        match rec {
            None if i + 1 == record.opening.moves.len() => text.push_str("{book} "),
            None => {}
            Some(m) => {
                let mut parts = Vec::new();
                if let Some(s) = &m.score {
                    parts.push(score_text(s, m.depth));
                }
                if let Some(t) = m.time_ms {
                    parts.push(format!("{:.3}s", t as f64 / 1000.0));
                }
                if !parts.is_empty() {
                    let _ = write!(text, "{{{}}} ", parts.join(" "));
                }
            }
        }
    }
    let _ = write!(
        text,
        "{{{}}} {}",
        record.termination.describe().replace(['{', '}'], ""),
        record.result.pgn()
    );
    wrap(&text, 80, &mut out);
    out.push_str("\n\n");
    out
}

/// `cp 35` at depth 5 -> `+0.35/5` (stones); `mate -4` -> `-M4/5`.
fn score_text(score: &str, depth: Option<u32>) -> String {
    let mut it = score.split(' ');
    let text = match (it.next(), it.next().and_then(|v| v.parse::<i64>().ok())) {
        (Some("cp"), Some(cp)) => format!("{:+.2}", cp as f64 / 100.0),
        (Some("mate"), Some(m)) => {
            format!("{}M{}", if m < 0 { "-" } else { "+" }, m.unsigned_abs())
        }
        _ => score.to_string(),
    };
    match depth {
        Some(d) => format!("{text}/{d}"),
        None => text,
    }
}

fn wrap(text: &str, width: usize, out: &mut String) {
    let mut col = 0;
    for word in text.split(' ') {
        if col > 0 && col + 1 + word.len() > width {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::records::{GameResult, MoveRecord, OpeningRecord, Termination};
    use crate::games::{GameLine, Variant};

    /// A record of `plies` moves (the first `book` of them the opening) picked by position hash.
    fn record(start: AnyGame, book: usize, plies: usize) -> GameRecord {
        let mut line = GameLine::new(start.clone());
        let mut names = Vec::new();
        let mut moves = Vec::new();
        for i in 0..plies {
            if line.is_over() {
                break;
            }
            let pos = line.position().clone();
            let legal = pos.legal_moves();
            let mv = legal[(pos.hash() % legal.len() as u64) as usize];
            line.play(mv).unwrap();
            if i < book {
                names.push(pos.move_name(mv));
            } else {
                moves.push(MoveRecord {
                    mv: pos.move_name(mv),
                    notation: pos.record_name(mv),
                    time_ms: Some(12),
                    score: Some("cp -35".into()),
                    depth: Some(4),
                    nodes: None,
                    info_dropped: 0,
                });
            }
        }
        GameRecord {
            index: 4,
            pair: 2,
            round: 1,
            game: start.variant().id(),
            south: "eng \"A\"".into(),
            north: "B".into(),
            opening: OpeningRecord {
                start: start.to_string(),
                moves: names,
            },
            moves,
            final_position: line.position().to_string(),
            result: GameResult::Draw,
            termination: Termination {
                kind: TerminationKind::MaxPlies,
                side: None,
                reason: None,
                detail: "{odd} detail".into(),
            },
            totals: None,
        }
    }

    /// Reads the PGN back with the library's reader and replays it with the rules.
    fn round_trip(r: &GameRecord) {
        let text = game_pgn(r, "test");
        let games = crate::pgn::parse(&text).unwrap();
        assert_eq!(games.len(), 1, "{text}");
        let g = &games[0];
        // PGN escapes quotes in tag values; the library reader returns the value as written.
        assert_eq!(g.tag("White"), Some(r#"eng \"A\""#));
        assert_eq!(g.tag("Variant"), Some(r.game.as_str()));
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
        let mut pos = match g.tag("FEN") {
            Some(fen) => AnyGame::from_position(fen).unwrap(),
            None => AnyGame::start(r.game.parse::<Variant>().unwrap()),
        };
        assert_eq!(
            g.moves.len(),
            r.opening.moves.len() + r.moves.len(),
            "{text}"
        );
        for token in &g.moves {
            let mv = pos
                .parse_move(token)
                .unwrap_or_else(|e| panic!("{token}: {e}\n{text}"));
            pos.play(mv);
        }
        assert_eq!(pos.to_string(), r.final_position);
    }

    #[test]
    fn toguz_pgn_uses_federation_notation_and_replays() {
        let r = record(AnyGame::start(Variant::TOGUZ), 4, 60);
        let text = game_pgn(&r, "test");
        assert!(text.contains("{book}"));
        assert!(text.contains("{-0.35/4 0.012s}"));
        assert!(!text.contains("[FEN"));
        assert!(text.lines().all(|l| l.len() <= 80));
        round_trip(&r);
    }

    #[test]
    fn giuthi_extra_moves_and_set_up_positions_replay() {
        round_trip(&record(AnyGame::start(Variant::GIUTHI), 2, 80));
        let mut later = GameLine::new(AnyGame::start(Variant::TOGUZ));
        for _ in 0..5 {
            let m = later.position().legal_moves()[0];
            later.play(m).unwrap();
        }
        let r = record(later.position().clone(), 0, 30);
        assert!(game_pgn(&r, "t").contains("[SetUp \"1\"]"));
        round_trip(&r);
    }
}
