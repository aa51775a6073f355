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
    Name { min: usize },
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
    pub layout: Layout,
    /// What the text table puts before this column (after the previous one).
    pub gap: &'static str,
    /// The cell as plain text; `None` where the row has no figure.
    pub cell: fn(usize, &R) -> Option<String>,
}

/// A table's columns, and what its text shows for a missing figure (HTML shows a dash).
pub struct PrintedTable<R: 'static> {
    pub columns: &'static [Column<R>],
    pub missing: &'static str,
}

impl<R> PrintedTable<R> {
    fn cells(&self, rows: &[R]) -> Vec<Vec<Option<String>>> {
        rows.iter()
            .enumerate()
            .map(|(i, r)| self.columns.iter().map(|c| (c.cell)(i, r)).collect())
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
                let _ = match c.layout {
                    Layout::Right(_) => write!(out, "{text:>width$}"),
                    Layout::Name { .. } => write!(out, "{text:<width$}"),
                    Layout::Free => write!(out, "{text}"),
                };
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
}
