#!/usr/bin/env python3
"""A starter UGI engine for otau-arena, Python 3 standard library only.

    scripts/starter-bot/otau_bot.py [--player greedy|random] [--game ID] [--seed N]

It plays every game otau plays (the rules are in otau_rules.py, next to this file) with one of
two players: `random` (a uniformly random legal move) or `greedy` (the move that wins the most
stones at once, ties broken at random). Options: `Game`, `Player`, `Seed`. It answers every
command `otau-arena --check` sends (protocol/writing-an-engine.md says which and why), so:

    target/release/otau-arena --check scripts/starter-bot/otau_bot.py
    target/release/otau-arena --engine cmd=scripts/starter-bot/otau_bot.py \\
        --engine cmd=builtin:random --game giuthi --games 20

Replace `choose()` with your own search. Diagnostics go to stderr (the arena keeps it in the
engine's log file); stdout carries only protocol.
"""

import random
import sys

from otau_rules import GameLine, RulesError, parse_position, start_position

NAME = "otau starter bot"
GAMES = ["toguz-kumalak", "toguz-kumalak-7", "bestemshe", "giuthi", "giuthi-6x4", "modiar"]
PLAYERS = ["greedy", "random"]
MAX_SEED = 2**63 - 1


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def error(what):
    """UGI's way to report bad input: one line, and the engine goes on."""
    send(f"info string error {what}")


class Engine:
    def __init__(self, game, player, seed):
        self.game, self.player, self.seed = game, player, seed
        self.rng = random.Random(seed)
        self.line = GameLine(start_position(game))
        # A `go infinite` waits for `stop` before its bestmove.
        self.pending = None

    # -- choosing a move: replace with your own search -------------------------------------

    def choose(self):
        """Returns (move, its score in centi-stones for the side to move, positions looked at)."""
        moves = self.line.legal_moves()
        if self.player == "random":
            return self.rng.choice(moves), 0, 1
        best, best_won = [], -1
        for move in moves:
            trial = self.line.position.copy()
            won = trial.play(move)
            if won > best_won:
                best, best_won = [move], won
            elif won == best_won:
                best.append(move)
        return self.rng.choice(best), 100 * best_won, len(moves)

    # -- the UGI loop -------------------------------------------------------------------------

    def handle(self, words):
        cmd, args = words[0].lower(), words[1:]
        if cmd in ("ugi", "uci"):
            send(f"id name {NAME}")
            send("id author the otau developers")
            games = GAMES if self.game in GAMES else GAMES + [self.game]
            send(f"option name Game type combo default {self.game} " + " ".join(f"var {g}" for g in games))
            send(f"option name Player type combo default {self.player} " + " ".join(f"var {p}" for p in PLAYERS))
            send(f"option name Seed type spin default {self.seed} min 0 max {MAX_SEED}")
            send("ugiok" if cmd == "ugi" else "uciok")
        elif cmd == "isready":
            send("readyok")
        elif cmd == "setoption":
            self.setoption(args)
        elif cmd in ("uginewgame", "ucinewgame"):
            self.line = GameLine(start_position(self.game))
        elif cmd == "position":
            self.position(args)
        elif cmd == "go":
            self.go(args)
        elif cmd == "stop":
            if self.pending is not None:
                send(f"bestmove {self.pending}")
                self.pending = None
        elif cmd == "query":
            self.query(args)
        elif cmd == "perft":
            self.perft(args)
        elif cmd == "quit":
            if self.pending is not None:
                send(f"bestmove {self.pending}")
            sys.exit(0)
        else:
            error(f"unknown command '{words[0][:40]}'; ignored")

    def setoption(self, args):
        lower = [a.lower() for a in args]
        if not lower or lower[0] != "name" or "value" not in lower:
            return error("setoption: expected 'setoption name <name> value <value>'; ignored")
        at = lower.index("value")
        name = "".join(lower[1:at]).replace("_", "")
        value = " ".join(args[at + 1:])
        if name == "game":
            try:
                start = start_position(value)
            except RulesError as e:
                return error(f"setoption: {e}; nothing changed")
            self.game = value.lower()
            self.line = GameLine(start)
        elif name == "player":
            if value.lower() not in PLAYERS:
                return error(f"setoption: unknown player '{value[:40]}' (greedy, random); nothing changed")
            self.player = value.lower()
        elif name == "seed":
            if not value.isdigit() or int(value) > MAX_SEED:
                return error(f"setoption: bad value '{value[:40]}' for Seed: expected an integer 0..{MAX_SEED}; nothing changed")
            self.seed = int(value)
            self.rng = random.Random(self.seed)
        else:
            error(f"setoption: unknown option '{' '.join(args[1:at])[:40]}' (Game, Player, Seed); nothing changed")

    def position(self, args):
        """`position startpos|fen <string> [moves ...]`: replaced only if everything is valid."""
        lower = [a.lower() for a in args]
        at = lower.index("moves") if "moves" in lower else len(args)
        try:
            if lower[:1] == ["startpos"] and at == 1:
                start = start_position(self.game)
            elif lower[:1] == ["fen"] and at > 1:
                start = parse_position(" ".join(args[1:at]))
            else:
                return error("position: expected 'startpos' or 'fen <position string>'; ignored")
        except RulesError as e:
            return error(f"position: bad position: {e}; position unchanged")
        line = GameLine(start)
        for i, token in enumerate(args[at + 1:], 1):
            try:
                line.play_token(token)
            except RulesError as e:
                return error(f"position: move {i} '{token[:40]}': {e}; position unchanged")
        self.line = line

    def go(self, args):
        if self.pending is not None:
            return error("go ignored: already searching (send stop first)")
        if self.line.result:
            r = self.line.result
            send(f"info string game over: {r.outcome} {r.south}-{r.north}")
            send("bestmove none")
            return
        move, score, nodes = self.choose()
        move = self.line.position.move_name(move)
        # One info line per search: GUIs show it, and `--check` checks its syntax.
        send(f"info depth 1 score cp {score} nodes {nodes} pv {move}")
        # Only `infinite` makes the answer wait for `stop`; every limit (depth, nodes,
        # movetime, a clock) is met at once by a player that does not search.
        if "infinite" in (a.lower() for a in args):
            self.pending = move
        else:
            send(f"bestmove {move}")

    def query(self, args):
        question = args[0].lower() if args else ""
        line, result = self.line, self.line.result
        if question == "p1turn":
            send(f"response {'true' if line.position.side == 0 else 'false'}")
        elif question == "gameover":
            send(f"response {'true' if result else 'false'}")
        elif question == "result":
            send(f"response {result.outcome if result else 'none'}")
        elif question == "fen":
            send(f"response {line.position}")
        elif question == "moves":
            send(f"response {' '.join(line.legal_names()) or 'none'}")
        elif question == "islegal" and len(args) > 1:
            try:
                legal = line.position.parse_move(args[1]) in line.legal_moves()
            except RulesError:
                legal = False
            send(f"response {'true' if legal else 'false'}")
        elif question == "score":
            south, north = (result.south, result.north) if result else line.position.stores
            send(f"response {south}/{north}")
        else:
            error(f"unknown query '{question[:40]}' (p1turn, gameover, result, fen, moves, islegal, score); ignored")

    def perft(self, args):
        """`perft <depth>`: not UGI, but the quickest way to compare these rules with otau's
        (`otau perft --game ID --depth D`)."""
        if len(args) != 1 or not args[0].isdigit():
            return error("perft needs a depth; ignored")
        send(f"nodes {self.line.position.perft(int(args[0]))}")


def main():
    argv = sys.argv[1:]
    opts = {"--player": "greedy", "--game": "toguz-kumalak", "--seed": "0"}
    while argv:
        if argv[0] in ("-h", "--help"):
            print(__doc__.strip())
            return
        if argv[0] not in opts or len(argv) < 2:
            sys.exit(f"otau_bot.py: unknown argument '{argv[0]}' (see --help)")
        opts[argv[0]] = argv[1]
        argv = argv[2:]
    engine = Engine(opts["--game"].lower(), opts["--player"], int(opts["--seed"]))
    for raw in sys.stdin:
        words = raw.split()
        if words:
            engine.handle(words)


if __name__ == "__main__":
    main()
