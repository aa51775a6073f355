// otau web's play page (src/web/play_page.rs): the board from board.js, the person's legal moves
// clickable, the controls. Plain JavaScript, no build step, embedded in the binary.
//
// CONTRACT (the browser tests rely on it), besides board.js's:
// - each hole the person may sow from carries class "legal"; in a game without a direction
//   choice it also carries data-move="MOVETEXT" (the protocol token), and clicking it plays it;
// - in Giuthi clicking a legal hole opens #direction, whose buttons #dir-a and #dir-c carry
//   data-move="3a" / "3c" for the directions that are legal (a missing one is hidden);
// - a forced pass is the button #pass (data-move="pass"), shown only when it is the move;
// - the buttons #undo, #new-game, #flip, #analysis, #pgn; #status says whose turn it is;
// - the board names its players: the person's row and store "you", the engine's its name;
// - when the last move was a Giuthi relay, #laps shows #lap-prev and #lap-next, which step the
//   board through its laps (a lap board has data-lap, board.js's contract; no hole is legal on
//   it), and #lap-where says which lap it is; the move's board comes back after the last lap.
// - scores (the moves list, #analysis-box) are in stones from South's view (#score-note).
//
// Every text from the server (engine names, moves, analysis) is set through textContent.
(function () {
  "use strict";
  var token = document.body.getAttribute("data-token");
  var state = null;
  // The lap of the last move shown, {ply, lap}: lap 0 is the board the move left.
  var lapShown = { ply: -1, lap: 0 };

  function $(id) { return document.getElementById(id); }

  function post(path, value) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: token, value: value })
    }).then(function (r) {
      if (!r.ok) return r.text().then(function (t) { $("notice").textContent = t; });
    });
  }

  function sideLetter(side) { return side === "south" ? "s" : "n"; }

  function chooseDirection(hole, moves) {
    $("direction-hole").textContent = String(hole);
    ["a", "c"].forEach(function (d) {
      var b = $("dir-" + d);
      var m = moves.filter(function (x) { return x.direction === d; })[0];
      b.hidden = !m;
      b.setAttribute("data-move", m ? m.move : "");
    });
    $("direction").hidden = false;
  }

  function names(s) {
    var engine = s.engines[s.engine];
    return s.person === "south" ? { s: "you", n: engine } : { s: engine, n: "you" };
  }

  function draw(s) {
    state = s;
    var last = s.moves.length ? s.moves[s.moves.length - 1] : null;
    var laps = (last && last.laps) || [];
    var lap = lapShown.ply === s.ply && lapShown.lap <= laps.length ? lapShown.lap : 0;
    var view = {
      position: s.position,
      ply: s.ply,
      last: last ? { side: sideLetter(last.side), move: last.move } : null,
      flip: s.person === "north",
      names: names(s)
    };
    if (lap) {
      view.position = laps[lap - 1];
      view.lap = { k: lap, of: last.laps_total || laps.length, move: last.move };
    }
    var board = OtauBoard.render(view);
    $("laps").hidden = laps.length === 0;
    if (laps.length) {
      $("lap-where").textContent = lap
        ? " " + OtauBoard.lapWords(view.lap, sideLetter(last.side))
        : " " + OtauBoard.sideName(last.side, names(s)) + "'s " + last.move + " sowed " +
          (last.laps_total || laps.length) + " laps: step through them";
    }
    var me = lap ? "none" : sideLetter(s.person);
    var byHole = {};
    s.legal.forEach(function (m) {
      if (m.hole == null) return;
      (byHole[m.hole] = byHole[m.hole] || []).push(m);
    });
    Object.keys(byHole).forEach(function (k) {
      var g = board.querySelector('g.hole[data-side="' + me + '"][data-hole="' + k + '"]');
      if (!g) return;
      var moves = byHole[k];
      g.classList.add("legal");
      if (moves[0].direction) {
        g.addEventListener("click", function () { chooseDirection(Number(k), moves); });
      } else {
        g.setAttribute("data-move", moves[0].move);
        g.addEventListener("click", function () { play(moves[0].move); });
      }
    });
    var area = $("board-area");
    area.replaceChildren(board);
    $("direction").hidden = true;
    $("pass").hidden = !s.legal.some(function (m) { return m.move === "pass"; });

    var status;
    if (s.status === "over") {
      status = "Game over: " + s.result + " (" + s.termination + ")";
    } else if (s.status === "engine-to-move") {
      status = OtauBoard.sideName(s.to_move, names(s)) + " is thinking...";
    } else {
      status = "Your move: you are " + OtauBoard.sideName(s.person, {}) + ", the bottom row";
    }
    $("status").textContent = status;
    $("notice").textContent = s.notice || "";
    $("analysis").textContent = "Analysis: " + (s.analysis_on ? "on" : "off");

    var select = $("engine");
    if (select.options.length !== s.engines.length) {
      select.replaceChildren();
      s.engines.forEach(function (name, i) {
        var o = document.createElement("option");
        o.value = String(i);
        o.textContent = name;
        select.appendChild(o);
      });
    }
    select.value = String(s.engine);

    var list = $("moves");
    list.replaceChildren();
    s.moves.forEach(function (m) {
      var li = document.createElement("li");
      var a = m.analysis || {};
      var text = OtauBoard.moveWords({ side: m.side, move: m.move, notation: m.notation,
        score: a.score_view, depth: a.depth }, names(s));
      if (s.analysis_on && a.pv && a.pv.length) text += ", pv " + a.pv.join(" ");
      li.textContent = text;
      list.appendChild(li);
    });
    $("score-note").textContent = OtauBoard.SCORE_NOTE;

    var box = $("analysis-box");
    box.hidden = !s.analysis_on;
    if (s.analysis_on) {
      var a = s.analysis;
      box.textContent = a
        ? (a.best ? "engine suggests " + a.best + "  " : (a.note || "")) + info(a)
        : (s.status === "person-to-move" ? "analysing..." : "");
    }
  }

  function info(a) {
    var parts = [];
    if (a.depth != null) parts.push("depth " + a.depth);
    if (a.score_view) parts.push("score " + a.score_view.text);
    if (a.nodes != null) parts.push("nodes " + a.nodes);
    if (a.pv && a.pv.length) parts.push("pv " + a.pv.join(" "));
    return parts.join(", ");
  }

  function play(move) {
    if (!state || state.status !== "person-to-move") return;
    $("direction").hidden = true;
    post("/move", move);
  }

  ["dir-a", "dir-c", "pass"].forEach(function (id) {
    $(id).addEventListener("click", function () { play($(id).getAttribute("data-move")); });
  });
  function stepLap(by) {
    var last = state && state.moves.length ? state.moves[state.moves.length - 1] : null;
    var n = last && last.laps ? last.laps.length : 0;
    if (!n) return;
    var lap = lapShown.ply === state.ply ? lapShown.lap : 0;
    lap = by > 0 ? (lap === 0 ? 1 : (lap >= n ? 0 : lap + 1)) : (lap === 0 ? n : Math.max(1, lap - 1));
    lapShown = { ply: state.ply, lap: lap };
    draw(state);
  }
  $("lap-prev").addEventListener("click", function () { stepLap(-1); });
  $("lap-next").addEventListener("click", function () { stepLap(1); });
  $("dir-cancel").addEventListener("click", function () { $("direction").hidden = true; });
  $("undo").addEventListener("click", function () { post("/undo", null); });
  $("new-game").addEventListener("click", function () { post("/new-game", null); });
  $("flip").addEventListener("click", function () { post("/flip", null); });
  $("analysis").addEventListener("click", function () {
    post("/analysis", !(state && state.analysis_on));
  });
  $("engine").addEventListener("change", function () {
    post("/engine", Number($("engine").value));
  });
  $("pgn").addEventListener("click", function () {
    var a = document.createElement("a");
    a.href = "/game.pgn";
    a.download = "otau-web.pgn";
    document.body.appendChild(a);
    a.click();
    a.remove();
  });

  // The stream's first event is the current state.
  var events = new EventSource("/events");
  events.onmessage = function (e) { draw(JSON.parse(e.data)); };
})();
