// otau Swiss standings on the live page and `view`: the state's `swiss` object (the summary
// event's, made by the arena's Swiss pairing after every round; this only draws it).
//
// CONTRACT (the tests read it; the HTML report's table, made in Rust by
// stats/report/swiss.rs, has the same shape): <table class="swiss-standings">, a header row
// (Rank, Engine, Points, one <th data-round="R"> "R1".. a round, one <th data-tiebreak="NAME">
// a tie-break, in the order of `swiss.tiebreaks`), then a row per engine in standings order
// <tr data-engine="NAME"> with <td class="rank">, <td class="name">, <td class="points"> (one
// decimal: "2.5"), a <td class="round" data-round="R"> a round: text "RANKcR" (the opponent's
// rank, colour w/b, result 1/=/0), "bye +" the bye, "- -" an absence; a round not played over
// the board (`played: false`, no opponent) shows +/h/-; attributes
// data-opponent (the opponent's name, when there is one), data-colour (w, b or empty),
// data-result (the mark); then a <td class="tiebreak" data-tiebreak="NAME"> a tie-break (the
// number's shortest form, as String(x) and Rust's Display write it: "4", "5.25"). A
// paragraph of class "stopped" says why the Swiss stopped, when it did. Needs board.js, loaded
// before it (its `text`).
//
// API (window.OtauSwiss):
//   render(box, swiss) -> draws swiss ({system, rounds, rounds_done, stopped, tiebreaks: [NAME],
//                         standings: [{engine, points, tiebreaks: {NAME: x}, rounds: [{opponent,
//                         colour, result, bye, played?}]}]}) into box, replacing what it held;
//                         nothing when it is null.
(function () {
  "use strict";

  var text = window.OtauBoard.text;
  function number(x) { return typeof x === "number" && isFinite(x) ? String(x) : "-"; }

  function mark(r) {
    var played = r.played !== false && r.opponent != null;
    if (r.result >= 1) return played ? "1" : "+";
    if (r.result > 0) return played ? "=" : "h";
    return played ? "0" : "-";
  }

  function cell(k, r, rankOf) {
    var m = mark(r);
    var colour = r.colour === "white" ? "w" : r.colour === "black" ? "b" : "";
    var shown;
    if (r.opponent != null) shown = (rankOf.has(r.opponent) ? rankOf.get(r.opponent) : "?") + colour + m;
    else shown = (r.bye ? "bye " : "- ") + m;
    var td = text("td", shown, "round");
    td.setAttribute("data-round", String(k + 1));
    if (r.opponent != null) td.setAttribute("data-opponent", r.opponent);
    td.setAttribute("data-colour", colour);
    td.setAttribute("data-result", m);
    return td;
  }

  function render(box, swiss) {
    while (box.firstChild) box.removeChild(box.firstChild);
    if (!swiss) return;
    var rows = swiss.standings || [];
    var tiebreaks = swiss.tiebreaks || [];
    var rounds = 0;
    var rankOf = new Map(); // by name: any name, "__proto__" too
    rows.forEach(function (row, k) {
      rounds = Math.max(rounds, (row.rounds || []).length);
      rankOf.set(row.engine, k + 1);
    });
    box.appendChild(text("h3", "Swiss standings"));
    box.appendChild(text("p", (swiss.system || "Swiss") + ": " + number(swiss.rounds_done) + " of " + number(swiss.rounds) +
      " rounds played. Rows by points, then the tie-breaks from left to right; a round's cell is the opponent's rank, " +
      "the colour (w: South, moving first; b: North) and the result (1, =, 0; bye + the bye).", "note"));
    if (swiss.stopped) box.appendChild(text("p", "Stopped: " + swiss.stopped, "stopped"));
    var t = text("table", null, "swiss-standings");
    var head = text("tr");
    head.appendChild(text("th", "Rank"));
    head.appendChild(text("th", "Engine", "name"));
    head.appendChild(text("th", "Points"));
    for (var r = 0; r < rounds; r++) {
      var th = text("th", "R" + (r + 1));
      th.setAttribute("data-round", String(r + 1));
      head.appendChild(th);
    }
    tiebreaks.forEach(function (name) {
      var th = text("th", name);
      th.setAttribute("data-tiebreak", name);
      head.appendChild(th);
    });
    t.appendChild(head);
    rows.forEach(function (row, k) {
      var tr = text("tr");
      tr.setAttribute("data-engine", row.engine);
      tr.appendChild(text("td", k + 1, "rank"));
      tr.appendChild(text("td", row.engine, "name"));
      tr.appendChild(text("td", typeof row.points === "number" ? row.points.toFixed(1) : "-", "points"));
      var played = row.rounds || [];
      for (var r = 0; r < rounds; r++) {
        if (played[r]) tr.appendChild(cell(r, played[r], rankOf));
        else {
          var empty = text("td", "", "round");
          empty.setAttribute("data-round", String(r + 1));
          tr.appendChild(empty);
        }
      }
      tiebreaks.forEach(function (name) {
        var td = text("td", number((row.tiebreaks || {})[name]), "tiebreak");
        td.setAttribute("data-tiebreak", name);
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    box.appendChild(t);
  }

  window.OtauSwiss = { render: render };
})();
