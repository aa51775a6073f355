//! The built-in players (`cmd=builtin:otau|random|greedy`): otau's own UGI engine loop on a
//! thread, over pipes, so the arena treats them exactly like external engines.

use std::io;

use crate::arena::config::Builtin;
use crate::arena::engine::process::EngineIo;
use crate::games::Variant;

/// UGI options that make the shared engine loop play as this built-in player.
pub fn player_options(b: Builtin) -> [(&'static str, &'static str); 1] {
    match b {
        Builtin::Otau => [("Player", "search")],
        Builtin::Random => [("Player", "random")],
        Builtin::Greedy => [("Player", "greedy")],
    }
}

/// Whether the built-in player takes `name`, though it does not advertise it: otau's hidden
/// tuning options (`UseLMR`, `EvalFile`, ...; `protocol/ugi.md`), so the arena need not warn.
pub(crate) fn takes_hidden_option(name: &str) -> bool {
    crate::ugi::options::is_tuning_option(name)
}

/// Starts otau's UGI engine loop for `game` on a thread; [`player_options`] then make it the
/// chosen player.
pub fn start(b: Builtin, game: Variant) -> io::Result<EngineIo> {
    let name = player_options(b)[0].1;
    EngineIo::in_process(name, move |input, output| {
        // The loop ends on `quit` or when the arena closes its input; an output error only means
        // the arena has gone.
        let _ = crate::ugi::serve(input, output, game);
    })
}
