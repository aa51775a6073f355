//! Arena statistics: the numbers users decide from.
pub mod elo;
pub mod pentanomial;
pub mod record;
pub mod sprt;
