// otau game viewer: replays one game move by move (buttons first, prev, next, last and the
// arrow keys Left and Right, Home and End), each move said in words (who played which hole, the
// engine's score in stones from South's view, depth and time), and a Giuthi relay lap by lap
// (buttons lap-prev, lap-next and the arrow keys Up and Down). Used by the live page, the view
// page and the HTML report. Needs board.js. Contract: board.js's header.
//
// API (window.OtauViewer):
//   show(section, game) renders `game` (the JSON of /game?n=N, or an element of the report's
//   embedded list: {game, id, south, north, result, termination, positions: [{position,
//   move, side, notation, comment, book, score, depth, time_ms, laps, laps_total}], error})
//   into `section`, at its last ply.
(function () {
  "use strict";
  var current = null;

  var text = window.OtauBoard.text;

  function show(section, game) {
    while (section.firstChild) section.removeChild(section.firstChild);
    section.hidden = false;
    section.setAttribute("data-game", String(game.game));
    section.appendChild(text("h2", "Game " + game.game + ": " + game.south + " (South) vs " + game.north +
      " (North)  " + game.result + " (" + game.termination + ")"));
    var names = { s: game.south, n: game.north };
    var controls = text("div", null, "controls");
    var buttons = {};
    [["first", "|<"], ["prev", "<"], ["next", ">"], ["last", ">|"]].forEach(function (b) {
      var button = text("button", b[1]);
      button.id = b[0];
      button.type = "button";
      buttons[b[0]] = button;
      controls.appendChild(button);
    });
    var where = text("span", "", "where");
    controls.appendChild(where);
    var close = text("button", "close");
    close.type = "button";
    controls.appendChild(close);
    section.appendChild(controls);
    // A Giuthi relay's laps: shown for a ply whose move has them.
    var lapBar = text("div", null, "laps");
    var lapButtons = {};
    [["lap-prev", "lap <"], ["lap-next", "lap >"]].forEach(function (b) {
      var button = text("button", b[1]);
      button.id = b[0];
      button.type = "button";
      lapButtons[b[0]] = button;
      lapBar.appendChild(button);
    });
    var lapWhere = text("span", "", "lap-where");
    lapBar.appendChild(lapWhere);
    section.appendChild(lapBar);
    var holder = text("div");
    section.appendChild(holder);
    var comment = text("div", "", "comment");
    section.appendChild(comment);
    section.appendChild(text("p", window.OtauBoard.SCORE_NOTE, "score-note"));
    if (game.error) section.appendChild(text("p", "The record stops here: " + game.error));
    // The evaluation graph (graph.js), when the page has it: a click on it goes to that ply.
    var graph = window.OtauGraph ? window.OtauGraph.render(game, function (to) { go(to); }) : null;
    if (graph) section.appendChild(graph);
    var positions = game.positions || [];
    var last = positions.length - 1;
    var ply = last;
    // The lap shown of the ply's move (1..laps), or 0 for the board the move left.
    var lap = 0;
    // Plies count from the game's start position, the opening's included, as every games table
    // and the PGN's PlyCount count them; say how many of them the opening played.
    var opening = positions.filter(function (p) { return p.book; }).length;
    var openingNote = opening > 0 ? " (" + opening + " from the opening)" : "";

    function lapsOf(at) { return (positions[at] && positions[at].laps) || []; }

    function draw() {
      var p = positions[ply];
      var laps = lapsOf(ply);
      var view = { position: p.position, ply: ply, names: names };
      if (ply > 0) view.last = { side: p.side, move: p.move };
      if (lap > 0) {
        view.position = laps[lap - 1];
        view.lap = { k: lap, of: p.laps_total || laps.length, move: p.move };
      }
      while (holder.firstChild) holder.removeChild(holder.firstChild);
      holder.appendChild(window.OtauBoard.render(view));
      where.textContent = " ply " + ply + " of " + last + openingNote + "  ";
      comment.textContent = ply > 0 ? "ply " + ply + ", " + window.OtauBoard.moveWords(p, names) : "start position";
      buttons.first.disabled = buttons.prev.disabled = ply === 0 && lap === 0;
      buttons.next.disabled = buttons.last.disabled = ply === last && lap === 0;
      lapBar.hidden = laps.length === 0;
      if (laps.length) {
        var cut = p.laps_total ? " (the first " + laps.length + " shown)" : "";
        lapWhere.textContent = lap > 0
          ? " " + window.OtauBoard.lapWords({ k: lap, of: p.laps_total || laps.length, move: p.move }, p.side) + cut
          : " the board after all " + (p.laps_total || laps.length) + " laps" +
            " and captures; step through the relay with lap < and lap >";
        lapButtons["lap-prev"].disabled = lap === 1;
        lapButtons["lap-next"].disabled = false;
      }
      if (graph) window.OtauGraph.mark(graph, ply);
    }
    function go(to) {
      ply = Math.max(0, Math.min(last, to));
      lap = 0;
      draw();
    }
    // Laps of the shown ply's move: lap-next from the move's board starts the relay at lap 1,
    // and after the last lap comes the move's board again; lap-prev goes back to lap 1.
    function stepLap(by) {
      var n = lapsOf(ply).length;
      if (!n) return;
      if (by > 0) lap = lap === 0 ? 1 : (lap >= n ? 0 : lap + 1);
      else lap = lap === 0 ? n : Math.max(1, lap - 1);
      draw();
    }
    lapButtons["lap-prev"].onclick = function () { stepLap(-1); };
    lapButtons["lap-next"].onclick = function () { stepLap(1); };
    buttons.first.onclick = function () { go(0); };
    buttons.prev.onclick = function () { go(ply - 1); };
    buttons.next.onclick = function () { go(ply + 1); };
    buttons.last.onclick = function () { go(last); };
    close.onclick = function () { section.hidden = true; current = null; };
    current = { go: go, stepLap: stepLap, ply: function () { return ply; }, last: last, section: section };
    if (last >= 0) draw();
  }

  document.addEventListener("keydown", function (e) {
    if (!current || current.section.hidden) return;
    var k = e.key;
    if (k === "ArrowLeft") current.go(current.ply() - 1);
    else if (k === "ArrowRight") current.go(current.ply() + 1);
    else if (k === "Home") current.go(0);
    else if (k === "End") current.go(current.last);
    else if (k === "ArrowDown") current.stepLap(1);
    else if (k === "ArrowUp") current.stepLap(-1);
    else return;
    e.preventDefault();
  });

  // The report: games embedded as JSON in <script type="application/json" id="otau-games">,
  // listed in #otau-game-list as rows of class "finished-game".
  function embedded() {
    var data = document.getElementById("otau-games");
    var list = document.getElementById("otau-game-list");
    var section = document.getElementById("viewer");
    if (!data || !list || !section) return;
    var games = JSON.parse(data.textContent);
    games.forEach(function (g) {
      var row = text("tr", null, "finished-game");
      row.setAttribute("data-game", String(g.game));
      [g.game, g.south, g.north, g.result, g.termination, g.plies].forEach(function (v) {
        row.appendChild(text("td", v));
      });
      row.onclick = function () { show(section, g); section.scrollIntoView(); };
      list.appendChild(row);
    });
  }

  window.OtauViewer = { show: show, embedded: embedded };
})();
