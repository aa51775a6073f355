//! One game: the referee, the clocks, adjudication beyond the rules, and the openings.

pub mod adjudication;
pub mod clock;
pub mod openings;
mod seen;
