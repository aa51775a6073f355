//! The bottom layer of the rules: the vocabulary every game, the notation and the front ends
//! share (sides, moves, move lists, results, what a move did), and the state hash. Nothing here
//! knows a particular game, and nothing here imports from the layers above (notation, the games,
//! [`super::AnyGame`]).
//!
//! Board geometry shared by all games: the ring has `2 * holes` places. South's holes 1..N are ring
//! indices `0..N`, North's holes 1..N are ring indices `N..2N`. Counter-clockwise sowing is
//! increasing ring index (South's hole N is followed by North's hole 1 and North's hole N by South's
//! hole 1).

use std::fmt;

/// The most holes a row can have in any game (Giuthi 2x10).
pub const MAX_HOLES: usize = 10;
/// The most places on the ring.
pub const MAX_RING: usize = 2 * MAX_HOLES;

/// A player. South moves first and is UGI's `p1`; North is `p2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Moves first; UGI's `p1`.
    South,
    /// Moves second; UGI's `p2`.
    North,
}

impl Side {
    /// Both sides, South first: the order of per-side arrays.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index used for per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The UGI player name.
    pub const fn ugi(self) -> &'static str {
        match self {
            Side::South => "p1",
            Side::North => "p2",
        }
    }

    /// The letter of the position string.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 's',
            Side::North => 'n',
        }
    }

    /// The lowercase word used in messages and records (`south`, `north`).
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Sowing direction, for the games where the player chooses it (Giuthi).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Increasing ring index: from own hole 1 towards hole N and on to the opponent's row.
    Anticlockwise,
    /// Decreasing ring index: from own hole N towards hole 1 and on to the opponent's row.
    Clockwise,
}

impl Direction {
    /// The opposite direction.
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::Anticlockwise => Direction::Clockwise,
            Direction::Clockwise => Direction::Anticlockwise,
        }
    }
}

/// A move of any game, one byte: the mover's hole (0-based, from their own left), a direction flag
/// for Giuthi, or the forced pass. The same type in every game keeps protocol and arena code
/// game-agnostic; only the game that made a move knows how to print it (see [`Game::move_name`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    const CLOCKWISE: u8 = 0x10;
    /// The forced pass (Giuthi).
    pub const PASS: Move = Move(0xFF);

    /// A move from the mover's hole `index` (0-based).
    #[inline]
    pub const fn hole(index: usize) -> Move {
        Move(index as u8)
    }

    /// A Giuthi move: hole and direction.
    #[inline]
    pub const fn directed(index: usize, dir: Direction) -> Move {
        match dir {
            Direction::Anticlockwise => Move(index as u8),
            Direction::Clockwise => Move(index as u8 | Self::CLOCKWISE),
        }
    }

    /// Whether this is the forced pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == Self::PASS.0
    }

    /// The mover's hole, 0-based. Meaningless for a pass.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 0x0F) as usize
    }

    /// The direction a Giuthi move sows in; anticlockwise (meaningless) for the other games' moves.
    #[inline]
    pub const fn direction(self) -> Direction {
        if self.0 & Self::CLOCKWISE != 0 {
            Direction::Clockwise
        } else {
            Direction::Anticlockwise
        }
    }

    /// A compact code, stable across versions: used by transposition tables and records.
    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// The move a [`Move::code`] stands for; any byte is accepted, so check legality before
    /// playing it.
    #[inline]
    pub const fn from_code(code: u8) -> Move {
        Move(code)
    }
}

/// The legal moves of a position, on the stack: generating moves never allocates.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_RING],
    len: u8,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> Self {
        MoveList {
            moves: [Move(0); MAX_RING],
            len: 0,
        }
    }

    /// Appends a move; panics past [`MAX_RING`] moves, which no game generates.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// Empties the list, so it can be filled again without a new one.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list has no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in generation order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// The moves, to reorder in place (move ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len as usize]
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// The moves, in generation order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Who won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// That side won.
    Win(Side),
    /// Neither side won.
    Draw,
}

impl Outcome {
    /// Decides the game by final totals: more stones wins.
    pub fn by_totals(south: u32, north: u32) -> Outcome {
        match south.cmp(&north) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::South),
            std::cmp::Ordering::Less => Outcome::Win(Side::North),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// UGI's `query result` word.
    pub const fn ugi(self) -> &'static str {
        match self {
            Outcome::Win(Side::South) => "p1win",
            Outcome::Win(Side::North) => "p2win",
            Outcome::Draw => "draw",
        }
    }

    /// PGN result string.
    pub const fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Side::South) => "1-0",
            Outcome::Win(Side::North) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The outcome a PGN result string names; `None` for `*` (unfinished) and anything else.
    pub fn from_pgn(result: &str) -> Option<Outcome> {
        match result {
            "1-0" => Some(Outcome::Win(Side::South)),
            "0-1" => Some(Outcome::Win(Side::North)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Points for a side, doubled to stay whole: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self, side: Side) -> u32 {
        match self {
            Outcome::Draw => 1,
            Outcome::Win(winner) if winner == side => 2,
            Outcome::Win(_) => 0,
        }
    }

    /// Points for a side: 1, ½ or 0.
    pub fn points(self, side: Side) -> f64 {
        f64::from(self.half_points(side)) / 2.0
    }
}

/// Why a game ended under its own rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A store holds more than half of all stones (Toguz Kumalak).
    MajorityInStore,
    /// The player to move has no legal move.
    NoMoves,
    /// Neither player can move (Giuthi: no hole with two seeds on either side).
    Blocked,
    /// A position occurred as often as the game's repetition rule allows.
    Repetition,
}

/// The end of a game: who won, the final totals, and why.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Final {
    /// Who won.
    pub outcome: Outcome,
    /// South's final total: stones captured plus any stones the rules give them at the end.
    pub south: u32,
    /// North's final total, counted as South's.
    pub north: u32,
    /// Which rule ended the game.
    pub reason: EndReason,
}

impl Final {
    /// A final decided by totals.
    pub fn by_totals(south: u32, north: u32, reason: EndReason) -> Final {
        Final {
            outcome: Outcome::by_totals(south, north),
            south,
            north,
            reason,
        }
    }

    /// The final total of `side`.
    pub fn total(&self, side: Side) -> u32 {
        match side {
            Side::South => self.south,
            Side::North => self.north,
        }
    }
}

/// What a move did, for records, notation and the play front end: only what every game can say.
/// What only one game knows (a Toguz Kumalak tuzdik) that game reports itself, through
/// [`super::Game::move_note`] and its own accessors.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct MoveEffect {
    /// Ring index where the last stone fell (for relay games, the last lap's last stone).
    pub last: u8,
    /// Stones the mover captured with this move (whatever the game's own rules add to it, such
    /// as Toguz Kumalak's tuzdik, included).
    pub captured: u32,
    /// The same side moves again (Giuthi's extra move).
    pub extra_move: bool,
}

/// Mixes a 64-bit word into a well-spread key (the finaliser of SplitMix64).
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Hashes a ring of holes plus extra words. Every game's whole state fits in a handful of bytes,
/// so hashing it from scratch costs a few multiplications: cheaper than maintaining Zobrist keys
/// through a sowing that may touch every hole, and it cannot drift out of sync.
#[inline]
pub(crate) fn hash_state(ring: &[u8; MAX_RING], extra: u64) -> u64 {
    let mut words = [0u64; 3];
    for (i, chunk) in ring.chunks(8).enumerate() {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        words[i] = u64::from_le_bytes(b);
    }
    let mut h = mix64(words[0] ^ 0x9e37_79b9_7f4a_7c15);
    h = mix64(h ^ words[1]);
    h = mix64(h ^ words[2] ^ extra.rotate_left(32));
    mix64(h ^ extra)
}
