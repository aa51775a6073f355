//! The crosstable: engines by engines, each cell the row engine's score against the column
//! engine, as chess tournament tables print it. Computed once, from the per-pairing counts
//! ([`MatchStats::wdl`], what a run keeps whether it holds every game or only counts), and
//! printed three times: the end-of-run text ([`Crosstable::text`]), the HTML report
//! ([`Crosstable::html`]) and the live page (`web/assets/crosstable.js`, from the summary's
//! JSON).
//!
//! Rows: every engine that played at least one game (an engine of the run that has not played
//! yet, or a gauntlet opponent of a shard that never met the first engine, has no row), ordered
//! by points, then by score share (an engine with fewer games, as a gauntlet's opponents have,
//! ranks by how well it scored), then in the order the engines were given. Columns are the
//! same engines in the same order, numbered by rank. The rules per tournament kind are in
//! `protocol/statistics.md`, "Crosstable".

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::elo::Wdl;
use super::summary::MatchStats;
use super::svg::escape;
use super::table::pad;
use crate::names::shown;

/// One engine's row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrosstableRow {
    /// The engine's name.
    pub name: String,
    /// All its games: wins, draws and losses.
    pub total: Wdl,
    /// Its games against the engine of each row, in row order: `None` against itself and
    /// against an engine it has not met.
    pub cells: Vec<Option<Wdl>>,
}

/// The crosstable of a run (no rows: no games).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Crosstable {
    /// One row an engine, most points first.
    pub rows: Vec<CrosstableRow>,
}

/// Points as tables write them: `3`, `3.5` (points are whole or halves).
pub fn points_text(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// A cell: the row engine's points and the games, `3.5/6`.
pub fn cell_text(wdl: &Wdl) -> String {
    format!("{}/{}", points_text(wdl.points()), wdl.games())
}

impl Crosstable {
    /// The crosstable of the pairings `matches` (each from its `first` engine's side), engines
    /// given in `players` order (the tie-break of last resort).
    pub fn from_matches(players: &[String], matches: &[MatchStats]) -> Crosstable {
        let index = |name: &str| players.iter().position(|p| p == name);
        let n = players.len();
        // Per ordered pair (row, column), the row's results; pairings naming an engine outside
        // `players` cannot occur (the summary lists every engine of its games) and are left out.
        let mut grid: Vec<Vec<Option<Wdl>>> = vec![vec![None; n]; n];
        for m in matches {
            let (Some(a), Some(b)) = (index(&m.first), index(&m.second)) else {
                continue;
            };
            if a == b || m.wdl.games() == 0 {
                continue;
            }
            grid[a][b].get_or_insert_with(Wdl::default).merge(&m.wdl);
            grid[b][a]
                .get_or_insert_with(Wdl::default)
                .merge(&m.wdl.reversed());
        }
        let total = |i: usize| {
            let mut t = Wdl::default();
            for cell in grid[i].iter().flatten() {
                t.merge(cell);
            }
            t
        };
        let mut order: Vec<usize> = (0..n).filter(|&i| total(i).games() > 0).collect();
        // Stable: equal points and shares keep the given order.
        order.sort_by(|&i, &j| {
            let (ti, tj) = (total(i), total(j));
            tj.points()
                .total_cmp(&ti.points())
                .then(tj.score().total_cmp(&ti.score()))
        });
        let rows = order
            .iter()
            .map(|&i| CrosstableRow {
                name: players[i].clone(),
                total: total(i),
                cells: order.iter().map(|&j| grid[i][j]).collect(),
            })
            .collect();
        Crosstable { rows }
    }

    /// The text table: a heading line, then a row per engine, `rank name score % cells...`;
    /// a dash for an engine against itself, a dot for a pairing that has not played. Empty
    /// when no game finished.
    pub fn text(&self) -> String {
        if self.rows.is_empty() {
            return String::new();
        }
        let names: Vec<String> = self
            .rows
            .iter()
            .map(|r| shown(&r.name).into_owned())
            .collect();
        let name_width = names
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let scores: Vec<String> = self.rows.iter().map(|r| cell_text(&r.total)).collect();
        let score_width = scores.iter().map(String::len).max().unwrap_or(0).max(5);
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.cells
                    .iter()
                    .enumerate()
                    .map(|(j, c)| match c {
                        _ if i == j => "-".to_string(),
                        Some(wdl) => cell_text(wdl),
                        None => ".".to_string(),
                    })
                    .collect()
            })
            .collect();
        let cell_width = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(0)
            .max(self.rows.len().to_string().len());
        let mut out = String::new();
        pad(&mut out, "#", 3, true);
        out.push_str("  ");
        pad(&mut out, "Engine", name_width, false);
        out.push_str("  ");
        pad(&mut out, "Score", score_width, true);
        out.push_str("      %");
        for j in 1..=self.rows.len() {
            out.push_str("  ");
            pad(&mut out, &j.to_string(), cell_width, true);
        }
        out.push('\n');
        for (i, row) in self.rows.iter().enumerate() {
            pad(&mut out, &(i + 1).to_string(), 3, true);
            out.push_str("  ");
            pad(&mut out, &names[i], name_width, false);
            out.push_str("  ");
            pad(&mut out, &scores[i], score_width, true);
            out.push_str("  ");
            pad(&mut out, &share_text(&row.total), 5, true);
            for cell in &cells[i] {
                out.push_str("  ");
                pad(&mut out, cell, cell_width, true);
            }
            out.push('\n');
        }
        out
    }

    /// The HTML table (`<table class="crosstable">`), the same figures as [`Crosstable::text`];
    /// each cell's `title` gives its wins, draws and losses, and `data-row`/`data-column` name
    /// its engines (the browser tests read them).
    pub fn html(&self) -> String {
        if self.rows.is_empty() {
            return "<p class=\"note\">No finished games.</p>\n".to_string();
        }
        let mut out = String::from("<table class=\"crosstable\">\n<tr><th>#</th><th class=\"name\">Engine</th><th>Score</th><th>%</th>");
        for j in 1..=self.rows.len() {
            let _ = write!(out, "<th>{j}</th>");
        }
        out.push_str("</tr>\n");
        for (i, row) in self.rows.iter().enumerate() {
            let name = escape(&shown(&row.name));
            let _ = write!(
                out,
                "<tr data-engine=\"{name}\"><td>{}</td><td class=\"name\">{name}</td><td class=\"total\" title=\"{}\">{}</td><td>{}</td>",
                i + 1,
                wdl_title(&row.total),
                cell_text(&row.total),
                share_text(&row.total)
            );
            for (j, cell) in row.cells.iter().enumerate() {
                let column = escape(&shown(&self.rows[j].name));
                match cell {
                    _ if i == j => out.push_str("<td class=\"self\">&mdash;</td>"),
                    Some(wdl) => {
                        let _ = write!(
                            out,
                            "<td class=\"cell\" data-row=\"{name}\" data-column=\"{column}\" title=\"{}\">{}</td>",
                            wdl_title(wdl),
                            cell_text(wdl)
                        );
                    }
                    None => out.push_str("<td class=\"unplayed\"></td>"),
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        out
    }
}

/// The score share in percent, one decimal.
fn share_text(wdl: &Wdl) -> String {
    format!("{:.1}", 100.0 * wdl.score())
}

/// `W-D-L 3-1-2`, a cell's tooltip.
fn wdl_title(wdl: &Wdl) -> String {
    format!("W-D-L {}-{}-{}", wdl.wins, wdl.draws, wdl.losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Outcome, Side};
    use crate::stats::game::test_game as game;
    use crate::stats::game::GameStats;
    use crate::stats::summary::{pair_trackers, player_order};

    fn table(games: &[GameStats], given: &[&str]) -> Crosstable {
        let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
        let players = player_order(games, &given);
        let matches: Vec<MatchStats> = pair_trackers(games, &players)
            .iter()
            .map(MatchStats::from_tracker)
            .collect();
        Crosstable::from_matches(&players, &matches)
    }

    /// Rows by points, each cell the row's score against the column, both halves of a pairing
    /// mirrored; an engine with no game has no row.
    #[test]
    fn rows_by_points_cells_mirrored() {
        use Outcome::*;
        use Side::*;
        let games = vec![
            game(0, "a", "b", Win(North)),
            game(0, "b", "a", Draw),
            game(0, "a", "c", Win(South)),
            game(0, "c", "a", Win(North)),
            game(0, "b", "c", Win(South)),
            game(0, "c", "b", Draw),
        ];
        let t = table(&games, &["a", "b", "c", "idle"]);
        let names: Vec<&str> = t.rows.iter().map(|r| r.name.as_str()).collect();
        // b: 1.5 + 1.5 = 3; a: 0.5 + 2 = 2.5; c: 0 + 0.5 = 0.5.
        assert_eq!(names, ["b", "a", "c"]);
        assert_eq!(
            t.rows[0].total,
            Wdl {
                wins: 2,
                draws: 2,
                losses: 0
            }
        );
        assert_eq!(
            t.rows[0].cells[1],
            Some(Wdl {
                wins: 1,
                draws: 1,
                losses: 0
            })
        );
        assert_eq!(
            t.rows[1].cells[0],
            Some(Wdl {
                wins: 0,
                draws: 1,
                losses: 1
            })
        );
        assert_eq!(t.rows[0].cells[0], None);
        let text = t.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  #  Engine  Score      %      1      2      3");
        assert_eq!(lines[1], "  1  b         3/4   75.0      -  1.5/2  1.5/2");
        assert_eq!(lines[2], "  2  a       2.5/4   62.5  0.5/2      -    2/2");
        assert_eq!(lines[3], "  3  c       0.5/4   12.5  0.5/2    0/2      -");
        let html = t.html();
        assert!(
            html.contains("<td class=\"cell\" data-row=\"a\" data-column=\"c\" title=\"W-D-L 2-0-0\">2/2</td>"),
            "{html}"
        );
        assert_eq!(html.matches("<tr data-engine=").count(), 3);
    }

    /// A gauntlet: the opponents met only the first engine; their cells against each other are
    /// unplayed.
    #[test]
    fn gauntlet_leaves_unplayed_cells() {
        use Outcome::*;
        use Side::*;
        let games = vec![
            game(0, "g", "x", Win(South)),
            game(0, "x", "g", Win(South)),
            game(0, "g", "y", Draw),
            game(0, "y", "g", Win(North)),
        ];
        let t = table(&games, &["g", "x", "y"]);
        let names: Vec<&str> = t.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["g", "x", "y"]);
        assert_eq!(t.rows[1].cells[2], None);
        assert!(
            t.text()
                .lines()
                .nth(2)
                .unwrap()
                .ends_with("1/2      -      ."),
            "{}",
            t.text()
        );
        assert_eq!(Crosstable::default().text(), "");
    }
}
