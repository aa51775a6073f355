"""The rules of every game otau plays, in plain Python 3 (standard library only).

A starting point for a bot author: position strings, legal moves, playing a move, the end of a
game and the repetition rules, exactly as otau's referee applies them. The reference texts are
protocol/rules-toguz-kumalak.md, protocol/rules-giuthi.md, protocol/rules-modiar.md and
protocol/notation.md; tests/integration/scripts.rs plays random games of every board through this module
(via otau_bot.py) and compares every position, legal move list, result and perft count with
otau's own rules.

Conventions used throughout: the board is one list, the "ring", of 2N counts: South's holes 1..N
(ring places 0..N-1) then North's holes 1..N (places N..2N-1). Counter-clockwise (Giuthi's
"anticlockwise") is increasing ring place, wrapping from 2N-1 to 0. Side 0 is South (UGI p1,
always first from the start), side 1 is North (p2).

Use:
    line = GameLine(start_position("toguz-kumalak"))
    line.play_token("7")
    line.legal_names()  -> ['1', ..., '9']
    line.result         -> None, or Result("p1win" | "p2win" | "draw", south, north, reason)
"""

from collections import namedtuple

SOUTH, NORTH = 0, 1
ANTICLOCKWISE, CLOCKWISE = 1, -1
MAX_FULLMOVE = 999_999_999

# outcome: "p1win", "p2win" or "draw" (UGI's `query result` words); south/north: final totals.
Result = namedtuple("Result", "outcome south north reason")


class RulesError(ValueError):
    """A position string or move token that the rules refuse; the message says why."""


def by_totals(south, north, reason):
    """More stones wins; equal totals are a draw."""
    if south > north:
        return Result("p1win", south, north, reason)
    if north > south:
        return Result("p2win", south, north, reason)
    return Result("draw", south, north, reason)


def parse_number(text, what):
    """otau's one spelling of a number: 1 to 9 plain digits, no sign, no leading zero."""
    if not text.isdigit() or not text.isascii() or len(text) > 9 or (len(text) > 1 and text[0] == "0"):
        raise RulesError(f"{what}: '{text[:40]}' is not a number")
    return int(text)


def parse_game_id(text):
    """Game id -> (kind, holes, seeds): toguz-kumalak(-7), bestemshe, giuthi(-HxS), modiar."""
    gid = text.lower()
    fixed = {
        "toguz-kumalak": ("toguz", 9, 9),
        "toguz-kumalak-7": ("toguz", 7, 7),
        "bestemshe": ("toguz", 5, 5),
        "giuthi": ("giuthi", 8, 8),
        "modiar": ("modiar", 3, 7),
    }
    if gid in fixed:
        return fixed[gid]
    if gid.startswith("giuthi-") and "x" in gid:
        holes, _, seeds = gid[len("giuthi-"):].partition("x")
        try:
            h, s = parse_number(holes, "holes"), parse_number(seeds, "seeds")
        except RulesError:
            h = s = 0
        if 5 <= h <= 10 and 4 <= s <= 9:
            return ("giuthi", h, s)
    raise RulesError(f"unknown game id '{text[:40]}'")


def game_id(kind, holes, seeds):
    """The id otau writes (giuthi-8x8 is written giuthi)."""
    if kind == "toguz":
        return {9: "toguz-kumalak", 7: "toguz-kumalak-7", 5: "bestemshe"}[holes]
    if kind == "modiar":
        return "modiar"
    return "giuthi" if (holes, seeds) == (8, 8) else f"giuthi-{holes}x{seeds}"


class Position:
    """What every game shares: the ring, the two stores (Giuthi and Modiar: the piles of captured
    stones beside the board), the side to move and the full-move number."""

    def __init__(self, kind, holes, seeds):
        self.kind, self.n, self.seeds = kind, holes, seeds
        self.ring = [seeds] * (2 * holes)
        self.stores = [0, 0]
        self.side = SOUTH
        self.fullmove = 1

    def copy(self):
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.ring = list(self.ring)
        other.stores = list(self.stores)
        return other

    def row(self, side):
        return self.ring[side * self.n:(side + 1) * self.n]

    def pass_turn(self):
        """The turn passes; the full-move number grows after North's turn (and stops at its
        9-digit maximum)."""
        if self.side == NORTH:
            self.fullmove = min(self.fullmove + 1, MAX_FULLMOVE)
        self.side = 1 - self.side

    def totals_with_rows(self):
        """Each player's store plus the stones on their own row."""
        return [self.stores[s] + sum(self.row(s)) for s in (SOUTH, NORTH)]

    def own_fields(self):
        """The game's own fields between the stores and the side (Toguz: the tuzdiks)."""
        return []

    def __str__(self):
        holes = ",".join(map(str, self.row(SOUTH))) + "/" + ",".join(map(str, self.row(NORTH)))
        fields = [game_id(self.kind, self.n, self.seeds), holes, f"{self.stores[0]}/{self.stores[1]}"]
        fields += self.own_fields()
        fields += ["s" if self.side == SOUTH else "n", str(self.fullmove)]
        return " ".join(fields)

    def move_name(self, move):
        return str(move + 1)

    def parse_move(self, token):
        """A hole number 1..N (Toguz Kumalak, Modiar); checked for legality by the caller."""
        hole = parse_number(token, "move")
        if not 1 <= hole <= self.n:
            raise RulesError(f"malformed move '{token[:40]}': hole {hole} is outside 1..{self.n}")
        return hole - 1

    def perft(self, depth):
        """Leaves of the move tree, judged by the position alone (no repetition rule), every move
        a ply: the same count as otau's `perft`."""
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            child = self.copy()
            child.play(m)
            total += child.perft(depth - 1)
        return total


class Toguz(Position):
    """Toguz Kumalak (2x9), toguz-kumalak-7 (2x7) and bestemshe (2x5, no tuzdik)."""

    def __init__(self, holes):
        super().__init__("toguz", holes, holes)
        # Ring place of each side's tuzdik (on the opponent's row), or None.
        self.tuzdik = [None, None]

    def copy(self):
        other = super().copy()
        other.tuzdik = list(self.tuzdik)
        return other

    def has_tuzdik_rule(self):
        return self.n != 5

    def half(self):
        return self.n * self.n

    def own_fields(self):
        hole = lambda t: "-" if t is None else str(t % self.n + 1)
        return [f"{hole(self.tuzdik[SOUTH])}/{hole(self.tuzdik[NORTH])}"]

    def legal_moves(self):
        # A store above half of all stones has won: no move after that.
        if max(self.stores) > self.half():
            return []
        # Any own hole with a stone (an opponent's tuzdik on this row is always empty).
        return [i for i, k in enumerate(self.row(self.side)) if k > 0]

    def play(self, move):
        """Returns the stones the move won for its mover."""
        n, me = self.n, self.side
        ring = self.ring
        origin = me * n + move
        k = ring[origin]
        ring[origin] = 0
        # k >= 2: the first stone goes back into the origin; k == 1: into the next hole.
        place = origin if k > 1 else (origin + 1) % (2 * n)
        for _ in range(k):
            ring[place] += 1
            last = place
            place = (place + 1) % (2 * n)
        # Stones that fell into a tuzdik belong to its owner at once.
        for side in (SOUTH, NORTH):
            t = self.tuzdik[side]
            if t is not None:
                self.stores[side] += ring[t]
                ring[t] = 0
        won = 0
        if last // n != me and self.tuzdik[me] != last:
            count = ring[last]
            if count % 2 == 0:
                won = count
            elif count == 3 and self.may_make_tuzdik(me, last):
                won = 3
                self.tuzdik[me] = last
            if won:
                self.stores[me] += won
                ring[last] = 0
        self.pass_turn()
        return won

    def may_make_tuzdik(self, me, place):
        """One tuzdik per player, never on the opponent's hole N, never the same number as the
        opponent's tuzdik; none at all in bestemshe. Compulsory when allowed."""
        if not self.has_tuzdik_rule() or self.tuzdik[me] is not None:
            return False
        number = place % self.n + 1
        theirs = self.tuzdik[1 - me]
        return number != self.n and (theirs is None or theirs % self.n + 1 != number)

    def final(self):
        """The end decided by the position alone (repetition needs the history: GameLine)."""
        s, n = self.stores
        if s > self.half() or n > self.half():
            return by_totals(s, n, "MajorityInStore")
        if not any(self.row(self.side)):
            # The side to move has no stone: all the stones left lie on the other side's row
            # and go to its owner.
            return by_totals(*self.totals_with_rows(), "NoMoves")
        return None

    def repetition_key(self):
        # Holes, stores, tuzdiks and side to move (not the full-move number).
        return (tuple(self.ring), tuple(self.stores), tuple(self.tuzdik), self.side)

    repetition_limit = 3

    def repetition_final(self):
        """A draw whatever the stores: the stores are reported as they stand."""
        return Result("draw", self.stores[0], self.stores[1], "Repetition")


class Giuthi(Position):
    """Giuthi on 2xH with S seeds a hole: relay sowing in either direction."""

    def __init__(self, holes, seeds):
        super().__init__("giuthi", holes, seeds)

    def relay(self, ring, place, direction):
        """Sows the hole at `place` on `ring` (changed in place) with every relay lap. Returns
        (last place, last lap's direction, whether any seed reached the opponent's row), or
        None when the relay comes back to a state it was in (such a sowing never ends and is
        no legal move)."""
        places, mover = 2 * self.n, self.side
        crossed = False
        seen = set()
        while True:
            state = (tuple(ring), place, direction)
            if state in seen:
                return None
            seen.add(state)
            hand = ring[place]
            ring[place] = 0
            for _ in range(hand):
                place = (place + direction) % places
                ring[place] += 1
                if place // self.n != mover:
                    crossed = True
            if ring[place] == 1:
                # The last seed fell into an empty hole: the move ends here.
                return place, direction, crossed
            # An occupied hole: lift it (the seed just dropped included) and sow back.
            direction = -direction

    def ends(self, side, hole, direction):
        saved, self.side = self.side, side
        try:
            return self.relay(list(self.ring), side * self.n + hole, direction) is not None
        finally:
            self.side = saved

    def can_sow(self, side):
        """A move whose sowing ends: "a hole with two or more seeds" of the rules."""
        return any(
            k >= 2 and (self.ends(side, i, ANTICLOCKWISE) or self.ends(side, i, CLOCKWISE))
            for i, k in enumerate(self.row(side))
        )

    def legal_moves(self):
        """(hole index, direction) pairs, hole by hole, anticlockwise first; "pass" when there is
        none and the opponent can sow; nothing when neither can (the game is over)."""
        moves = [
            (i, d)
            for i, k in enumerate(self.row(self.side)) if k >= 2
            for d in (ANTICLOCKWISE, CLOCKWISE)
            if self.ends(self.side, i, d)
        ]
        if not moves and self.can_sow(1 - self.side):
            moves = ["pass"]
        return moves

    def play(self, move):
        """Returns the seeds the move won for its mover."""
        if move == "pass":
            self.pass_turn()
            return 0
        n, me = self.n, self.side
        hole, direction = move
        last, direction, crossed = self.relay(self.ring, me * n + hole, direction)
        own = range(me * n, me * n + n)
        if last not in own:
            self.pass_turn()
            return 0
        if not crossed:
            # Extra move: the same side moves again, the full-move number unchanged.
            return 0
        opposite = lambda place: 2 * n - 1 - place
        won = 0
        if self.ring[opposite(last)] > 0:
            won = self.ring[opposite(last)] + 1
            self.ring[opposite(last)] = 0
            self.ring[last] = 0
            place = last + direction
            # On along the own row in the last lap's direction, while the own hole is empty.
            while place in own and self.ring[place] == 0:
                won += self.ring[opposite(place)]
                self.ring[opposite(place)] = 0
                place += direction
            self.stores[me] += won
        self.pass_turn()
        return won

    def final(self):
        if self.can_sow(self.side) or self.can_sow(1 - self.side):
            return None
        return by_totals(*self.totals_with_rows(), "Blocked")

    def repetition_key(self):
        # Holes and side to move only: the piles are not compared.
        return (tuple(self.ring), self.side)

    # The second occurrence of a position ends the game.
    repetition_limit = 2

    def repetition_final(self):
        """A draw whatever the counts; the totals reported are the piles."""
        return Result("draw", self.stores[0], self.stores[1], "Repetition")

    def move_name(self, move):
        if move == "pass":
            return "pass"
        hole, direction = move
        return f"{hole + 1}{'a' if direction == ANTICLOCKWISE else 'c'}"

    def parse_move(self, token):
        if token.lower() == "pass":
            return "pass"
        letter = token[-1:].lower()
        if letter not in ("a", "c"):
            raise RulesError(f"malformed move '{token[:40]}': expected a hole and a or c (3a, 8c), or pass")
        hole = super().parse_move(token[:-1])
        return (hole, ANTICLOCKWISE if letter == "a" else CLOCKWISE)


class Modiar(Position):
    """Modiar: 2x3, seven stones a hole, chain captures of 2, 4 or 6."""

    def __init__(self):
        super().__init__("modiar", 3, 7)
        # The very first move of the game captures nothing.
        self.first_move = True

    def sow(self, ring, me, hole, capture):
        """Sows on `ring` in place; returns (stones captured, whether it is a grand slam)."""
        place = me * 3 + hole
        k = ring[place]
        ring[place] = 0
        for _ in range(k):
            # The first stone goes back into the emptied hole.
            ring[place] += 1
            last = place
            place = (place + 1) % 6
        captured = from_opponent = 0
        if capture:
            place = last
            for _ in range(6):
                if ring[place] not in (2, 4, 6):
                    break
                captured += ring[place]
                if place // 3 != me:
                    from_opponent += ring[place]
                ring[place] = 0
                place = (place - 1) % 6
        opponent_row = ring[(1 - me) * 3:(1 - me) * 3 + 3]
        return captured, from_opponent > 0 and not any(opponent_row)

    def legal_moves(self):
        me = self.side
        starving = not any(self.row(1 - me))
        moves, feeding = [], []
        for hole in range(3):
            if self.ring[me * 3 + hole] < 2:
                continue
            after = list(self.ring)
            _, grand_slam = self.sow(after, me, hole, not self.first_move)
            if grand_slam:
                continue
            moves.append(hole)
            if starving and any(after[(1 - me) * 3:(1 - me) * 3 + 3]):
                feeding.append(hole)
        # Feeding: with the opponent's row empty, a move that feeds it is compulsory if any.
        return feeding if feeding else moves

    def play(self, move):
        captured, _ = self.sow(self.ring, self.side, move, not self.first_move)
        self.stores[self.side] += captured
        self.first_move = False
        self.pass_turn()
        return captured

    def final(self):
        if self.legal_moves():
            return None
        return by_totals(*self.totals_with_rows(), "NoMoves")

    def repetition_key(self):
        # Holes, piles and side to move; the start counts as the same board met later.
        return (tuple(self.ring), tuple(self.stores), self.side)

    repetition_limit = 3

    def repetition_final(self):
        """Ends as "no legal move" does: each side adds its own row, more stones wins."""
        return by_totals(*self.totals_with_rows(), "Repetition")


def start_position(gid):
    kind, holes, seeds = parse_game_id(gid)
    if kind == "toguz":
        return Toguz(holes)
    if kind == "giuthi":
        return Giuthi(holes, seeds)
    return Modiar()


def parse_position(text):
    """A position string (protocol/notation.md), checked as otau checks it."""
    fields = text.split()
    if not fields:
        raise RulesError("empty position string")
    pos = start_position(fields[0])
    want = 6 if pos.kind == "toguz" else 5
    if len(fields) != want:
        raise RulesError(f"{len(fields)} fields, {fields[0]} has {want}")
    rows = fields[1].split("/")
    if len(rows) != 2:
        raise RulesError("holes field: expected South's holes / North's holes")
    ring = []
    for row in rows:
        counts = [parse_number(c, "holes field") for c in row.split(",")]
        if len(counts) != pos.n:
            raise RulesError(f"holes field: {len(counts)} holes, {fields[0]} has {pos.n}")
        ring += counts
    stores = fields[2].split("/")
    if len(stores) != 2:
        raise RulesError("stores field: expected south/north")
    stores = [parse_number(s, "stores field") for s in stores]
    if sum(ring) + sum(stores) != sum(pos.ring):
        raise RulesError(f"stones: the position has {sum(ring) + sum(stores)}, {fields[0]} has {sum(pos.ring)}")
    side_field, fullmove = fields[-2], fields[-1]
    if side_field not in ("s", "n", "S", "N"):
        raise RulesError("side field: expected s or n")
    fullmove = parse_number(fullmove, "full-move number")
    if fullmove < 1:
        raise RulesError("full-move number: must be 1 or more")
    was_start = pos.ring == ring and side_field.lower() == "s" and fullmove == 1
    pos.ring, pos.stores = ring, stores
    pos.side = SOUTH if side_field.lower() == "s" else NORTH
    pos.fullmove = fullmove
    if pos.kind == "toguz":
        halves = fields[3].split("/")
        if len(halves) != 2:
            raise RulesError("tuzdiks field: expected south/north")
        for side, text in enumerate(halves):
            if text == "-":
                continue
            if not pos.has_tuzdik_rule():
                raise RulesError("tuzdiks field: bestemshe has no tuzdiks")
            hole = parse_number(text, "tuzdiks field")
            if not 1 <= hole < pos.n:
                raise RulesError(f"tuzdiks field: hole {hole} is outside 1..{pos.n - 1}")
            place = (1 - side) * pos.n + hole - 1
            if ring[place]:
                raise RulesError("tuzdiks field: a tuzdik holds stones")
            pos.tuzdik[side] = place
        if halves[0] != "-" and halves[0] == halves[1]:
            raise RulesError("tuzdiks field: both tuzdiks on the same number")
    if pos.kind == "modiar":
        if stores[0] % 2 or stores[1] % 2:
            raise RulesError("stores field: a Modiar pile is even")
        pos.first_move = was_start
    return pos


class GameLine:
    """A game from a start position: the current position, the history the repetition rule
    counts over (the start included) and the result once the game has ended."""

    def __init__(self, start):
        self.position = start.copy()
        self.keys = [start.repetition_key()]
        self.result = start.final()

    def legal_moves(self):
        return [] if self.result else self.position.legal_moves()

    def legal_names(self):
        return [self.position.move_name(m) for m in self.legal_moves()]

    def play(self, move):
        """Plays a legal move; returns what it won for the mover."""
        pos = self.position
        won = pos.play(move)
        key = pos.repetition_key()
        self.keys.append(key)
        # The position's own end first; otherwise the repetition rule.
        self.result = pos.final()
        if self.result is None and self.keys.count(key) >= pos.repetition_limit:
            self.result = pos.repetition_final()
        return won

    def play_token(self, token):
        """Plays a move in protocol notation; RulesError names what was wrong."""
        if self.result:
            raise RulesError(f"illegal move '{token[:40]}': the game is over")
        move = self.position.parse_move(token)
        if move not in self.position.legal_moves():
            raise RulesError(f"illegal move '{token[:40]}': not a legal move in this position")
        return self.play(move)
