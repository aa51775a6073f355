//! The engine's UGI options: their declarations (`option name ...` lines) and `setoption`.
//!
//! One table describes every option, so the handshake and `setoption` can never disagree about a
//! name, a range or a default.

use std::time::Duration;

use crate::games::Variant;
use crate::notation::shorten;
use crate::search::{Options, Player, MAX_LEVEL};

/// Everything `setoption` can change: the game for `position startpos`, and the searcher's options.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub game: Variant,
    pub search: Options,
}

impl EngineOptions {
    pub fn new(game: Variant) -> Self {
        EngineOptions {
            game,
            search: Options::default(),
        }
    }
}

/// What a successful `setoption` changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Game,
    Search,
}

pub const HASH_MAX_MB: u64 = 32_768;
pub const THREADS_MAX: u64 = 256;
pub const MOVE_OVERHEAD_MAX_MS: u64 = 5_000;
/// Spin values are signed 64-bit in most GUIs.
pub const SEED_MAX: u64 = i64::MAX as u64;

/// The `option name ...` lines of the handshake. `Game` lists the main game ids (every id of
/// [`Variant::all`] is accepted).
pub fn declarations(current: &EngineOptions) -> Vec<String> {
    let defaults = Options::default();
    let mut games: Vec<String> = Variant::main_ids().iter().map(|s| s.to_string()).collect();
    if !games.contains(&current.game.id()) {
        games.push(current.game.id());
    }
    let mut game = format!("option name Game type combo default {}", current.game);
    for id in &games {
        game.push_str(" var ");
        game.push_str(id);
    }
    vec![
        game,
        format!(
            "option name Hash type spin default {} min 1 max {HASH_MAX_MB}",
            defaults.hash_mb
        ),
        format!(
            "option name Threads type spin default {} min 1 max {THREADS_MAX}",
            defaults.threads
        ),
        format!(
            "option name Level type spin default {} min 1 max {MAX_LEVEL}",
            defaults.level
        ),
        format!(
            "option name Player type combo default {} var search var random var greedy",
            player_name(defaults.player)
        ),
        format!(
            "option name Seed type spin default {} min 0 max {SEED_MAX}",
            defaults.seed
        ),
        format!(
            "option name MoveOverhead type spin default {} min 0 max {MOVE_OVERHEAD_MAX_MS}",
            defaults.move_overhead.as_millis()
        ),
    ]
}

pub fn player_name(player: Player) -> &'static str {
    match player {
        Player::Search => "search",
        Player::Random => "random",
        Player::Greedy => "greedy",
    }
}

/// Option names compare without case, spaces or underscores (`Move Overhead`, `move_overhead`).
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) && !value.starts_with('+') => Ok(n),
        _ => Err(format!(
            "bad value '{}' for {name}: expected an integer {min}..{max}",
            shorten(value)
        )),
    }
}

/// Applies `setoption name <name> value <value>`. On error nothing is changed and the message
/// names the problem.
pub fn set(opts: &mut EngineOptions, name: &str, value: Option<&str>) -> Result<Changed, String> {
    let key = normalise(name);
    let known = matches!(
        key.as_str(),
        "game" | "hash" | "threads" | "level" | "player" | "seed" | "moveoverhead"
    );
    if !known {
        return Err(format!(
            "unknown option '{}' (Game, Hash, Threads, Level, Player, Seed, MoveOverhead)",
            shorten(name)
        ));
    }
    let value = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("option {} needs a value", shorten(name)))?;
    let search = &mut opts.search;
    match key.as_str() {
        "game" => {
            opts.game = value.parse::<Variant>().map_err(|e| e.to_string())?;
            return Ok(Changed::Game);
        }
        "hash" => search.hash_mb = spin("Hash", value, 1, HASH_MAX_MB)? as usize,
        "threads" => search.threads = spin("Threads", value, 1, THREADS_MAX)? as usize,
        "level" => search.level = spin("Level", value, 1, MAX_LEVEL as u64)? as u32,
        "player" => search.player = value.parse::<Player>()?,
        "seed" => search.seed = spin("Seed", value, 0, SEED_MAX)?,
        "moveoverhead" => {
            search.move_overhead =
                Duration::from_millis(spin("MoveOverhead", value, 0, MOVE_OVERHEAD_MAX_MS)?)
        }
        _ => unreachable!("checked above"),
    }
    Ok(Changed::Search)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_id_is_accepted() {
        let mut o = EngineOptions::new(Variant::TOGUZ);
        for v in Variant::all() {
            assert_eq!(set(&mut o, "Game", Some(&v.id())), Ok(Changed::Game));
            assert_eq!(o.game, v);
        }
    }

    #[test]
    fn names_are_loose_values_are_strict() {
        let mut o = EngineOptions::new(Variant::TOGUZ);
        set(&mut o, "move overhead", Some("25")).unwrap();
        assert_eq!(o.search.move_overhead, Duration::from_millis(25));
        set(&mut o, "HASH", Some("16")).unwrap();
        assert_eq!(o.search.hash_mb, 16);
        set(&mut o, "player", Some("Random")).unwrap();
        assert_eq!(o.search.player, Player::Random);
        for (name, value) in [
            ("Hash", "0"),
            ("Hash", "-1"),
            ("Hash", "+5"),
            ("Hash", "lots"),
            ("Threads", "0"),
            ("Level", "21"),
            ("Level", "0"),
            ("Player", "deep"),
            ("Seed", "-3"),
            ("MoveOverhead", "5001"),
            ("Game", "chess"),
            ("Game", "giuthi-4x4"),
        ] {
            let before = format!("{o:?}");
            assert!(set(&mut o, name, Some(value)).is_err(), "{name}={value}");
            assert_eq!(before, format!("{o:?}"), "{name}={value} changed something");
        }
        assert!(set(&mut o, "Ponder", Some("true"))
            .unwrap_err()
            .contains("unknown option 'Ponder'"));
        assert!(set(&mut o, "Hash", None)
            .unwrap_err()
            .contains("needs a value"));
    }

    #[test]
    fn declarations_match_the_table() {
        let o = EngineOptions::new(Variant::GIUTHI);
        let lines = declarations(&o);
        assert!(lines[0].starts_with("option name Game type combo default giuthi var"));
        for line in &lines {
            let name = line.split(' ').nth(2).unwrap();
            let default = line
                .split(" default ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            let mut copy = o.clone();
            set(&mut copy, name, Some(default)).unwrap();
        }
    }
}
