//! The browser fronts: `otau web`'s play page ([`play`]: a person against one UGI engine, on
//! the arena's client and referee code).

pub mod play;
