//! A knockout's bracket for people and programs: the text after the summary and in the HTML
//! report, and the summary's `knockout` object.

use crate::arena::pairing::knockout::{Bracket, Decided};
use crate::names::shown;
use crate::stats::table::pad;

impl Bracket {
    /// The bracket as text: a block per round, an encounter a line, then the champion.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let r = &self.rules;
        let mut out = format!(
            "Knockout: {} engines, {} pair(s) an encounter, ties: up to {} more pair(s), then a \
             draw seeded by --seed {}\n",
            r.names.len(),
            r.pairs,
            r.tiebreak_pairs,
            r.seed
        );
        let name =
            |i: Option<usize>| i.map_or("bye".to_string(), |i| shown(&r.names[i]).into_owned());
        let width = r
            .names
            .iter()
            .map(|n| shown(n).chars().count())
            .max()
            .unwrap_or(3)
            .max(3);
        for (k, round) in self.rounds.iter().enumerate() {
            let _ = writeln!(out, "{}", round_name(k, self.total_rounds()));
            for e in round {
                let [a, b] = e.seats;
                let score = match e.playing() {
                    Some(_) => format!(
                        "{} - {}",
                        points(e.half_points[0]),
                        points(e.half_points[1])
                    ),
                    None => String::new(),
                };
                let verdict = match e.winner {
                    Some((w, Decided::Bye)) => format!("{} goes on (bye)", shown(&r.names[w])),
                    Some((w, Decided::Games)) => format!("{} wins", shown(&r.names[w])),
                    Some((w, Decided::Tiebreak)) => format!(
                        "{} wins after {} tiebreak pair(s)",
                        shown(&r.names[w]),
                        e.tiebreak_played
                    ),
                    Some((w, Decided::Draw)) if e.tiebreak_played == 0 => {
                        format!("{} wins by the seeded draw (level)", shown(&r.names[w]))
                    }
                    Some((w, Decided::Draw)) => format!(
                        "{} wins by the seeded draw (level after {} tiebreak pair(s))",
                        shown(&r.names[w]),
                        e.tiebreak_played
                    ),
                    None => "not decided".to_string(),
                };
                out.push_str("  ");
                pad(&mut out, &name(a), width, false);
                let _ = write!(out, "  {score:^11}  ");
                pad(&mut out, &name(b), width, false);
                let _ = writeln!(out, "  {verdict}");
            }
        }
        match self.champion() {
            Some(c) => {
                let _ = writeln!(out, "Winner: {}", shown(&r.names[c]));
            }
            None => out.push_str("Winner: not decided yet\n"),
        }
        out
    }

    /// Rounds the whole bracket has: log2 of its size.
    fn total_rounds(&self) -> usize {
        self.rounds[0].len().trailing_zeros() as usize + 1
    }

    /// The bracket as JSON: the summary's `knockout` object.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let r = &self.rules;
        let name = |i: Option<usize>| i.map(|i| r.names[i].clone());
        let rounds: Vec<serde_json::Value> = self
            .rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|e| {
                        serde_json::json!({
                            "engines": [name(e.seats[0]), name(e.seats[1])],
                            "points": [
                                f64::from(e.half_points[0]) / 2.0,
                                f64::from(e.half_points[1]) / 2.0
                            ],
                            "pairs": e.pairs_played,
                            "tiebreak_pairs": e.tiebreak_played,
                            "winner": name(e.winner.map(|w| w.0)),
                            "decided": e.winner.map(|w| w.1),
                        })
                    })
                    .collect()
            })
            .collect();
        serde_json::json!({
            "pairs_per_encounter": r.pairs,
            "tiebreak_pairs": r.tiebreak_pairs,
            "rounds": rounds,
            "winner": name(self.champion()),
        })
    }
}

/// `Final`, `Semi-final`, `Quarter-final`, or `Round k`.
fn round_name(k: usize, total: usize) -> String {
    match total - k {
        1 => "Final".into(),
        2 => "Semi-finals".into(),
        3 => "Quarter-finals".into(),
        _ => format!("Round {}", k + 1),
    }
}

/// Half-points as points: `2`, `2.5`.
pub(super) fn points(half: u32) -> String {
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}
