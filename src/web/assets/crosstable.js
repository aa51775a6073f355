// otau crosstable on the live page and `view`: the summary's `crosstable` (stats::crosstable,
// computed once by the arena; this only draws it), engines by engines, rows by points.
//
// CONTRACT (the browser tests read it; the HTML report's table, made in Rust by
// Crosstable::html, has the same shape): <table class="crosstable">, a row per engine
// <tr data-engine="NAME"> holding its rank, name, total (class "total": "points/games"), score
// share in percent and one cell per column engine: class "cell" with data-row and data-column
// (the two engines' names), text "points/games" of the row engine against the column engine,
// title "W-D-L w-d-l"; class "self" on the diagonal, class "unplayed" where the two have not
// met. Needs board.js, loaded before it (its `text`).
//
// API (window.OtauCrosstable):
//   render(box, crosstable) -> draws crosstable ({rows: [{name, total: {wins, draws, losses},
//                              cells: [null | {wins, draws, losses}]}]}) into box, replacing
//                              what it held; nothing when there are no rows.
(function () {
  "use strict";

  var text = window.OtauBoard.text;
  function points(w) { var p = w.wins + w.draws / 2; return p % 1 === 0 ? String(p) : p.toFixed(1); }
  function games(w) { return w.wins + w.draws + w.losses; }
  function cell(w) { return points(w) + "/" + games(w); }
  function wdl(w) { return "W-D-L " + w.wins + "-" + w.draws + "-" + w.losses; }

  function render(box, table) {
    while (box.firstChild) box.removeChild(box.firstChild);
    var rows = (table && table.rows) || [];
    if (!rows.length) return;
    box.appendChild(text("p", "Crosstable: rows by points; a cell is the row engine's points/games against the column's (wins, draws and losses on hover).", "note"));
    var t = text("table", null, "crosstable");
    var head = text("tr");
    ["#", "Engine", "Score", "%"].forEach(function (h) { head.appendChild(text("th", h)); });
    rows.forEach(function (_, j) { head.appendChild(text("th", j + 1)); });
    t.appendChild(head);
    rows.forEach(function (row, i) {
      var tr = text("tr");
      tr.setAttribute("data-engine", row.name);
      tr.appendChild(text("td", i + 1));
      var name = text("td", row.name, "name");
      name.style.textAlign = "left";
      tr.appendChild(name);
      var total = text("td", cell(row.total), "total");
      total.title = wdl(row.total);
      tr.appendChild(total);
      var n = games(row.total);
      tr.appendChild(text("td", n ? (100 * (row.total.wins + row.total.draws / 2) / n).toFixed(1) : "-"));
      row.cells.forEach(function (c, j) {
        var td;
        if (i === j) td = text("td", "\u2014", "self");
        else if (!c) td = text("td", "", "unplayed");
        else {
          td = text("td", cell(c), "cell");
          td.title = wdl(c);
          td.setAttribute("data-row", row.name);
          td.setAttribute("data-column", rows[j].name);
        }
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    box.appendChild(t);
  }

  window.OtauCrosstable = { render: render };
})();
