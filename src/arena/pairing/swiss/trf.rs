//! FIDE's Tournament Report File (TRF-2016), the part a pairing reads and writes: the `001`
//! player lines (pairing number, name, rating, points, and ten columns a round: opponent,
//! colour, result), `XXR` (or `142`) the number of rounds, `XXC` the colour of pairing number 1
//! in round 1 (`white1`, `black1`). Results: `1 = 0` played, `+ -` forfeits, `W D L` played
//! unrated; with opponent `0000`: `U` the pairing-allocated bye, `F H Z` a full-point,
//! half-point and zero-point bye (not paired), as TRF-2026 and JaVaFo's TRF(x) write them.
//! `XXP` forbidden pairs and the point values (TRF-2026's `162`, bbpPairings' `BBW BBD BBL BBZ
//! BBF BBU`) are read, the latter written; acceleration and the bye and forbidden-pair lines by
//! round are refused rather than ignored. Lines end in CR, LF or both; other lines are kept out of the pairing.
//!
//! The pairing output is JaVaFo's and bbpPairings': the number of pairs, then one `WHITE BLACK`
//! line a pair by pairing number, the bye last as `PLAYER 0`.

use super::{Colour, Player, Points, Round, RoundPairing, Score, Tournament};

/// The characters of a 001 line before the first round's column.
const ROUNDS_START: usize = 91;
/// One round's width.
const ROUND_WIDTH: usize = 10;

/// bbpPairings' point values (TRF(bx)): a win, draw, played loss, zero-point bye, forfeit loss
/// and the pairing-allocated bye (a win's unless given), `BBW  3.0`.
const POINT_CODES: [&str; 6] = ["BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"];

/// Lines whose meaning would change the pairing and that are not read: refused, never ignored.
const UNSUPPORTED: [&str; 4] = ["XXA", "250", "240", "260"];

/// Points written with at most one decimal, in tenths.
fn read_points(text: &str) -> Option<u32> {
    let (whole, tenth) = text.split_once('.').unwrap_or((text, "0"));
    if tenth.len() != 1 {
        return None;
    }
    Some(whole.parse::<u32>().ok()? * 10 + tenth.parse::<u32>().ok()?)
}

/// Reads a TRF. Errors name the line. Without `XXR` the tournament is taken as finished (its
/// rounds the rounds played): a pairing needs `XXR`, see [`next_round`].
pub fn read(text: &str) -> Result<Tournament, String> {
    let mut players: Vec<Option<Player>> = Vec::new();
    let mut total_rounds = None;
    let mut initial_colour = None;
    let mut forbidden = Vec::new();
    let mut points = Points::default();
    let mut bye_points = false;
    for line in text.split(['\r', '\n']) {
        let fail = |why: &str| format!("TRF line {:?}: {why}", line.trim_end());
        if line.starts_with("001") {
            let (id, player) = read_player(line).map_err(|why| fail(&why))?;
            if players.len() <= id {
                players.resize(id + 1, None);
            }
            if players[id].is_some() {
                return Err(fail("a pairing number given twice"));
            }
            players[id] = Some(player);
        } else if line.starts_with("XXR") || line.starts_with("142") {
            let rounds: u32 = line[3..]
                .trim()
                .parse()
                .map_err(|_| fail("the rounds are not a number"))?;
            if rounds == 0 {
                return Err(fail("a tournament of no rounds"));
            }
            total_rounds = Some(rounds);
        } else if let Some(rest) = line.strip_prefix("XXC") {
            for word in rest.split_whitespace() {
                match word {
                    "white1" => initial_colour = Some(Colour::White),
                    "black1" => initial_colour = Some(Colour::Black),
                    "rank" => return Err(fail("pairing by rank (XXC rank) is not supported")),
                    _ => {}
                }
            }
        } else if let Some(rest) = line.strip_prefix("XXP") {
            let ids = rest
                .split_whitespace()
                .map(|w| {
                    w.parse::<usize>()
                        .ok()
                        .filter(|&id| id > 0)
                        .map(|id| id - 1)
                })
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(|| fail("a forbidden pair's pairing numbers"))?;
            for (k, &a) in ids.iter().enumerate() {
                for &b in &ids[k + 1..] {
                    forbidden.push((a, b));
                }
            }
        } else if let Some(field) = POINT_CODES.iter().position(|c| line.starts_with(c)) {
            let value = read_points(line[3..].trim()).ok_or_else(|| fail("points as 1.0"))?;
            let slot = match field {
                0 => &mut points.win,
                1 => &mut points.draw,
                2 => &mut points.loss,
                3 => &mut points.zero_bye,
                4 => &mut points.forfeit_loss,
                _ => {
                    bye_points = true;
                    &mut points.pairing_bye
                }
            };
            *slot = value;
        } else if let Some(rest) = line.strip_prefix("162") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            for chunk in words.chunks(2) {
                let [code, value] = chunk else {
                    return Err(fail("a point value without a code"));
                };
                let value = read_points(value).ok_or_else(|| fail("points as 1.0"))?;
                match *code {
                    "W" => points.win = value,
                    "D" => points.draw = value,
                    "L" => points.loss = value,
                    "Z" => {
                        points.zero_bye = value;
                        points.forfeit_loss = value;
                    }
                    "P" => {
                        points.pairing_bye = value;
                        bye_points = true;
                    }
                    other => return Err(fail(&format!("point code {other:?}"))),
                }
            }
        } else if UNSUPPORTED.iter().any(|c| line.starts_with(c)) {
            return Err(fail(
                "not supported here (acceleration, byes or forbidden pairs by round)",
            ));
        }
    }
    if !bye_points {
        points.pairing_bye = points.win;
    }
    let players = players
        .into_iter()
        .enumerate()
        .map(|(id, p)| p.ok_or(format!("TRF: pairing number {} is missing", id + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    check_opponents(&players)?;
    let mut t = Tournament {
        players,
        total_rounds: 0,
        points,
        initial_colour: Colour::White,
        forbidden,
    };
    t.total_rounds = total_rounds.unwrap_or(t.rounds_done() as u32);
    t.initial_colour = initial_colour.unwrap_or_else(|| infer_initial_colour(&t));
    Ok(t)
}

/// A tournament read from a TRF that has a round left to pair: `XXR` given and more than the
/// rounds done.
pub fn next_round(text: &str) -> Result<Tournament, String> {
    let t = read(text)?;
    if !text
        .split(['\r', '\n'])
        .any(|l| l.starts_with("XXR") || l.starts_with("142"))
    {
        return Err("TRF: the number of rounds (XXR) is needed to pair the next round".into());
    }
    let done = t.rounds_done();
    if done >= t.total_rounds as usize {
        return Err(format!(
            "TRF: {done} rounds done of {} (XXR): none left to pair",
            t.total_rounds
        ));
    }
    Ok(t)
}

fn read_player(line: &str) -> Result<(usize, Player), String> {
    let chars: Vec<char> = line.chars().collect();
    let field = |from: usize, to: usize| -> String {
        chars
            .get(from..to.min(chars.len()))
            .map(|s| s.iter().collect())
            .unwrap_or_default()
    };
    let id: usize = field(4, 8)
        .trim()
        .parse()
        .map_err(|_| "no pairing number".to_string())?;
    if id == 0 {
        return Err("pairing number 0".into());
    }
    let rating = field(48, 52).trim().parse().unwrap_or(0);
    let name = field(14, 47).trim().to_string();
    let mut rounds = Vec::new();
    let mut blanks = 0;
    let mut start = ROUNDS_START;
    while start < chars.len() {
        let entry = field(start, start + 8);
        let entry = format!("{entry:<8}");
        match read_round(&entry, id - 1)? {
            None => blanks += 1,
            Some(round) => {
                rounds.extend(std::iter::repeat_n(Round::absent(Score::Loss), blanks));
                blanks = 0;
                rounds.push(round);
            }
        }
        start += ROUND_WIDTH;
    }
    Ok((
        id - 1,
        Player {
            name,
            rating,
            rounds,
        },
    ))
}

/// One round's 8 characters: None when blank.
fn read_round(entry: &str, own: usize) -> Result<Option<Round>, String> {
    let c: Vec<char> = entry.chars().collect();
    let opponent_text: String = c[0..4].iter().collect();
    let (colour_char, result) = (c[5], c[7].to_ascii_uppercase());
    if opponent_text.trim().is_empty() && colour_char == ' ' && result == ' ' {
        return Ok(None);
    }
    let opponent = match opponent_text.trim() {
        "" | "0000" | "0" => None,
        number => {
            let n: usize = number
                .parse()
                .map_err(|_| format!("opponent {number:?} is not a number"))?;
            if n == 0 || n - 1 == own {
                return Err(format!("opponent {number:?}"));
            }
            Some(n - 1)
        }
    };
    let colour = match colour_char {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        '-' | ' ' => None,
        other => return Err(format!("colour {other:?}")),
    };
    let score = match result {
        'D' | '=' | 'H' => Score::Draw,
        '+' | 'W' | '1' | 'F' | 'U' => Score::Win,
        '-' | 'L' | '0' | 'Z' | ' ' => Score::Loss,
        other => return Err(format!("result {other:?}")),
    };
    let unplayed = matches!(result, '+' | '-' | 'H' | 'F' | 'U' | 'Z' | ' ');
    if unplayed && !matches!(result, '+' | '-') && opponent.is_some() {
        return Err(format!("result {result:?} against an opponent"));
    }
    let played = opponent.is_some() && colour.is_some() && !unplayed;
    if !unplayed && !played {
        return Err("a played game without an opponent or colour".into());
    }
    let paired = opponent.is_some() || matches!(result, 'U' | '+');
    Ok(Some(Round {
        opponent,
        colour: if opponent.is_some() { colour } else { None },
        score,
        played,
        paired,
    }))
}

/// Every game's two entries agree (opponents, opposite colours).
fn check_opponents(players: &[Player]) -> Result<(), String> {
    for (id, player) in players.iter().enumerate() {
        for (index, round) in player.rounds.iter().enumerate() {
            let Some(opponent) = round.opponent else {
                continue;
            };
            let theirs = players.get(opponent).and_then(|p| p.rounds.get(index));
            let agrees = theirs.is_some_and(|r| {
                r.opponent == Some(id)
                    && r.played == round.played
                    && (!round.played || r.colour != round.colour)
            });
            if !agrees {
                return Err(format!(
                    "TRF: round {} of player {} contradicts the opponent's entry",
                    index + 1,
                    id + 1
                ));
            }
        }
    }
    Ok(())
}

/// The colour of pairing number 1 in round 1 when no `XXC` says: from the first round with
/// colours, the first player paired by then (inverted for an odd position among them).
fn infer_initial_colour(t: &Tournament) -> Colour {
    let first = t
        .players
        .iter()
        .filter_map(|p| p.rounds.iter().position(|r| r.colour.is_some()))
        .min();
    let Some(first) = first else {
        return Colour::White;
    };
    let mut position = 0;
    for player in &t.players {
        if !player.rounds.iter().take(first + 1).any(|r| r.paired) {
            continue;
        }
        if let Some(colour) = player.rounds.get(first).and_then(|r| r.colour) {
            return if position % 2 == 1 {
                colour.flip()
            } else {
                colour
            };
        }
        position += 1;
    }
    Colour::White
}

/// One round's 10 columns (its two leading spaces included).
fn write_round(round: &Round) -> String {
    let Some(opponent) = round.opponent else {
        let code = if round.paired {
            'U'
        } else {
            match round.score {
                Score::Win => 'F',
                Score::Draw => 'H',
                Score::Loss => 'Z',
            }
        };
        return format!("  0000 - {code}");
    };
    let colour = match round.colour {
        Some(Colour::White) => 'w',
        Some(Colour::Black) => 'b',
        None => '-',
    };
    let result = match (round.played, round.score) {
        (true, Score::Win) => '1',
        (true, Score::Draw) => '=',
        (true, Score::Loss) => '0',
        (false, Score::Win) => '+',
        (false, _) => '-',
    };
    format!("  {:>4} {colour} {result}", opponent + 1)
}

/// A TRF of the tournament (CR line ends, as FIDE's programs write): `012` the name, `XXR`,
/// `XXC`, and a `001` line a player with points and rank by points.
pub fn write(t: &Tournament, name: &str) -> String {
    let scores: Vec<u32> = t
        .players
        .iter()
        .map(|p| p.rounds.iter().map(|r| t.points.of(r)).sum())
        .collect();
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(a.cmp(&b)));
    let mut rank = vec![0; t.players.len()];
    for (place, &id) in order.iter().enumerate() {
        rank[id] = place + 1;
    }
    let mut out = format!("012 {name}\r");
    out.push_str(&format!("XXR {}\r", t.total_rounds));
    let colour = if t.initial_colour == Colour::White {
        "white1"
    } else {
        "black1"
    };
    out.push_str(&format!("XXC {colour}\r"));
    let p = &t.points;
    let usual = Points {
        pairing_bye: p.win,
        ..Points::default()
    };
    let values = [
        p.win,
        p.draw,
        p.loss,
        p.zero_bye,
        p.forfeit_loss,
        p.pairing_bye,
    ];
    let defaults = [
        usual.win,
        usual.draw,
        usual.loss,
        usual.zero_bye,
        usual.forfeit_loss,
        usual.pairing_bye,
    ];
    for ((code, value), default) in POINT_CODES.iter().zip(values).zip(defaults) {
        if value != default {
            out.push_str(&format!("{code} {:>2}.{}\r", value / 10, value % 10));
        }
    }
    for &(a, b) in &t.forbidden {
        out.push_str(&format!("XXP {} {}\r", a + 1, b + 1));
    }
    for (id, player) in t.players.iter().enumerate() {
        let name: String = player.name.chars().take(33).collect();
        let rating = if player.rating > 0 {
            player.rating.to_string()
        } else {
            String::new()
        };
        let score = scores[id];
        let mut line = vec![' '; ROUNDS_START - 2];
        let mut put = |at: usize, text: &str| {
            for (offset, c) in text.chars().enumerate() {
                line[at + offset] = c;
            }
        };
        put(0, "001");
        put(4, &format!("{:>4}", id + 1));
        put(14, &name);
        put(48, &format!("{rating:>4}"));
        put(80, &format!("{:>2}.{}", score / 10, score % 10));
        put(85, &format!("{:>4}", rank[id]));
        let mut line: String = line.into_iter().collect();
        for round in &player.rounds {
            line.push_str(&write_round(round));
        }
        out.push_str(line.trim_end());
        out.push('\r');
    }
    out
}

/// The pairing as bbpPairings and JaVaFo print it (pairing numbers, the bye as `N 0`).
pub fn pairing_text(pairing: &RoundPairing) -> String {
    let count = pairing.pairs.len() + usize::from(pairing.bye.is_some());
    let mut out = format!("{count}\n");
    for &(white, black) in &pairing.pairs {
        out.push_str(&format!("{} {}\n", white + 1, black + 1));
    }
    if let Some(bye) = pairing.bye {
        out.push_str(&format!("{} 0\n", bye + 1));
    }
    out
}
