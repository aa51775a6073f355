//! A small in-process match driver: two configurations of the built-in engine play pairs of
//! games from random openings, colours swapped, and the result comes with an Elo estimate and
//! its error bars. It measures what a search change is worth (`otau selfplay`); tournaments
//! between separate engine processes are the arena's job.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Clock, Features, Limits, Options, Player, Searcher};
use crate::eval::{toguz, Weights};
use crate::games::{mix64, AnyGame, Game, GameLine, Outcome, Side, Variant};
use crate::stats::pentanomial::Pentanomial;

/// How a contender is limited per move.
#[derive(Clone, Debug, PartialEq)]
pub enum Control {
    /// The same limits every move (depth, nodes, movetime).
    PerMove(Limits),
    /// A game clock: base time plus increment per move.
    Clock { base: Duration, increment: Duration },
}

/// One side of a match: engine options, search techniques, evaluation weights and time control.
#[derive(Clone, Debug)]
pub struct Contender {
    pub name: String,
    pub options: Options,
    pub features: Features,
    pub weights: Weights,
    pub control: Control,
}

impl Contender {
    /// Reads `key=value` pairs separated by commas:
    /// `name=`, `level=`, `hash=`, `threads=`, `player=`, `seed=`, `depth=`, `nodes=`,
    /// `movetime=` (ms), `tc=<base s>+<increment s>`, `qplies=` (quiescence plies),
    /// `off=<feature>[+<feature>...]` (see
    /// [`Features::NAMES`]), `weights=<file>` (as written by `otau tune`).
    pub fn parse(spec: &str) -> Result<Contender, String> {
        let mut c = Contender {
            name: spec.to_string(),
            options: Options {
                hash_mb: 16,
                ..Options::default()
            },
            features: Features::default(),
            weights: Weights::default(),
            control: Control::PerMove(Limits {
                movetime: Some(Duration::from_millis(20)),
                ..Limits::default()
            }),
        };
        let mut per_move = Limits::default();
        let mut clock = None;
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("'{item}': expected key=value"))?;
            let number = || -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("'{item}': not a number"))
            };
            match key {
                "name" => c.name = value.to_string(),
                "level" => c.options.level = number()? as u32,
                "hash" => c.options.hash_mb = number()? as usize,
                "threads" => c.options.threads = number()? as usize,
                "seed" => c.options.seed = number()?,
                "player" => c.options.player = value.parse::<Player>()?,
                "depth" => per_move.depth = Some(number()? as u32),
                "nodes" => per_move.nodes = Some(number()?),
                "movetime" => per_move.movetime = Some(Duration::from_millis(number()?)),
                "tc" => {
                    let (base, inc) = value.split_once('+').unwrap_or((value, "0"));
                    let secs = |s: &str| {
                        s.parse::<f64>()
                            .ok()
                            .filter(|x| x.is_finite() && *x >= 0.0)
                            .map(Duration::from_secs_f64)
                            .ok_or_else(|| format!("'{item}': expected tc=<seconds>+<seconds>"))
                    };
                    clock = Some((secs(base)?, secs(inc)?));
                }
                "qplies" => c.features.quiescence_plies = Some(number()? as usize),
                "off" => {
                    for name in value.split('+') {
                        c.features.set(name, false)?;
                    }
                }
                "weights" => {
                    let text = std::fs::read_to_string(value)
                        .map_err(|e| format!("weights file {value}: {e}"))?;
                    c.weights.toguz = parse_weights(&text)?;
                }
                _ => return Err(format!("'{item}': unknown key '{key}'")),
            }
        }
        c.control = match clock {
            Some((base, increment)) => Control::Clock { base, increment },
            None if per_move != Limits::default() => Control::PerMove(per_move),
            None => c.control,
        };
        Ok(c)
    }
}

/// Reads a Toguz Kumalak weight file: one `name opening endgame` line per term, in any order;
/// terms not named keep the engine's weights.
pub fn parse_weights(text: &str) -> Result<[[i32; 2]; toguz::FEATURES], String> {
    let mut w = toguz::WEIGHTS;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [name, opening, endgame] = parts[..] else {
            return Err(format!("weights: '{line}': expected: name opening endgame"));
        };
        let i = toguz::FEATURE_NAMES
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| format!("weights: unknown term '{name}'"))?;
        let num = |s: &str| {
            s.parse::<i32>()
                .map_err(|_| format!("weights: '{line}': not a number"))
        };
        w[i] = [num(opening)?, num(endgame)?];
    }
    Ok(w)
}

/// The match's shape.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub variant: Variant,
    /// Each pair is one opening played twice, colours swapped.
    pub pairs: usize,
    /// Random plies from the start position for each opening.
    pub opening_plies: usize,
    pub seed: u64,
    pub concurrency: usize,
    /// Redraw openings whose score by a depth-6 search exceeds this (centi-stones), so that
    /// fewer pairs are decided by the opening alone. None: any opening.
    pub balance: Option<i32>,
    /// Games still going after this many plies are scored as the rules score a blocked game
    /// (each side keeps the stones on its row).
    pub max_plies: usize,
}

/// A game's end from the first contender's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Loss,
    Draw,
}

impl GameResult {
    fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }
}

/// The running score of a match, from the first contender's view.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Pairs by the first contender's results in the pair.
    pub pentanomial: Pentanomial,
    /// Games lost on time, by each contender.
    pub time_losses: [u32; 2],
    pub plies: u64,
}

impl Summary {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Elo difference and the half-width of its 95% interval, from the pairs (pentanomial
    /// model: the two games of an opening are not independent).
    pub fn elo(&self) -> Option<(f64, f64)> {
        self.pentanomial.estimate().map(|e| (e.elo, e.elo_error))
    }

    pub fn line(&self, a: &str, b: &str) -> String {
        let (elo, error) = self.elo().unwrap_or((0.0, f64::INFINITY));
        format!(
            "{a} vs {b}: games {} +{} -{} ={} score {:.1}% elo {:+.0} +/- {:.0} \
             ptnml {:?} time-losses {}/{} plies/game {:.0}",
            self.games(),
            self.wins,
            self.losses,
            self.draws,
            100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64,
            elo,
            error,
            self.pentanomial.buckets(),
            self.time_losses[0],
            self.time_losses[1],
            self.plies as f64 / self.games().max(1) as f64
        )
    }
}

/// The opening of pair `index`: random legal plies from a generator seeded by the match seed and
/// the pair, redrawn when the game would end inside the opening or (with `balance`) when a
/// depth-6 search scores it beyond the margin.
pub fn opening(
    variant: Variant,
    plies: usize,
    seed: u64,
    index: usize,
    balance: Option<i32>,
) -> GameLine<AnyGame> {
    let mut rng = ChaCha8Rng::seed_from_u64(mix64(seed ^ mix64(index as u64 + 1)));
    let mut judge = Searcher::new(Options {
        hash_mb: 1,
        ..Options::default()
    });
    let mut tries = 0;
    loop {
        tries += 1;
        let mut line = GameLine::new(AnyGame::start(variant));
        for _ in 0..plies {
            let moves = line.position().legal_moves();
            if line.is_over() || moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            line.play(mv).expect("a generated move is legal");
        }
        if line.is_over() {
            continue;
        }
        let Some(margin) = balance.filter(|_| tries < 1000) else {
            return line;
        };
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let report = judge.search(&line, &limits, &AtomicBool::new(false), &mut |_| {});
        if matches!(report.info.score, super::Score::Cp(cp) if cp.abs() <= margin) {
            return line;
        }
    }
}

/// A finished game of a match.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The whole game, opening included.
    pub line: GameLine<AnyGame>,
    /// Who won, by colour (a time loss or an adjudication included).
    pub outcome: Outcome,
    /// The same from the first contender's view.
    pub result: GameResult,
    /// Who lost on time, if anyone: 0 = the first contender, 1 = the second.
    pub time_loss: Option<usize>,
    /// Plies played after the opening.
    pub plies: usize,
}

/// Plays one game from `line`; `south_is_a` says whether the first contender has South.
pub fn play_game(
    mut line: GameLine<AnyGame>,
    a: &Contender,
    b: &Contender,
    south_is_a: bool,
    max_plies: usize,
) -> PlayedGame {
    let contenders = if south_is_a { [a, b] } else { [b, a] };
    let mut searchers = contenders.map(|c| {
        let mut s = Searcher::new(c.options.clone());
        s.set_features(c.features);
        s.set_weights(c.weights.clone());
        s.new_game();
        s
    });
    let mut clocks = contenders.map(|c| match c.control {
        Control::Clock { base, .. } => base,
        Control::PerMove(_) => Duration::ZERO,
    });
    let stop = AtomicBool::new(false);
    let start_ply = line.moves().len();
    let a_side = if south_is_a { Side::South } else { Side::North };
    let finish = |line: GameLine<AnyGame>, outcome: Outcome, time_loss: Option<usize>| {
        let result = match outcome {
            Outcome::Draw => GameResult::Draw,
            Outcome::Win(s) if s == a_side => GameResult::Win,
            Outcome::Win(_) => GameResult::Loss,
        };
        let plies = line.moves().len() - start_ply;
        PlayedGame {
            line,
            outcome,
            result,
            time_loss,
            plies,
        }
    };
    while !line.is_over() {
        if line.moves().len() - start_ply >= max_plies {
            let pos = line.position();
            let total = |s: Side| pos.store(s) + pos.row(s).iter().map(|&x| x as u32).sum::<u32>();
            let outcome = Outcome::by_totals(total(Side::South), total(Side::North));
            return finish(line, outcome, None);
        }
        let mover_side = line.position().side_to_move();
        let mover = mover_side.index();
        let contender = contenders[mover];
        let limits = match &contender.control {
            Control::PerMove(limits) => limits.clone(),
            Control::Clock { increment, .. } => Limits {
                clock: Some(Clock {
                    remaining: clocks[mover],
                    increment: *increment,
                    moves_to_go: None,
                }),
                ..Limits::default()
            },
        };
        let started = Instant::now();
        let report = searchers[mover].search(&line, &limits, &stop, &mut |_| {});
        let used = started.elapsed();
        if let Control::Clock { increment, .. } = contender.control {
            if used > clocks[mover] {
                let loser = if mover_side == a_side { 0 } else { 1 };
                return finish(line, Outcome::Win(mover_side.other()), Some(loser));
            }
            clocks[mover] = clocks[mover] - used + increment;
        }
        let mv = report.best.expect("a move while the game is on");
        line.play(mv).expect("the engine plays legal moves");
    }
    let outcome = line.result().expect("the game is over").outcome;
    finish(line, outcome, None)
}

/// Plays the match, calling `progress` after every finished pair with the running summary and
/// the pair's two games.
pub fn play_match(
    spec: &MatchSpec,
    a: &Contender,
    b: &Contender,
    mut progress: impl FnMut(&Summary, &[PlayedGame]) + Send,
) -> Summary {
    let next = AtomicUsize::new(0);
    let summary = Mutex::new((Summary::default(), &mut progress));
    std::thread::scope(|scope| {
        for _ in 0..spec.concurrency.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= spec.pairs {
                    break;
                }
                let start = opening(
                    spec.variant,
                    spec.opening_plies,
                    spec.seed,
                    index,
                    spec.balance,
                );
                let games: Vec<PlayedGame> = [true, false]
                    .into_iter()
                    .map(|south_is_a| play_game(start.clone(), a, b, south_is_a, spec.max_plies))
                    .collect();
                let mut guard = summary.lock().expect("no thread panics holding the lock");
                let (s, progress) = &mut *guard;
                for g in &games {
                    match g.result {
                        GameResult::Win => s.wins += 1,
                        GameResult::Loss => s.losses += 1,
                        GameResult::Draw => s.draws += 1,
                    }
                    if let Some(who) = g.time_loss {
                        s.time_losses[who] += 1;
                    }
                    s.plies += g.plies as u64;
                }
                s.pentanomial
                    .add_pair(games[0].result.points(), games[1].result.points());
                progress(s, &games);
            });
        }
    });
    summary.into_inner().expect("no thread panicked").0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contenders_parse() {
        let c = Contender::parse("name=x,level=5,nodes=1000,off=lmr+tt").unwrap();
        assert_eq!(c.name, "x");
        assert_eq!(c.options.level, 5);
        assert!(!c.features.lmr && !c.features.tt && c.features.pvs);
        assert_eq!(
            c.control,
            Control::PerMove(Limits {
                nodes: Some(1000),
                ..Limits::default()
            })
        );
        let c = Contender::parse("tc=1+0.01").unwrap();
        assert_eq!(
            c.control,
            Control::Clock {
                base: Duration::from_secs(1),
                increment: Duration::from_millis(10)
            }
        );
        assert!(Contender::parse("off=nothing").is_err());
        assert!(Contender::parse("depth").is_err());
    }

    #[test]
    fn elo_is_zero_at_evens() {
        let s = Summary {
            pentanomial: Pentanomial::from_buckets([1, 2, 5, 2, 1]),
            ..Summary::default()
        };
        let (elo, error) = s.elo().unwrap();
        assert!(elo.abs() < 1e-9 && error > 0.0);
    }

    #[test]
    fn a_short_match_is_reproducible() {
        let spec = MatchSpec {
            variant: Variant::BESTEMSHE,
            pairs: 2,
            opening_plies: 2,
            seed: 3,
            concurrency: 2,
            balance: Some(300),
            max_plies: 400,
        };
        let a = Contender::parse("depth=3").unwrap();
        let b = Contender::parse("player=greedy").unwrap();
        let one = play_match(&spec, &a, &b, |_, _| {});
        let two = play_match(&spec, &a, &b, |_, _| {});
        assert_eq!(one.games(), 4);
        assert_eq!(
            (one.wins, one.losses, one.draws, one.plies),
            (two.wins, two.losses, two.draws, two.plies)
        );
    }
}
