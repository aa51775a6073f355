//! What the statistics need to know about one finished game: the plain input the arena fills.
//!
//! [`GameStats`] is not the arena's `records::GameRecord` (the whole game as a records file
//! holds it: opening, every move, final position): it is the compact summary of one game that
//! the statistics compute from, and that a run keeps in memory for each game instead of its moves.

use serde::{Deserialize, Serialize};

use crate::games::{Outcome, Side};

/// One finished game, as the statistics see it (no moves: their totals in [`MoveSummary`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStats {
    /// The game pair (opening) this game belongs to: the two games of a pair share it, the same
    /// two engines play them with colours swapped. Pentanomial statistics group games by it.
    pub pair: u64,
    /// The game's number in its run, 1-based: the scheduled number every page, progress line and
    /// PGN `Round` tag shows (a PGN file's: its place in the file), whatever order the games
    /// finished in; 0 when unknown (statistics written before it).
    #[serde(default)]
    pub game: u64,
    /// The engine playing South (moves first, UGI `p1`).
    pub south: String,
    /// The engine playing North.
    pub north: String,
    /// Who won.
    pub outcome: Outcome,
    /// Why the game ended, one lowercase name per kind. The arena's names: `rules` (the game's
    /// own end), adjudications (`decided-score`, `max-plies`) and faults charged to the loser
    /// (`illegal-move`, `time-loss`, `crash`, `stall`, `forfeit`). Statistics count whatever
    /// names they are given.
    pub termination: String,
    /// Plies played, the opening's included (the count every page and the PGN `PlyCount` give).
    pub plies: u32,
    /// South's final total of stones.
    pub south_total: u32,
    /// North's final total of stones.
    pub north_total: u32,
    /// Search figures of South's moves (zero when the arena has none).
    #[serde(default)]
    pub south_moves: MoveSummary,
    /// Search figures of North's moves.
    #[serde(default)]
    pub north_moves: MoveSummary,
}

impl GameStats {
    /// The engine playing `side`.
    pub fn player(&self, side: Side) -> &str {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }

    /// The side `name` played, if it played this game.
    pub fn side_of(&self, name: &str) -> Option<Side> {
        if self.south == name {
            Some(Side::South)
        } else if self.north == name {
            Some(Side::North)
        } else {
            None
        }
    }

    /// Points (1, ½ or 0) scored by the player of `side`.
    pub fn points(&self, side: Side) -> f64 {
        self.outcome.points(side)
    }

    /// Final stone margin from `side`'s point of view (its total minus the opponent's).
    pub fn margin(&self, side: Side) -> i64 {
        let m = self.south_total as i64 - self.north_total as i64;
        match side {
            Side::South => m,
            Side::North => -m,
        }
    }

    /// The search figures of `side`'s moves.
    pub fn moves(&self, side: Side) -> &MoveSummary {
        match side {
            Side::South => &self.south_moves,
            Side::North => &self.north_moves,
        }
    }
}

/// The games of a PGN file (any runner's: only the `White`, `Black` and `Result` tags are
/// read, White being South, the first player), for the rating table. Each game is its own pair
/// (PGN does not say which games share an opening). Returns the games and the number of
/// unfinished ones left out (result `*` or none); a game without both player tags is an error
/// naming it.
pub fn from_pgn(games: &[crate::pgn::PgnGame]) -> Result<(Vec<GameStats>, usize), String> {
    let mut out = Vec::new();
    let mut unfinished = 0;
    for (i, g) in games.iter().enumerate() {
        match game_from_pgn(i, g)? {
            Some(game) => out.push(game),
            None => unfinished += 1,
        }
    }
    Ok((out, unfinished))
}

/// Game `index` (0-based) of a PGN file as [`from_pgn`] reads it: `None` when unfinished. A
/// reader that streams a file takes its games one at a time through here.
pub fn game_from_pgn(index: usize, g: &crate::pgn::PgnGame) -> Result<Option<GameStats>, String> {
    let result = g.tag("Result").or(g.result.as_deref()).unwrap_or("*");
    let Some(outcome) = Outcome::from_pgn(result) else {
        return Ok(None);
    };
    let player = |tag: &str| {
        g.tag(tag)
            .filter(|name| !name.trim().is_empty())
            .map(str::to_string)
            .ok_or_else(|| format!("game {} has no {tag} tag", index + 1))
    };
    Ok(Some(GameStats {
        pair: index as u64,
        game: index as u64 + 1,
        south: player("White")?,
        north: player("Black")?,
        outcome,
        termination: g.tag("Termination").unwrap_or("pgn").to_string(),
        plies: g.moves.len() as u32,
        south_total: 0,
        north_total: 0,
        south_moves: MoveSummary::default(),
        north_moves: MoveSummary::default(),
    }))
}

/// Totals of one engine's moves in a game (or over many games): enough for averages without
/// keeping every move. Depth and nodes are summed only over the moves that reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveSummary {
    /// Moves played.
    pub moves: u64,
    /// Thinking time of all moves as the arena measured it, microseconds.
    pub time_us: u64,
    /// Moves that reported a depth, and the sum of those depths.
    pub depth_moves: u64,
    /// Sum of the reported depths, in plies.
    pub depth_sum: u64,
    /// Moves that reported a node count, the sum of those counts, and the time they took.
    pub nodes_moves: u64,
    /// Sum of the reported node counts.
    pub nodes: u64,
    /// Time of the moves that reported nodes, microseconds (the nodes per second divide by it).
    pub nodes_time_us: u64,
    /// Search figures the engine reported out of range, which the arena dropped instead of
    /// counting them above (see `protocol/arena.md`, Records).
    #[serde(default)]
    pub info_dropped: u64,
}

impl MoveSummary {
    /// Counts one move: its measured time and the depth and nodes the engine reported, if any.
    pub fn record(&mut self, time_us: u64, depth: Option<u32>, nodes: Option<u64>) {
        self.moves += 1;
        self.time_us += time_us;
        if let Some(depth) = depth {
            self.depth_moves += 1;
            self.depth_sum += u64::from(depth);
        }
        if let Some(nodes) = nodes {
            self.nodes_moves += 1;
            self.nodes += nodes;
            self.nodes_time_us += time_us;
        }
    }

    /// Adds another summary's moves.
    pub fn merge(&mut self, other: &MoveSummary) {
        self.moves += other.moves;
        self.time_us += other.time_us;
        self.depth_moves += other.depth_moves;
        self.depth_sum += other.depth_sum;
        self.nodes_moves += other.nodes_moves;
        self.nodes += other.nodes;
        self.nodes_time_us += other.nodes_time_us;
        self.info_dropped += other.info_dropped;
    }

    /// Mean reported depth.
    pub fn average_depth(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_sum as f64 / self.depth_moves as f64)
    }

    /// Nodes per second over the moves that reported nodes.
    pub fn nodes_per_second(&self) -> Option<f64> {
        (self.nodes_time_us > 0).then(|| self.nodes as f64 * 1e6 / self.nodes_time_us as f64)
    }

    /// Mean time per move, milliseconds.
    pub fn average_time_ms(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.time_us as f64 / 1000.0 / self.moves as f64)
    }
}

/// A game with nothing but its pair, players and result (10 plies, no stones, no search
/// figures): the one fixture of the statistics' tests.
#[cfg(test)]
pub(crate) fn test_game(pair: u64, south: &str, north: &str, outcome: Outcome) -> GameStats {
    GameStats {
        pair,
        game: 0,
        south: south.into(),
        north: north.into(),
        outcome,
        termination: "rules".into(),
        plies: 10,
        south_total: 0,
        north_total: 0,
        south_moves: MoveSummary::default(),
        north_moves: MoveSummary::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_summary_averages() {
        let mut m = MoveSummary::default();
        m.record(2_000, Some(6), Some(10_000));
        m.record(4_000, Some(8), None);
        m.record(1_000, None, Some(5_000));
        assert_eq!(m.average_depth(), Some(7.0));
        // 15,000 nodes in 3 ms.
        assert_eq!(m.nodes_per_second(), Some(5_000_000.0));
        assert!((m.average_time_ms().unwrap() - 7.0 / 3.0).abs() < 1e-12);
        assert_eq!(MoveSummary::default().average_depth(), None);
    }

    #[test]
    fn pgn_games_of_other_runners() {
        let text = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    [White \"b\"]\n[Black \"a\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n\n\
                    [White \"a\"]\n[Black \"c\"]\n[Result \"*\"]\n\n*\n";
        let (games, unfinished) = from_pgn(&crate::pgn::parse(text).unwrap()).unwrap();
        assert_eq!(unfinished, 1);
        assert_eq!(games.len(), 2);
        assert_eq!(
            (games[0].south.as_str(), games[0].outcome, games[0].plies),
            ("a", Outcome::Win(Side::South), 2)
        );
        assert_eq!(games[1].outcome, Outcome::Draw);
        let err = from_pgn(&crate::pgn::parse("[White \"a\"]\n[Result \"0-1\"]\n\n0-1\n").unwrap())
            .unwrap_err();
        assert_eq!(err, "game 1 has no Black tag");
    }

    #[test]
    fn record_points_and_margin() {
        let g = GameStats {
            pair: 0,
            game: 0,
            south: "a".into(),
            north: "b".into(),
            outcome: Outcome::Win(Side::North),
            termination: "rules".into(),
            plies: 40,
            south_total: 70,
            north_total: 92,
            south_moves: MoveSummary::default(),
            north_moves: MoveSummary::default(),
        };
        assert_eq!(g.points(Side::South), 0.0);
        assert_eq!(g.points(Side::North), 1.0);
        assert_eq!(g.margin(Side::North), 22);
        assert_eq!(g.side_of("b"), Some(Side::North));
        assert_eq!(g.side_of("c"), None);
        let json = serde_json::to_string(&g).unwrap();
        assert_eq!(serde_json::from_str::<GameStats>(&json).unwrap(), g);
    }
}
