//! What every table built by retrograde analysis shares: the layered fixpoint that solves one
//! stone count at a time ([`fixpoint`]) and the index of a board among the boards of its stone
//! count ([`board_index`]). Each game's solver (`super::{toguz, modiar, giuthi}`) keeps only its
//! moves and values.

pub mod board_index;
pub mod fixpoint;
