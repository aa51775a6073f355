//! A Swiss's standings in the browser: the table `view`'s page draws (assets/swiss.js) and the
//! one the HTML report holds (made in Rust) show the summary's standings, cell for cell.

use super::WAIT;
use crate::support::arena::{arena, scratch, ARENA};
use crate::support::browser::{screenshot_path, Browser, Served};
use crate::web_swiss::{builtin_swiss, expected_rows, summary_swiss, Row};

/// The rows of the page's `table.swiss-standings`: engine, rank, points, round cells, tie-break
/// values; with the tie-breaks' column names.
fn shown_rows(b: &Browser) -> (Vec<Row>, Vec<String>) {
    let v = b.execute(
        "const t = document.querySelector('table.swiss-standings'); if (!t) return null; \
         return [Array.from(t.querySelectorAll('th[data-tiebreak]'), th => th.getAttribute('data-tiebreak')), \
           Array.from(t.querySelectorAll('tr[data-engine]'), tr => [tr.getAttribute('data-engine'), \
           tr.querySelector('.rank').textContent, tr.querySelector('.name').textContent, \
           tr.querySelector('.points').textContent, \
           Array.from(tr.querySelectorAll('td.round'), td => td.textContent), \
           Array.from(tr.querySelectorAll('td.tiebreak'), td => td.textContent)])]",
        serde_json::json!([]),
    );
    if v.is_null() {
        return (Vec::new(), Vec::new());
    }
    let heads = v[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect();
    let rows = v[1]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let name = r[0].as_str().unwrap().to_string();
            assert_eq!(
                r[1].as_str(),
                Some((k + 1).to_string().as_str()),
                "rank: {r}"
            );
            assert_eq!(r[2].as_str(), Some(name.as_str()), "the name as text: {r}");
            let cells = r[4]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            let values = r[5]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().parse().unwrap())
                .collect();
            (name, r[3].as_str().unwrap().to_string(), cells, values)
        })
        .collect();
    (rows, heads)
}

/// [`shown_rows`] once the page shows `n` rows (a generous deadline: the page may still load).
fn wait_rows(b: &Browser, what: &str, n: usize) -> (Vec<Row>, Vec<String>) {
    b.wait_until(what, WAIT, |b| {
        let (rows, heads) = shown_rows(b);
        if rows.len() == n {
            Ok((rows, heads))
        } else {
            Err(format!("{} rows", rows.len()))
        }
    })
}

pub(super) fn swiss_standings(b: &Browser) {
    let dir = scratch("browser-swiss");
    let args = builtin_swiss(&["--out", "r.jsonl", "--report", "r.html", "-q"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = arena(&args, &dir);
    assert_eq!(code, 0, "{err}");
    let swiss = summary_swiss(&dir.join("r.jsonl"));
    let expected = expected_rows(&swiss);
    let order: Vec<String> = swiss["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let view = Served::start(
        ARENA,
        &["view", "r.jsonl", "--addr", "127.0.0.1:0"],
        &dir,
        WAIT,
    );
    b.goto(&view.url);
    let (rows, heads) = wait_rows(b, "the Swiss standings on the page", expected.len());
    assert_eq!(rows, expected, "view's page");
    assert_eq!(heads, order, "view's page");
    b.screenshot(&screenshot_path("swiss-standings-view"));
    drop(view);
    b.goto(&format!("file://{}", dir.join("r.html").display()));
    let (rows, heads) = wait_rows(b, "the Swiss standings in the report", expected.len());
    assert_eq!(rows, expected, "the report");
    assert_eq!(heads, order, "the report");
    b.execute(
        "document.getElementById('swiss').scrollIntoView()",
        serde_json::json!([]),
    );
    b.screenshot(&screenshot_path("swiss-standings-report"));
    let _ = std::fs::remove_dir_all(&dir);
}
