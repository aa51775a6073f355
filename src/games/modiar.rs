//! Modiar, the Moroccan 2x3 game (`modiar`).
//!
//! Rules in `protocol/rules-modiar.md`. In short: two rows of three holes, seven stones each, no
//! stores on the board (captures go to a pile beside each player). A move sows an own hole of at
//! least two stones counter-clockwise, the first stone back into the origin, lapping the whole
//! ring (origin included) when it holds more than six. A last stone that makes 2, 4 or 6 captures
//! that hole and, going backwards, every preceding hole of 2, 4 or 6 on either row. The first move
//! of the game captures nothing; a move that would take every stone on the opponent's row is
//! illegal; an empty opponent row must be fed if possible. A player with no legal move ends the
//! game, and so does the third occurrence of a position; either way each player adds the stones
//! of their own row to their pile.
//!
//! The sowing kernel ([`sow`], [`analyse`]) works on a bare six-place [`Board`] and is shared with
//! the solver (`crate::tables::modiar`), so the table and the referee run the very same rules.

use std::fmt;

use super::board::BoardState;
use super::game::Game;
use super::types::{hash_state, EndReason, Final, Move, MoveEffect, MoveList, Side};
use super::variant::Variant;
use crate::games::notation::{self, MoveError, PositionError, PositionFields};

/// Holes per row.
pub const HOLES: usize = 3;
/// Places on the ring.
pub const RING: usize = 2 * HOLES;
/// Stones in the game.
pub const TOTAL: u32 = 42;
/// Stones per hole at the start.
const START_SEEDS: u8 = 7;

/// Stones per ring place: South's holes 1..3 are places 0..3, North's are 3..6. The solver uses
/// the same type from the mover's point of view (the mover's row first).
pub type Board = [u8; RING];

/// What one sowing did (see [`sow`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Sowing {
    /// Ring place of the last stone.
    pub last: u8,
    /// Stones captured (from both rows).
    pub captured: u8,
    /// The capture took every stone on the opponent's row (an illegal move).
    pub grand_slam: bool,
}

/// Why a hole may or may not be played (see [`analyse`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HoleStatus {
    /// May be played.
    Legal,
    /// Holds no stone.
    Empty,
    /// Holds a single stone: a move needs at least two.
    Single,
    /// Would capture every stone on the opponent's row.
    GrandSlam,
    /// The opponent's row is empty, this move leaves it empty, and another move would feed it.
    DoesNotFeed,
}

/// The first ring place of the row of the player whose row starts at `me` (0 or 3)'s opponent.
#[inline]
const fn opponent_row(me: usize) -> usize {
    (me + HOLES) % RING
}

#[inline]
fn row_is_empty(board: &Board, start: usize) -> bool {
    board[start..start + HOLES].iter().all(|&x| x == 0)
}

/// Sows hole `hole` (0-based) of the row starting at ring place `me` (0 or 3) and, if `capture`,
/// makes the capture the last stone earns. Legality is not checked: the hole must hold at least
/// two stones.
///
/// Every place gets one stone per full lap in one pass (a hole of 40 costs no more than one of 7);
/// the capture chain runs backwards from the last stone while holes hold 2, 4 or 6, on either row,
/// and can go at most once round the ring (a captured hole holds 0, which stops it).
#[inline]
pub fn sow(board: &mut Board, me: usize, hole: usize, capture: bool) -> Sowing {
    let from = me + hole;
    let k = board[from] as usize;
    debug_assert!(k >= 2, "sowing a hole of {k}");
    board[from] = 0;
    let laps = (k - 1) / RING;
    if laps > 0 {
        for place in board.iter_mut() {
            *place += laps as u8;
        }
    }
    let rest = k - laps * RING;
    let mut place = from;
    for _ in 0..rest {
        board[place] += 1;
        place = if place + 1 == RING { 0 } else { place + 1 };
    }
    let last = if place == 0 { RING - 1 } else { place - 1 };
    let mut sowing = Sowing {
        last: last as u8,
        ..Sowing::default()
    };
    if capture {
        let opp = opponent_row(me);
        let mut taken_from_opponent = 0;
        let mut place = last;
        for _ in 0..RING {
            let stones = board[place];
            if !matches!(stones, 2 | 4 | 6) {
                break;
            }
            sowing.captured += stones;
            if (opp..opp + HOLES).contains(&place) {
                taken_from_opponent += stones;
            }
            board[place] = 0;
            place = if place == 0 { RING - 1 } else { place - 1 };
        }
        sowing.grand_slam = taken_from_opponent > 0 && row_is_empty(board, opp);
    }
    sowing
}

/// Every hole of the mover (whose row starts at ring place `me`), judged and, where it holds two
/// stones or more, played out: the one place where the move rules (two stones, grand slam,
/// feeding) are decided.
#[derive(Clone, Copy, Debug)]
pub struct Analysis {
    /// Whether each hole may be played, and if not why.
    pub status: [HoleStatus; HOLES],
    /// The board after each hole's move (meaningful where the hole holds two stones or more).
    pub after: [Board; HOLES],
    /// What each hole's move did (meaningful where the hole holds two stones or more).
    pub sowing: [Sowing; HOLES],
}

impl Analysis {
    /// Whether any hole may be played.
    #[inline]
    pub fn has_moves(&self) -> bool {
        self.status.contains(&HoleStatus::Legal)
    }
}

/// Judges every hole of the mover; `capture` is false only for the first move of the game.
#[inline]
pub fn analyse(board: &Board, me: usize, capture: bool) -> Analysis {
    let mut a = Analysis {
        status: [HoleStatus::Empty; HOLES],
        after: [*board; HOLES],
        sowing: [Sowing::default(); HOLES],
    };
    let opp = opponent_row(me);
    let starving = row_is_empty(board, opp);
    let mut feeds = false;
    for hole in 0..HOLES {
        a.status[hole] = match board[me + hole] {
            0 => HoleStatus::Empty,
            1 => HoleStatus::Single,
            _ => {
                a.sowing[hole] = sow(&mut a.after[hole], me, hole, capture);
                if a.sowing[hole].grand_slam {
                    HoleStatus::GrandSlam
                } else {
                    feeds |= starving && !row_is_empty(&a.after[hole], opp);
                    HoleStatus::Legal
                }
            }
        };
    }
    if feeds {
        for hole in 0..HOLES {
            if a.status[hole] == HoleStatus::Legal && row_is_empty(&a.after[hole], opp) {
                a.status[hole] = HoleStatus::DoesNotFeed;
            }
        }
    }
    a
}

/// A Modiar position. The stores of its [`BoardState`] are the piles beside each player; the
/// ring's places from [`RING`] on stay 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Modiar {
    state: BoardState,
    /// This is the first move of the game (start position, South to move, full-move 1): it may
    /// capture nothing. Part of the state so that the hash tells it apart from the same board
    /// met later in the game.
    first_move: bool,
}

impl Modiar {
    /// The start position: seven stones in each hole, South to move, the first-move rule active.
    pub fn start(variant: Variant) -> Modiar {
        assert_eq!(variant, Variant::MODIAR, "{variant} is not Modiar");
        Modiar {
            state: BoardState::start(HOLES, START_SEEDS),
            first_move: true,
        }
    }

    /// Parses a Modiar position string (no fields of its own).
    pub fn from_position(text: &str) -> Result<Modiar, PositionError> {
        let (fields, []) = PositionFields::split(text, [])?;
        Modiar::from_fields(&fields)
    }

    /// Builds and checks a position from parsed fields. The first-move rule applies exactly when
    /// the string is the start position (`modiar 7,7,7/7,7,7 0/0 s 1`).
    pub fn from_fields(f: &PositionFields) -> Result<Modiar, PositionError> {
        if f.variant != Variant::MODIAR {
            return Err(PositionError::new(
                "game id",
                format!("{} is not Modiar", f.variant),
            ));
        }
        f.check_total()?;
        for side in Side::BOTH {
            let pile = f.stores[side.index()];
            if !pile.is_multiple_of(2) {
                return Err(PositionError::new(
                    "stores",
                    format!(
                        "{side}'s pile of {pile} is odd: every capture takes 2, 4 or 6 stones a hole"
                    ),
                ));
            }
        }
        let state = f.board();
        let first_move = state.ring[..RING].iter().all(|&x| x == START_SEEDS)
            && f.side == Side::South
            && f.fullmove == 1;
        Ok(Modiar { state, first_move })
    }

    /// The six holes as a bare board (South's row first).
    #[inline]
    pub fn board(&self) -> Board {
        let mut b = [0u8; RING];
        b.copy_from_slice(&self.state.ring[..RING]);
        b
    }

    /// The same piles with other holes (South's row first, as many stones in all) and `side` to
    /// move, past the first move: a position of the same capture-free stretch, for its
    /// repetition key.
    pub fn with_holes(&self, holes: Board, side: Side) -> Modiar {
        debug_assert_eq!(
            holes.iter().map(|&x| x as u32).sum::<u32>(),
            self.board().iter().map(|&x| x as u32).sum::<u32>()
        );
        let mut state = self.state;
        state.ring[..RING].copy_from_slice(&holes);
        state.side = side;
        Modiar {
            state,
            first_move: false,
        }
    }

    /// Whether this is the game's first move, on which nothing is captured.
    #[inline]
    pub fn is_first_move(&self) -> bool {
        self.first_move
    }

    /// The ring place where the mover's row starts.
    #[inline]
    fn me(&self) -> usize {
        self.state.side.index() * HOLES
    }

    /// Every hole of the side to move, judged.
    #[inline]
    pub fn analyse(&self) -> Analysis {
        analyse(&self.board(), self.me(), !self.first_move)
    }

    fn key(&self, first_move: bool) -> u64 {
        let extra = self.state.stores[0] as u64
            | (self.state.stores[1] as u64) << 8
            | (self.state.side as u64) << 16
            | (first_move as u64) << 17
            | 0x4d_u64 << 56;
        hash_state(&self.state.ring, extra)
    }
}

impl Game for Modiar {
    #[inline]
    fn state(&self) -> &BoardState {
        &self.state
    }

    fn variant(&self) -> Variant {
        Variant::MODIAR
    }

    #[inline]
    fn generate_moves(&self, moves: &mut MoveList) {
        let a = self.analyse();
        for (hole, status) in a.status.iter().enumerate() {
            if *status == HoleStatus::Legal {
                moves.push(Move::hole(hole));
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) -> MoveEffect {
        let mut board = self.board();
        let me = self.me();
        let sowing = sow(&mut board, me, mv.index(), !self.first_move);
        self.state.ring[..RING].copy_from_slice(&board);
        self.state.stores[self.state.side.index()] += sowing.captured as u16;
        self.state.pass_turn();
        self.first_move = false;
        MoveEffect {
            last: sowing.last,
            captured: sowing.captured as u32,
            ..MoveEffect::default()
        }
    }

    fn final_result(&self) -> Option<Final> {
        if self.analyse().has_moves() {
            return None;
        }
        let [s, n] = self.state.totals_with_rows();
        Some(Final::by_totals(s, n, EndReason::NoMoves))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.key(self.first_move)
    }

    /// Holes, piles and side to move: the first-move flag is left out, so the start board counts
    /// as the same position when it comes back later in the game.
    fn repetition_key(&self) -> u64 {
        self.key(false)
    }

    fn repetition_limit(&self) -> usize {
        3
    }

    /// As when the player to move is stuck: each player adds the stones of their own row.
    fn repetition_final(&self) -> Final {
        let [s, n] = self.state.totals_with_rows();
        Final::by_totals(s, n, EndReason::Repetition)
    }

    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        let hole = notation::parse_hole(token, HOLES)?;
        let a = self.analyse();
        if !a.has_moves() {
            return Err(MoveError::illegal(
                token,
                "the game is over: the player to move has no legal move",
            ));
        }
        let number = hole + 1;
        let why = match a.status[hole] {
            HoleStatus::Legal => return Ok(Move::hole(hole)),
            HoleStatus::Empty => format!("hole {number} is empty"),
            HoleStatus::Single => {
                format!("hole {number} holds a single stone; a move needs at least two")
            }
            HoleStatus::GrandSlam => format!(
                "hole {number} would capture every stone on the opponent's row (grand slam)"
            ),
            HoleStatus::DoesNotFeed => format!(
                "the opponent's row is empty and hole {number} leaves it empty, while another \
                 move feeds it (feeding rule)"
            ),
        };
        Err(MoveError::illegal(token, why))
    }

    fn move_name(&self, mv: Move) -> String {
        (mv.index() + 1).to_string()
    }
}

impl fmt::Display for Modiar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        notation::write_position(f, Variant::MODIAR, &self.state, &[])
    }
}
