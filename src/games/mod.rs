//! The rules of every game otau plays, behind one [`Game`] trait.
//!
//! The engine's search, the UGI front end and the arena referee all run this very code: a rule
//! exists in exactly one place. Each game lives in its own file; the shared vocabulary (sides,
//! moves, move lists, results) lives here, and [`AnyGame`] lets protocol and arena code handle a
//! position without knowing its game at compile time, while the search stays generic and
//! monomorphised per game for speed.
//!
//! Board geometry shared by all games: the ring has `2 * holes` places. South's holes 1..N are ring
//! indices `0..N`, North's holes 1..N are ring indices `N..2N`. Counter-clockwise sowing is
//! increasing ring index (South's hole N is followed by North's hole 1 and North's hole N by South's
//! hole 1).

pub mod giuthi;
pub mod line;
pub mod modiar;
pub mod render;
pub mod toguz;
pub mod variant;

use std::fmt;

pub use giuthi::Giuthi;
pub use line::{GameLine, IllegalMove};
pub use modiar::Modiar;
pub use toguz::Toguz;
pub use variant::{Family, Variant, VariantError};

use crate::notation::{MoveError, PositionError};

/// The most holes a row can have in any game (Giuthi 2x10).
pub const MAX_HOLES: usize = 10;
/// The most places on the ring.
pub const MAX_RING: usize = 2 * MAX_HOLES;

/// A player. South moves first and is UGI's `p1`; North is `p2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    South,
    North,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

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
    Clockwise,
}

impl Direction {
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

    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == Self::PASS.0
    }

    /// The mover's hole, 0-based. Meaningless for a pass.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 0x0F) as usize
    }

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
    #[inline]
    pub const fn new() -> Self {
        MoveList {
            moves: [Move(0); MAX_RING],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len as usize]
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

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
    Win(Side),
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
    pub outcome: Outcome,
    /// South's final total: stones captured plus any stones the rules give them at the end.
    pub south: u32,
    pub north: u32,
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

    pub fn total(&self, side: Side) -> u32 {
        match side {
            Side::South => self.south,
            Side::North => self.north,
        }
    }
}

/// What a move did, for records, notation and the play front end.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct MoveEffect {
    /// Ring index where the last stone fell (for relay games, the last lap's last stone).
    pub last: u8,
    /// Stones the mover captured with this move (tuzdik stones included).
    pub captured: u32,
    /// The move made a tuzdik (Toguz Kumalak).
    pub tuzdik: bool,
    /// The same side moves again (Giuthi's extra move).
    pub extra_move: bool,
}

/// The rules of one game. Implementations are small `Copy`-cheap values (a few dozen bytes), so
/// search uses copy-make and the referee can keep every position of a game.
pub trait Game: Clone + PartialEq + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The game and board size.
    fn variant(&self) -> Variant;

    /// Holes per row.
    fn holes(&self) -> usize {
        self.variant().holes()
    }

    fn side_to_move(&self) -> Side;

    /// Full-move number of the position string (starts at 1, grows after North's move).
    fn fullmove(&self) -> u32;

    /// The stones in a player's holes, from their own hole 1.
    fn row(&self, side: Side) -> &[u8];

    /// Stones a player has captured so far (store or pile).
    fn store(&self, side: Side) -> u32;

    /// The hole number (1-based, on the opponent's row) of this player's tuzdik, if any.
    fn tuzdik(&self, _side: Side) -> Option<u8> {
        None
    }

    /// Appends every legal move; none when the game is over by the position alone.
    fn generate_moves(&self, moves: &mut MoveList);

    /// Plays a move known to be legal (from [`Game::generate_moves`]). Playing anything else is a
    /// logic error: it may panic or produce an inconsistent position.
    fn play(&mut self, mv: Move) -> MoveEffect;

    /// The end of the game as decided by this position alone, ignoring repetition (which needs
    /// the history: see [`GameLine`]).
    fn final_result(&self) -> Option<Final>;

    /// A 64-bit key of everything that decides the rest of the game (holes, stores, tuzdiks, side
    /// to move, and any flag such as Modiar's first-move rule): the transposition-table key.
    fn hash(&self) -> u64;

    /// The key the game's repetition rule compares (for Giuthi, holes and side to move only).
    fn repetition_key(&self) -> u64 {
        self.hash()
    }

    /// How many occurrences of the same position end the game (3 = on the third).
    fn repetition_limit(&self) -> usize;

    /// The result when the repetition rule ends the game in this position.
    fn repetition_final(&self) -> Final;

    /// Parses a move token in any notation the game accepts, checking it against this position.
    fn parse_move(&self, token: &str) -> Result<Move, MoveError>;

    /// The protocol name of a move (`5`, `3a`, `pass`).
    fn move_name(&self, mv: Move) -> String;

    /// The game-record name of a move played from this position (federation notation for Toguz
    /// Kumalak, e.g. `76` or `36x`); defaults to the protocol name.
    fn record_name(&self, mv: Move) -> String {
        self.move_name(mv)
    }

    /// Legal moves as a fresh list (convenience for non-hot code).
    fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Stones still on the board.
    fn board_stones(&self) -> u32 {
        Side::BOTH
            .iter()
            .map(|&s| self.row(s).iter().map(|&n| n as u32).sum::<u32>())
            .sum()
    }
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

/// A position of any game: what protocol and arena code hold. Each method dispatches to the game's
/// own implementation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnyGame {
    Toguz(Toguz),
    Giuthi(Giuthi),
    Modiar(Modiar),
}

/// Runs `$body` with `$g` bound to the concrete position inside an [`AnyGame`], so generic code
/// (search, perft) is instantiated per game.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::games::AnyGame::Toguz($g) => $body,
            $crate::games::AnyGame::Giuthi($g) => $body,
            $crate::games::AnyGame::Modiar($g) => $body,
        }
    };
}

impl AnyGame {
    /// The start position of a game.
    pub fn start(variant: Variant) -> AnyGame {
        match variant.family() {
            Family::Toguz => AnyGame::Toguz(Toguz::start(variant)),
            Family::Giuthi => AnyGame::Giuthi(Giuthi::start(variant)),
            Family::Modiar => AnyGame::Modiar(Modiar::start(variant)),
        }
    }

    /// Parses a position string of any game (its first field names the game).
    pub fn from_position(text: &str) -> Result<AnyGame, PositionError> {
        let fields = crate::notation::PositionFields::split(text)?;
        let variant = fields.variant;
        Ok(match variant.family() {
            Family::Toguz => AnyGame::Toguz(Toguz::from_fields(&fields)?),
            Family::Giuthi => AnyGame::Giuthi(Giuthi::from_fields(&fields)?),
            Family::Modiar => AnyGame::Modiar(Modiar::from_fields(&fields)?),
        })
    }
}

impl std::str::FromStr for AnyGame {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AnyGame::from_position(s)
    }
}

impl fmt::Display for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_game!(self, g => fmt::Display::fmt(g, f))
    }
}

impl Game for AnyGame {
    fn variant(&self) -> Variant {
        with_game!(self, g => g.variant())
    }
    fn side_to_move(&self) -> Side {
        with_game!(self, g => g.side_to_move())
    }
    fn fullmove(&self) -> u32 {
        with_game!(self, g => g.fullmove())
    }
    fn row(&self, side: Side) -> &[u8] {
        with_game!(self, g => g.row(side))
    }
    fn store(&self, side: Side) -> u32 {
        with_game!(self, g => g.store(side))
    }
    fn tuzdik(&self, side: Side) -> Option<u8> {
        with_game!(self, g => g.tuzdik(side))
    }
    fn generate_moves(&self, moves: &mut MoveList) {
        with_game!(self, g => g.generate_moves(moves))
    }
    fn play(&mut self, mv: Move) -> MoveEffect {
        with_game!(self, g => g.play(mv))
    }
    fn final_result(&self) -> Option<Final> {
        with_game!(self, g => g.final_result())
    }
    fn hash(&self) -> u64 {
        with_game!(self, g => g.hash())
    }
    fn repetition_key(&self) -> u64 {
        with_game!(self, g => g.repetition_key())
    }
    fn repetition_limit(&self) -> usize {
        with_game!(self, g => g.repetition_limit())
    }
    fn repetition_final(&self) -> Final {
        with_game!(self, g => g.repetition_final())
    }
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        with_game!(self, g => g.parse_move(token))
    }
    fn move_name(&self, mv: Move) -> String {
        with_game!(self, g => g.move_name(mv))
    }
    fn record_name(&self, mv: Move) -> String {
        with_game!(self, g => g.record_name(mv))
    }
}
