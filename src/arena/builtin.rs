//! The built-in players (`cmd=builtin:otau|random|greedy`): otau's own UGI engine loop on a
//! thread, over pipes, so the arena treats them exactly like external engines.

use std::io;

use super::config::Builtin;
use super::process::EngineIo;
use crate::games::Variant;

/// UGI options that make the shared engine loop play as this built-in player.
pub fn player_options(b: Builtin) -> [(&'static str, &'static str); 1] {
    match b {
        Builtin::Otau => [("Player", "search")],
        Builtin::Random => [("Player", "random")],
        Builtin::Greedy => [("Player", "greedy")],
    }
}

/// Starts the in-process engine loop for `game`.
pub fn start(b: Builtin, game: Variant) -> io::Result<EngineIo> {
    let _ = (b, game);
    Err(io::Error::other(
        "built-in players need the UGI engine loop (otau::ugi::serve), which is not in this build yet",
    ))
}
