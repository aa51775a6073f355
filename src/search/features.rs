//! Which search techniques are on ([`Features`]): the switches self-play turns off one at a
//! time to measure what each is worth.

/// Switches for each search technique, so that self-play can measure what each one is worth.
/// Everything is on by default; turning one off gives the weaker baseline it improved on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// The transposition table (off: not probed nor written).
    pub tt: bool,
    /// Killer moves in move ordering.
    pub killers: bool,
    /// The history heuristic in move ordering.
    pub history: bool,
    /// Captures (and moves that keep the turn) first in move ordering.
    pub captures_first: bool,
    /// Quiescence search over captures at the horizon (off: the static evaluation).
    pub quiescence: bool,
    /// Plies of quiescence search at most; `None`: the game's own
    /// ([`crate::eval::Evaluate::quiescence_plies`]).
    pub quiescence_plies: Option<usize>,
    /// Null-window searches for every move after the first (off: plain alpha-beta, which also
    /// turns off the reductions, applied to null-window searches only).
    pub pvs: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Positional evaluation terms (off: stores difference only).
    pub positional_eval: bool,
    /// Endgame tables, where loaded.
    pub tables: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            tt: true,
            killers: true,
            history: true,
            captures_first: true,
            quiescence: true,
            quiescence_plies: None,
            pvs: true,
            lmr: true,
            positional_eval: true,
            tables: true,
        }
    }
}

impl Features {
    /// Names accepted by [`Features::set`], in order of introduction.
    pub const NAMES: [&'static str; 9] = [
        "tt",
        "killers",
        "history",
        "captures-first",
        "quiescence",
        "pvs",
        "lmr",
        "positional-eval",
        "tables",
    ];

    /// Turns a technique on or off by name.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        let flag = match name {
            "tt" => &mut self.tt,
            "killers" => &mut self.killers,
            "history" => &mut self.history,
            "captures-first" => &mut self.captures_first,
            "quiescence" => &mut self.quiescence,
            "pvs" => &mut self.pvs,
            "lmr" => &mut self.lmr,
            "positional-eval" => &mut self.positional_eval,
            "tables" => &mut self.tables,
            _ => {
                return Err(format!(
                    "unknown search feature '{name}' (known: {})",
                    Features::NAMES.join(", ")
                ))
            }
        };
        *flag = on;
        Ok(())
    }
}
