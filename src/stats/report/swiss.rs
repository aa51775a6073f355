//! The HTML report's Swiss section: the standings with their tie-breaks and the crosstable, drawn
//! from the `swiss` object of the summary event (`arena::pairing::swiss`'s JSON), the object the
//! live page draws too (`web/assets/swiss.js`, whose header is the table's contract: the same
//! classes, attributes and texts).
//!
//! One table, a row per engine in standings order: rank, name, points, a cell a round (the
//! opponent's rank, colour `w`/`b` and result `1`/`=`/`0`; `bye +` the bye; `- -` an
//! absence), then the tie-breaks in the order the JSON's `tiebreaks` lists them, headed
//! by their names: a list of tie-breaks chosen otherwise is drawn as it comes. Its size is the
//! engines times the rounds.

use std::collections::HashMap;
use std::fmt::Write;

use serde_json::Value;

use super::escape;

/// A number as the pages show it: its shortest form (`12`, `12.5`, `5.25`), as JavaScript's
/// `String(x)` writes it.
pub(super) fn number(v: &Value) -> String {
    match v.as_f64() {
        Some(x) if x.is_finite() => format!("{x}"),
        _ => "-".to_string(),
    }
}

/// Points with their one decimal (`3.0`, `2.5`), as the text table shows them.
pub(super) fn points(v: &Value) -> String {
    match v.as_f64() {
        Some(x) if x.is_finite() => format!("{x:.1}"),
        _ => "-".to_string(),
    }
}

/// A round's cell: its text and attributes (`data-round`, `data-opponent`, `data-colour`,
/// `data-result`), as `swiss.js` makes it.
fn cell(round: usize, r: &Value, rank_of: &HashMap<&str, usize>) -> String {
    let result = r["result"].as_f64().unwrap_or(0.0);
    // A round not played over the board (the bye, an absence, `played: false` as a forfeit)
    // shows `+`/`h`/`-`.
    let played = r["played"].as_bool().unwrap_or(true) && r["opponent"].is_string();
    let mark = match (played, result) {
        (true, x) if x >= 1.0 => "1",
        (true, x) if x > 0.0 => "=",
        (true, _) => "0",
        (false, x) if x >= 1.0 => "+",
        (false, x) if x > 0.0 => "h",
        (false, _) => "-",
    };
    let colour = match r["colour"].as_str() {
        Some("white") => "w",
        Some("black") => "b",
        _ => "",
    };
    let opponent = r["opponent"].as_str();
    let shown = match opponent {
        Some(name) => {
            let rank = rank_of.get(name).map_or("?".to_string(), |k| k.to_string());
            format!("{rank}{colour}{mark}")
        }
        None if r["bye"].as_bool() == Some(true) => format!("bye {mark}"),
        None => format!("- {mark}"),
    };
    let mut td = format!("<td class=\"round\" data-round=\"{}\"", round + 1);
    if let Some(name) = opponent {
        let _ = write!(td, " data-opponent=\"{}\"", escape(name));
    }
    let _ = write!(
        td,
        " data-colour=\"{colour}\" data-result=\"{mark}\">{}</td>",
        escape(&shown)
    );
    td
}

/// The section's body for the summary's `swiss` object.
pub(super) fn swiss_html(swiss: &Value) -> String {
    let empty = Vec::new();
    let rows = swiss["standings"].as_array().unwrap_or(&empty);
    let tiebreaks: Vec<&str> = swiss["tiebreaks"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let rounds = rows
        .iter()
        .map(|r| r["rounds"].as_array().map_or(0, Vec::len))
        .max()
        .unwrap_or(0);
    let rank_of: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .filter_map(|(k, r)| r["engine"].as_str().map(|n| (n, k + 1)))
        .collect();
    let mut html = String::new();
    let _ = writeln!(
        html,
        "<p class=\"note\">{}: {} of {} rounds played. Rows by points, then the tie-breaks from left to right; a round's cell is the opponent's rank, the colour (w: South, moving first; b: North) and the result (1, =, 0; bye + the bye).</p>",
        escape(swiss["system"].as_str().unwrap_or("Swiss")),
        number(&swiss["rounds_done"]),
        number(&swiss["rounds"])
    );
    if let Some(why) = swiss["stopped"].as_str() {
        let _ = writeln!(html, "<p class=\"stopped\">Stopped: {}</p>", escape(why));
    }
    html.push_str("<table class=\"swiss-standings\">\n<tr><th>Rank</th><th class=\"name\">Engine</th><th>Points</th>");
    for r in 0..rounds {
        let _ = write!(html, "<th data-round=\"{}\">R{}</th>", r + 1, r + 1);
    }
    for tb in &tiebreaks {
        let _ = write!(
            html,
            "<th data-tiebreak=\"{}\">{}</th>",
            escape(tb),
            escape(tb)
        );
    }
    html.push_str("</tr>\n");
    for (k, row) in rows.iter().enumerate() {
        let name = row["engine"].as_str().unwrap_or("?");
        let _ = write!(
            html,
            "<tr data-engine=\"{}\"><td class=\"rank\">{}</td><td class=\"name\">{}</td><td class=\"points\">{}</td>",
            escape(name),
            k + 1,
            escape(name),
            points(&row["points"])
        );
        let played = row["rounds"].as_array().unwrap_or(&empty);
        for r in 0..rounds {
            match played.get(r) {
                Some(v) => html.push_str(&cell(r, v, &rank_of)),
                None => {
                    let _ = write!(html, "<td class=\"round\" data-round=\"{}\"></td>", r + 1);
                }
            }
        }
        for tb in &tiebreaks {
            let _ = write!(
                html,
                "<td class=\"tiebreak\" data-tiebreak=\"{}\">{}</td>",
                escape(tb),
                number(&row["tiebreaks"][*tb])
            );
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</table>");
    html
}
