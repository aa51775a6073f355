//! Self-play.
