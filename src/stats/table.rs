//! Tables printed twice, as fixed-width text (the summary, `otau-arena ratings`) and as HTML (the
//! report): one column list serves both, so the two can never list different columns or figures.

use std::fmt::Write;

use super::svg::escape;

/// How a column is laid out.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// Right-aligned to at least this many characters (figures).
    Right(usize),
    /// Left-aligned to the longest cell, at least `min` characters (names); `class="name"` cells
    /// in HTML.
    Name {
        /// The narrowest the column is, in characters.
        min: usize,
    },
    /// Left-aligned and unpadded (a last column of free text); `class="name"` heading and cells
    /// in HTML.
    Free,
}

/// One column: its headings, layout, and what it shows of row number `i` (from 0).
pub struct Column<R> {
    /// Heading in the text table.
    pub text: &'static str,
    /// Heading in the HTML table (HTML: entities allowed).
    pub html: &'static str,
    /// How the column is aligned and padded.
    pub layout: Layout,
    /// What the text table puts before this column (after the previous one).
    pub gap: &'static str,
    /// The cell as plain text; `None` where the row has no figure.
    pub cell: fn(usize, &R) -> Option<String>,
}

/// A table's columns, and what its text shows for a missing figure (HTML shows a dash).
pub struct PrintedTable<R: 'static> {
    /// The columns, left to right.
    pub columns: &'static [Column<R>],
    /// What the text shows for a missing figure.
    pub missing: &'static str,
}

/// The widest a padded column is made, in characters: a cell longer than that is printed whole
/// and unpadded, so no text decides how much padding a table holds.
pub const MAX_WIDTH: usize = 200;

/// Writes `text` to `out` padded with spaces to `width` characters (at most [`MAX_WIDTH`]), on
/// the left when `right` aligns it right. Every text table pads through here: `format!`'s
/// `{:<width$}` panics for a width over 65,535 (a 65,536-character name ended every table so).
pub fn pad(out: &mut String, text: &str, width: usize, right: bool) {
    let fill = width.min(MAX_WIDTH).saturating_sub(text.chars().count());
    if right {
        out.extend(std::iter::repeat_n(' ', fill));
    }
    out.push_str(text);
    if !right {
        out.extend(std::iter::repeat_n(' ', fill));
    }
}

impl<R> PrintedTable<R> {
    /// Each row's cells; names ([`Layout::Name`]) as [`crate::names::shown`] prints them, since
    /// they may come from anyone's PGN.
    fn cells(&self, rows: &[R]) -> Vec<Vec<Option<String>>> {
        rows.iter()
            .enumerate()
            .map(|(i, r)| {
                self.columns
                    .iter()
                    .map(|c| {
                        let cell = (c.cell)(i, r);
                        match c.layout {
                            Layout::Name { .. } => {
                                cell.map(|s| crate::names::shown(&s).into_owned())
                            }
                            _ => cell,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Heading line, then a line per row, each ending in a newline.
    pub fn text(&self, rows: &[R]) -> String {
        let cells = self.cells(rows);
        let widths: Vec<usize> = self
            .columns
            .iter()
            .enumerate()
            .map(|(k, c)| match c.layout {
                Layout::Right(w) => w,
                Layout::Name { min } => cells
                    .iter()
                    .filter_map(|row| row[k].as_ref().map(|s| s.chars().count()))
                    .max()
                    .unwrap_or(min)
                    .max(min),
                Layout::Free => 0,
            })
            .collect();
        let mut out = String::new();
        let mut line = |texts: &mut dyn Iterator<Item = &str>| {
            for ((c, width), text) in self.columns.iter().zip(&widths).zip(texts) {
                out.push_str(c.gap);
                match c.layout {
                    Layout::Right(_) => pad(&mut out, text, *width, true),
                    Layout::Name { .. } => pad(&mut out, text, *width, false),
                    Layout::Free => out.push_str(text),
                }
            }
            out.push('\n');
        };
        line(&mut self.columns.iter().map(|c| c.text));
        for row in &cells {
            line(&mut row.iter().map(|s| s.as_deref().unwrap_or(self.missing)));
        }
        out
    }

    /// `<table>` with a heading row and a row per row, through `</table>` and a newline.
    pub fn html(&self, rows: &[R]) -> String {
        let mut out = String::from("<table>\n<tr>");
        for c in self.columns {
            let class = if matches!(c.layout, Layout::Free) {
                " class=\"name\""
            } else {
                ""
            };
            let _ = write!(out, "<th{class}>{}</th>", c.html);
        }
        out.push_str("</tr>\n");
        for row in self.cells(rows) {
            out.push_str("<tr>");
            for (c, cell) in self.columns.iter().zip(row) {
                let class = if matches!(c.layout, Layout::Right(_)) {
                    ""
                } else {
                    " class=\"name\""
                };
                let cell = cell.map_or_else(|| "&mdash;".to_string(), |s| escape(&s));
                let _ = write!(out, "<td{class}>{cell}</td>");
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: PrintedTable<(&str, Option<u32>)> = PrintedTable {
        columns: &[
            Column {
                text: "NAME",
                html: "Name",
                layout: Layout::Name { min: 4 },
                gap: "",
                cell: |_, r| Some(r.0.to_string()),
            },
            Column {
                text: "N",
                html: "N &plusmn;",
                layout: Layout::Right(3),
                gap: " : ",
                cell: |_, r| r.1.map(|n| n.to_string()),
            },
            Column {
                text: "NOTE",
                html: "Note",
                layout: Layout::Free,
                gap: "  ",
                cell: |i, _| Some(format!("row {i}")),
            },
        ],
        missing: "-",
    };

    /// Both renderings show the same columns and cells: text padded and aligned, with the
    /// table's marker for a missing figure; HTML escaped, with a dash for it.
    #[test]
    fn one_column_list_prints_text_and_html() {
        let rows = [("a<b", Some(7)), ("longer-name", None)];
        assert_eq!(
            T.text(&rows),
            "NAME        :   N  NOTE\na<b         :   7  row 0\nlonger-name :   -  row 1\n"
        );
        assert_eq!(
            T.html(&rows),
            "<table>\n<tr><th>Name</th><th>N &plusmn;</th><th class=\"name\">Note</th></tr>\n\
             <tr><td class=\"name\">a&lt;b</td><td>7</td><td class=\"name\">row 0</td></tr>\n\
             <tr><td class=\"name\">longer-name</td><td>&mdash;</td><td class=\"name\">row 1</td></tr>\n\
             </table>\n"
        );
        assert_eq!(T.text(&[]), "NAME :   N  NOTE\n");
    }

    /// A 65,536-character name (from someone's PGN) made `{:<width$}` panic: names are shown
    /// cut, widths bounded, and the table prints.
    #[test]
    fn any_name_prints_without_panic() {
        let long: &'static str = "n".repeat(65_536).leak();
        let text = T.text(&[(long, Some(1)), ("b\u{1b}", Some(2))]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        let shown = crate::names::shown(long);
        assert!(lines[1].starts_with(&*shown), "{}", lines[1]);
        assert!(lines[2].starts_with("b\\u{1b} "), "{}", lines[2]);
        assert!(lines.iter().all(|l| l.chars().count() < 100), "{text}");
        let mut out = String::new();
        pad(&mut out, "x", usize::MAX, true);
        assert_eq!(out.len(), MAX_WIDTH);
    }
}
