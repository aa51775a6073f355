// The live page of `otau-arena --live` and `otau-arena view`: reads the run's state from the
// Server-Sent Events at /events and draws every game in progress, the standings, the progress
// and the finished games; a click on a finished game fetches /game?n=N for the viewer.
// Needs board.js, loaded before it. Contract: board.js's header. Data goes into the page
// through textContent only.
(function () {
  "use strict";

  var text = window.OtauBoard.text;
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function fixed(x, d) { return typeof x === "number" && isFinite(x) ? x.toFixed(d) : "-"; }
  function signed(x, d) { return typeof x === "number" && isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(d) : "-"; }

  function clock(ms) {
    if (ms == null) return "";
    var s = Math.floor(ms / 1000);
    var tenths = Math.floor((ms % 1000) / 100);
    return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2) + "." + tenths;
  }

  function infoLine(name, clockMs, info) {
    var parts = [name];
    if (clockMs != null) parts.push("clock " + clock(clockMs));
    if (info.depth != null) parts.push("depth " + info.depth);
    // The score in stones from South's view (the server turns North's engine's round).
    if (info.score_view) parts.push("score " + info.score_view.text);
    if (info.nodes != null) parts.push("nodes " + info.nodes);
    if (info.nps != null) parts.push("nps " + info.nps);
    if (info.pv) parts.push("pv " + info.pv);
    return parts.join("  ");
  }

  // The lap a person stepped to on a game in progress, by game number: {ply, lap}; it holds
  // while that game's board stays at that ply (the page is drawn again on every update).
  var lapShown = {};
  var lastGames = [];

  function drawPlaying(games) {
    lastGames = games;
    var box = document.getElementById("playing");
    clear(box);
    box.appendChild(text("p", window.OtauBoard.SCORE_NOTE, "score-note"));
    if (!games.length) box.appendChild(text("p", "none"));
    var kept = {};
    games.forEach(function (g) {
      var names = { s: g.south, n: g.north };
      var wrap = text("div", null, "live-game");
      wrap.setAttribute("data-game", String(g.game));
      wrap.appendChild(text("div", "Game " + g.game + ": " + g.south + " (South) vs " + g.north + " (North)", "engines"));
      wrap.appendChild(text("div", infoLine("North " + g.north, g.clocks[1], g.info[1]), "info"));
      var laps = (g.last && g.last.laps) || [];
      var shown = lapShown[g.game];
      var lap = shown && shown.ply === g.ply && shown.lap <= laps.length ? shown.lap : 0;
      if (lap) kept[g.game] = shown;
      var view = { position: g.position, ply: g.ply, game: g.game, last: g.last, names: names };
      if (lap) {
        view.position = laps[lap - 1];
        view.lap = { k: lap, of: g.last.laps_total || laps.length, move: g.last.move };
      }
      wrap.appendChild(window.OtauBoard.render(view));
      if (laps.length) wrap.appendChild(lapBar(g, laps.length, lap));
      wrap.appendChild(text("div", infoLine("South " + g.south, g.clocks[0], g.info[0]), "info"));
      box.appendChild(wrap);
    });
    lapShown = kept;
  }

  // Steps through the laps of the relay that led to a game's board: lap > from the board starts
  // at lap 1, after the last lap the board comes back.
  function lapBar(g, n, lap) {
    var bar = text("div", null, "laps");
    var words = lap ? window.OtauBoard.lapWords({ k: lap, of: g.last.laps_total || n, move: g.last.move }, g.last.side)
      : "last move " + g.last.move + ": " + (g.last.laps_total || n) + " laps";
    [["lap-prev", "lap <", -1], ["lap-next", "lap >", 1]].forEach(function (b) {
      var button = text("button", b[1], b[0]);
      button.type = "button";
      button.onclick = function () {
        var k = b[2] > 0 ? (lap === 0 ? 1 : (lap >= n ? 0 : lap + 1)) : (lap === 0 ? n : Math.max(1, lap - 1));
        lapShown[g.game] = { ply: g.ply, lap: k };
        drawPlaying(lastGames);
      };
      bar.appendChild(button);
    });
    bar.appendChild(text("span", " " + words, "lap-where"));
    return bar;
  }

  function drawStandings(s) {
    var box = document.getElementById("standings");
    clear(box);
    var sum = s.summary;
    if (!sum) return;
    // Say what the tables count: the summary is made again at most once a second (it costs a
    // rating fit), so it may count fewer games than have finished; the headline counts them all.
    var counted = "Standings of " + sum.games + " finished game" + (sum.games === 1 ? "" : "s");
    if (sum.games !== s.progress.done) counted += " (made again at most once a second; the line above counts every finished game)";
    box.appendChild(text("p", counted + ".", "counted"));
    if (sum.ratings && sum.ratings.players) {
      var t = text("table");
      var head = text("tr");
      ["engine", "Elo", "+/-", "W", "L", "D"].forEach(function (h) { head.appendChild(text("th", h)); });
      t.appendChild(head);
      sum.ratings.players.forEach(function (p) {
        var r = text("tr");
        [p.name, signed(p.rating, 1), fixed(p.error, 1), p.wdl.wins, p.wdl.losses, p.wdl.draws].forEach(function (v) {
          r.appendChild(text("td", v));
        });
        t.appendChild(r);
      });
      box.appendChild(t);
    }
    if (sum.matches && sum.matches.length) {
      var m = text("table");
      var h2 = text("tr");
      ["pairing", "W", "L", "D", "Elo", "+/-"].forEach(function (h) { h2.appendChild(text("th", h)); });
      m.appendChild(h2);
      sum.matches.forEach(function (x) {
        var est = x.paired || x.trinomial || {};
        // An error bar means something from two pairs with some spread: one pair, or pairs all
        // alike, have no variance, and "0.0" would read as certainty.
        var pt = x.pentanomial || {};
        var pairs = (pt.ll || 0) + (pt.ld || 0) + (pt.wl || 0) + (pt.dd || 0) + (pt.wd || 0) + (pt.ww || 0);
        var error = pairs >= 2 && est.elo_error > 0 && isFinite(est.elo_error) ? fixed(est.elo_error, 1) : "n/a";
        var r = text("tr");
        [x.first + " vs " + x.second, x.wdl.wins, x.wdl.losses, x.wdl.draws, signed(est.elo, 1), error].forEach(function (v) {
          r.appendChild(text("td", v));
        });
        m.appendChild(r);
      });
      box.appendChild(m);
    }
    if (sum.sprt) {
      var st = sum.sprt;
      box.appendChild(text("p", "SPRT [" + fixed(st.config.elo0, 2) + ", " + fixed(st.config.elo1, 2) + "]: LLR " +
        fixed(st.llr, 2) + " (" + fixed(st.lower, 2) + ", " + fixed(st.upper, 2) + ") " + st.decision, "sprt"));
    }
  }

  function drawFinished(s) {
    var body = document.getElementById("finished");
    clear(body);
    var shown = s.finished.slice().reverse();
    document.getElementById("finished-note").textContent =
      s.ended ? "" : "The newest " + shown.length + " finished games; click one to replay it.";
    shown.forEach(function (g) {
      var row = text("tr", null, "finished-game");
      row.setAttribute("data-game", String(g.game));
      [g.game, g.south, g.north, g.result, g.termination, g.plies].forEach(function (v) {
        row.appendChild(text("td", v));
      });
      row.onclick = function () { openGame(g.game); };
      body.appendChild(row);
    });
  }

  function openGame(n) {
    fetch("/game?n=" + encodeURIComponent(n)).then(function (r) {
      if (!r.ok) throw new Error("game " + n + " is no longer kept by the live page");
      return r.json();
    }).then(function (g) {
      window.OtauViewer.show(document.getElementById("viewer"), g);
    }).catch(function (e) {
      document.getElementById("finished-note").textContent = String(e.message || e);
    });
  }

  function draw(s) {
    document.getElementById("title").textContent = "otau arena" + (s.title ? ": " + s.title : "");
    var p = s.progress;
    var line = "[" + p.done + "/" + p.total + "]";
    if (p.rate != null) line += " " + p.rate.toFixed(2) + " games/s, ETA " + p.eta;
    if (s.ended) line += "  (run over)";
    document.getElementById("progress").textContent = line;
    document.getElementById("headline").textContent = s.headline || "";
    document.getElementById("summary-text").textContent = s.summary_text || "";
    drawPlaying(s.playing);
    drawStandings(s);
    if (window.OtauSwiss) window.OtauSwiss.render(document.getElementById("swiss"), s.swiss);
    if (window.OtauCrosstable) window.OtauCrosstable.render(document.getElementById("crosstable"), s.summary && s.summary.crosstable);
    drawFinished(s);
    document.body.setAttribute("data-generation", String(s.generation));
  }

  window.addEventListener("DOMContentLoaded", function () {
    var events = new EventSource("/events");
    events.onmessage = function (e) { draw(JSON.parse(e.data)); };
    events.onerror = function () {
      var p = document.getElementById("progress");
      if (p.textContent.indexOf("(run over)") < 0) p.textContent += "  (disconnected)";
    };
  });
})();
