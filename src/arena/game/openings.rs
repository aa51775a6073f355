//! Openings: seeded random plies, balanced by a short search, or read from a file.
//!
//! The opening of pair P depends only on the seed, P and the openings before it (which it must
//! not repeat), so a resumed run and every shard regenerate exactly the same openings. They are
//! made in pair order as the run needs them; the book keeps the one it made last and a hash of
//! each position it made (to refuse repeats), not the openings themselves.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::seen::SeenPositions;
use crate::games::{AnyGame, Game, GameLine, Move, Variant};
use crate::key_values::KeyValues;
use crate::search::{Limits, Options, Score, Searcher};

/// How openings are made when no file is given.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningPolicy {
    /// Uniformly random legal plies.
    #[default]
    Random,
    /// Random plies, redrawn until a short search scores the position within the margin.
    Balanced,
}

/// The order in which a file's openings are used.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileOrder {
    /// In file order, from the `start=` entry on.
    #[default]
    Sequential,
    /// Shuffled once by the run's seed.
    Random,
}

/// What an openings file holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    /// A position string (or `startpos`) a line, optionally followed by `moves ...`.
    Epd,
    /// A move list a line from the start position; position lines are read too.
    Txt,
    /// Game records: otau's own PGN, PlayOK's export, federation notation.
    Pgn,
}

impl BookFormat {
    /// The format a file's extension names (`.epd`, `.pgn`; anything else reads as `txt`, which
    /// takes both kinds of line, as opening files always did).
    pub(crate) fn of_path(path: &std::path::Path) -> BookFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("epd") => BookFormat::Epd,
            Some(e) if e.eq_ignore_ascii_case("pgn") => BookFormat::Pgn,
            _ => BookFormat::Txt,
        }
    }
}

/// `--openings plies=N policy=random|balanced margin=CP depth=D file=FILE
/// format=epd|txt|pgn order=sequential|random start=K`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningConfig {
    /// The random walk's length ([`DEFAULT_PLIES`] when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// With a file: `plies=`, the cut of each entry (entries are used whole when not given).
    /// A field of its own, not `plies`, because records written before books could be cut hold
    /// `plies` beside `file` (the walk's length, unused): resuming them must keep whole entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book_plies: Option<u32>,
    /// How the openings are made (a random walk, balanced walks, or a file).
    pub policy: OpeningPolicy,
    /// Balanced: the largest |score| accepted, in centi-stones.
    pub margin_cp: i32,
    /// Balanced: the depth of the judging search.
    pub depth: u32,
    /// `file=`: where the openings come from, instead of random walks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// The file's format; from its extension when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<BookFormat>,
    /// `order=`: the file's entries in order or shuffled.
    pub order: FileOrder,
    /// The file's entry pair 0 plays, 1-based (after `order=random`'s shuffle, as fastchess).
    #[serde(default = "first_entry")]
    pub start: u32,
}

fn first_entry() -> u32 {
    1
}

/// The random walk's length when `plies=` is not given.
pub(crate) const DEFAULT_PLIES: u32 = 4;

impl Default for OpeningConfig {
    fn default() -> Self {
        OpeningConfig {
            plies: None,
            book_plies: None,
            policy: OpeningPolicy::Random,
            margin_cp: 300,
            depth: 4,
            file: None,
            format: None,
            order: FileOrder::Sequential,
            start: 1,
        }
    }
}

/// `plies=`: the longest random walk. Longer walks end nearly every game on the way (and are
/// redrawn), and a walk costs its plies for each of up to 500 draws per pair.
pub const MAX_PLIES: u32 = 1000;
/// `margin=`: the widest balance margin, in centi-stones (1,000 stones: more than any game has).
pub(crate) const MAX_MARGIN_CP: u32 = crate::arena::game::adjudication::MAX_SCORE_CP;

impl OpeningConfig {
    /// Parses the `--openings` key=value list.
    pub fn parse(tokens: &[String]) -> Result<OpeningConfig, String> {
        let mut c = OpeningConfig::default();
        let mut file_keys = Vec::new();
        let keys = [
            "plies", "policy", "margin", "depth", "file", "format", "order", "start",
        ];
        let kv = KeyValues::parse("--openings", tokens.iter().map(String::as_str))
            .and_then(|kv| kv.only(&keys))
            .and_then(|kv| kv.once(&[]))
            .map_err(|e| e.to_string())?;
        for &(k, v) in kv.pairs() {
            let num = |min: u32, max: u32| kv.whole(k, v, min..=max).map_err(|e| e.to_string());
            let bad = |expected: &str| kv.bad_value(k, v, expected.to_string()).to_string();
            match k {
                "plies" => c.plies = Some(num(0, MAX_PLIES)?),
                "policy" => {
                    c.policy = match v {
                        "random" => OpeningPolicy::Random,
                        "balanced" => OpeningPolicy::Balanced,
                        _ => return Err(bad("random or balanced")),
                    }
                }
                "margin" => c.margin_cp = num(0, MAX_MARGIN_CP)? as i32,
                "depth" => c.depth = num(1, crate::search::MAX_DEPTH)?,
                "file" => c.file = Some(PathBuf::from(v)),
                "format" => {
                    c.format = Some(match v {
                        "epd" => BookFormat::Epd,
                        "txt" => BookFormat::Txt,
                        "pgn" => BookFormat::Pgn,
                        _ => return Err(bad("epd, txt or pgn")),
                    })
                }
                "order" => {
                    c.order = match v {
                        "sequential" => FileOrder::Sequential,
                        "random" => FileOrder::Random,
                        _ => return Err(bad("sequential or random")),
                    }
                }
                // `only` let no other key through.
                _ => c.start = num(1, u32::MAX)?,
            }
            if matches!(k, "format" | "order" | "start") {
                file_keys.push(format!("{k}={v}"));
            }
        }
        if c.file.is_some() {
            c.book_plies = c.plies.take();
        }
        if c.file.is_none() {
            if let Some(t) = file_keys.first() {
                return Err(format!(
                    "--openings {t}: applies to a file (give file=FILE)"
                ));
            }
        }
        Ok(c)
    }

    /// The length of a generated opening.
    pub(crate) fn walk_plies(&self) -> u32 {
        self.plies.unwrap_or(DEFAULT_PLIES)
    }

    /// The file's format: as given, else from its extension.
    pub fn file_format(&self) -> Option<BookFormat> {
        let path = self.file.as_ref()?;
        Some(self.format.unwrap_or_else(|| BookFormat::of_path(path)))
    }

    /// Every value in the range [`OpeningConfig::parse`] allows (for a configuration read back
    /// from a records file).
    pub fn check(&self) -> Result<(), String> {
        let fine = self.walk_plies() <= MAX_PLIES
            && (0..=MAX_MARGIN_CP as i32).contains(&self.margin_cp)
            && (1..=crate::search::MAX_DEPTH).contains(&self.depth)
            && self.start >= 1;
        fine.then_some(()).ok_or_else(|| {
            format!(
                "--openings plies={} margin={} depth={} start={}: plies 0..={MAX_PLIES}, margin \
                 0..={MAX_MARGIN_CP}, depth 1..={}, start 1..",
                self.walk_plies(),
                self.margin_cp,
                self.depth,
                self.start,
                crate::search::MAX_DEPTH
            )
        })
    }
}

/// An opening: a start position and the moves played from it before the engines take over.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the opening starts from (a game's start, or a book's position).
    pub start: AnyGame,
    /// The moves played from it, both engines' alike.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The game so far, ready for the first engine move.
    pub fn line(&self) -> GameLine<AnyGame> {
        let mut line = GameLine::new(self.start.clone());
        for &mv in &self.moves {
            line.play(mv).expect("opening moves were checked when made");
        }
        line
    }

    /// The moves as protocol tokens.
    pub fn move_names(&self) -> Vec<String> {
        crate::games::move_names(&self.start, &self.moves)
    }
}

/// Tries per pair before a repeat is accepted (the space is taken as exhausted).
const MAX_DRAWS: u32 = 500;

/// Makes the openings of a run in pair order, never repeating one while new ones can be found.
pub struct OpeningBook {
    config: OpeningConfig,
    variant: Variant,
    seed: u64,
    /// The file's openings, in the order they are used.
    file: Vec<Opening>,
    /// Generated openings: the pair the next one is for, and the last one made.
    next: u64,
    last: Option<Opening>,
    /// The final position of every opening made so far (8 bytes a pair).
    seen: SeenPositions,
    searcher: Option<Searcher>,
    /// Openings have started repeating.
    exhausted: bool,
    /// What to tell the user about it, until taken.
    note: Option<String>,
}

impl OpeningBook {
    /// Reads and checks the whole file up front (every unusable entry is reported, with its
    /// line) or prepares the generator.
    pub fn new(config: &OpeningConfig, variant: Variant, seed: u64) -> Result<OpeningBook, String> {
        let mut file = Vec::new();
        if let (Some(path), Some(format)) = (&config.file, config.file_format()) {
            file = read_book(path, format, variant, config.book_plies)?;
            if config.order == FileOrder::Random {
                file.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x0BE1_1F11_E5EE_D000));
            }
            let n = file.len();
            let first = config.start as usize;
            if first > n {
                return Err(format!(
                    "--openings start={first}: {} holds {n} opening{} (start 1..={n})",
                    path.display(),
                    if n == 1 { "" } else { "s" }
                ));
            }
            file.rotate_left(first - 1);
        }
        let searcher =
            (config.policy == OpeningPolicy::Balanced && config.file.is_none()).then(|| {
                Searcher::new(Options {
                    hash_mb: 1,
                    ..Options::default()
                })
            });
        Ok(OpeningBook {
            config: config.clone(),
            variant,
            seed,
            file,
            next: 0,
            last: None,
            seen: SeenPositions::default(),
            searcher,
            exhausted: false,
            note: None,
        })
    }

    /// The opening of pair `pair`. Pairs are asked for in order (each one twice, for its two
    /// games); asking for an earlier pair than the last makes the openings again from pair 0.
    pub fn get(&mut self, pair: u64) -> Opening {
        if !self.file.is_empty() {
            let n = self.file.len() as u64;
            if pair >= n {
                self.exhausted(format!(
                    "all {n} openings of the file are used: openings repeat from here"
                ));
            }
            return self.file[(pair % n) as usize].clone();
        }
        if pair + 1 < self.next {
            self.next = 0;
            self.seen.clear();
        }
        while self.next <= pair {
            self.last = Some(self.generate(self.next));
            self.next += 1;
        }
        self.last.clone().expect("made above")
    }

    fn generate(&mut self, pair: u64) -> Opening {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(pair);
        let start = AnyGame::start(self.variant);
        let mut last = None;
        for _ in 0..MAX_DRAWS {
            let Some(o) = self.random_walk(&start, &mut rng) else {
                continue;
            };
            let key = o.line().position().hash();
            if self.seen.contains(key) || !self.balanced(&o) {
                last = Some(o);
                continue;
            }
            self.seen.insert(key);
            return o;
        }
        let distinct = self.seen.len();
        self.exhausted(format!(
            "no new opening found for pair {pair} after {MAX_DRAWS} draws ({distinct} distinct so \
             far): openings repeat from here"
        ));
        last.unwrap_or(Opening {
            start,
            moves: Vec::new(),
        })
    }

    fn exhausted(&mut self, note: String) {
        if !self.exhausted {
            self.exhausted = true;
            self.note = Some(note);
        }
    }

    /// Whether openings have started repeating.
    pub fn is_exhausted(&self) -> bool {
        self.exhausted
    }

    /// The note about exhaustion, once.
    pub(crate) fn take_note(&mut self) -> Option<String> {
        self.note.take()
    }

    /// `plies` uniformly random legal plies; None if the game ended on the way.
    fn random_walk(&self, start: &AnyGame, rng: &mut ChaCha8Rng) -> Option<Opening> {
        let plies = self.config.walk_plies() as usize;
        let line = random_walk(start, plies, rng);
        (line.moves().len() == plies && !line.is_over()).then(|| Opening {
            start: start.clone(),
            moves: line.moves().to_vec(),
        })
    }

    fn balanced(&mut self, o: &Opening) -> bool {
        let Some(searcher) = self.searcher.as_mut() else {
            return true;
        };
        searcher.new_game();
        let limits = Limits {
            depth: Some(self.config.depth),
            ..Limits::default()
        };
        let report = searcher.search(&o.line(), &limits, &AtomicBool::new(false), &mut |_| {});
        match report.info.score {
            Score::Cp(cp) => cp.abs() <= self.config.margin_cp,
            Score::Mate(_) => false,
        }
    }
}

/// The one random walk of the arena, the compliance checker and the tests: up to `plies`
/// uniformly random legal plies from `start`, fewer when the game ends first. One draw of `rng`
/// a ply, so a seed fixes the walk.
pub fn random_walk(start: &AnyGame, plies: usize, rng: &mut impl Rng) -> GameLine<AnyGame> {
    let mut line = GameLine::new(start.clone());
    for _ in 0..plies {
        let legal = line.position().legal_moves();
        if legal.is_empty() || line.is_over() {
            break;
        }
        let mv = legal[rng.gen_range(0..legal.len())];
        if line.play(mv).is_err() {
            break;
        }
    }
    line
}

/// The largest opening file read: a book of millions of positions is a few hundred MB.
pub(crate) const MAX_BOOK_BYTES: u64 = 1 << 30;

/// Reads every entry of an openings file, cut to `plies`. Every unusable entry is reported, one
/// line each as `FILE:LINE: why` (`FILE:LINE (game G): why` in PGN, LINE the game's first), so
/// one run shows all that needs fixing; a file with no opening at all is an error too.
fn read_book(
    path: &std::path::Path,
    format: BookFormat,
    variant: Variant,
    plies: Option<u32>,
) -> Result<Vec<Opening>, String> {
    let name = path.display();
    let text = crate::input::read_input_file(path, MAX_BOOK_BYTES, "opening file")?;
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    let mut entries = 0;
    if format == BookFormat::Pgn {
        let games = crate::pgn::parse(&text)
            .map_err(|e| format!("opening file {name}:{}: {} (format=pgn)", e.line, e.message))?;
        for (i, game) in games.iter().enumerate() {
            entries += 1;
            match pgn_opening(game, variant, plies) {
                Ok(o) => openings.push(o),
                Err(e) => errors.push(format!("{name}:{} (game {}): {e}", game.line, i + 1)),
            }
        }
    } else {
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            entries += 1;
            match line_opening(line, format, variant, plies) {
                Ok(o) => openings.push(o),
                Err(e) => errors.push(format!("{name}:{}: {e}", i + 1)),
            }
        }
    }
    if !errors.is_empty() {
        return Err(format!(
            "opening file {name}: {} of {entries} entries unusable{}:\n{}",
            errors.len(),
            if openings.is_empty() {
                " (no usable opening)"
            } else {
                ""
            },
            errors.join("\n")
        ));
    }
    if openings.is_empty() {
        return Err(format!(
            "opening file {name} holds no opening (format={})",
            match format {
                BookFormat::Epd => "epd",
                BookFormat::Txt => "txt",
                BookFormat::Pgn => "pgn",
            }
        ));
    }
    Ok(openings)
}

/// A line of an `epd` or `txt` file: `startpos` or a position string, optionally followed by
/// `moves ...`; in `txt`, also a bare list of moves from the start position (move numbers like
/// `1.` are skipped).
fn line_opening(
    line: &str,
    format: BookFormat,
    variant: Variant,
    plies: Option<u32>,
) -> Result<Opening, String> {
    let first = line.split_ascii_whitespace().next().unwrap_or("");
    let after_moves = |rest: &str| -> Result<(), String> {
        match rest.split_ascii_whitespace().next() {
            None | Some("moves") => Ok(()),
            Some(t) => Err(format!(
                "'{}' after the position: expected 'moves'",
                crate::games::text::shorten(t)
            )),
        }
    };
    let (start, moves_text) = if first == "startpos" {
        let rest = line["startpos".len()..].trim_start();
        after_moves(rest)?;
        (
            AnyGame::start(variant),
            rest.strip_prefix("moves").unwrap_or(""),
        )
    } else if first.parse::<Variant>().is_ok() {
        let (pos, moves) = match line.find(" moves") {
            Some(i) => (&line[..i], &line[i + 6..]),
            None => (line, ""),
        };
        (start_position(pos, variant)?, moves)
    } else if format == BookFormat::Epd {
        return Err(format!(
            "'{}': format=epd expects a position string or startpos",
            crate::games::text::shorten(first)
        ));
    } else {
        (AnyGame::start(variant), line)
    };
    let tokens = moves_text
        .split_ascii_whitespace()
        .filter(|t| !crate::pgn::is_move_number(t));
    play_opening(start, tokens, plies)
}

/// A PGN game's opening: its first `plies` moves, from its `FEN` tag's position if it has one.
fn pgn_opening(
    game: &crate::pgn::PgnGame,
    variant: Variant,
    plies: Option<u32>,
) -> Result<Opening, String> {
    if let Some(v) = game.tag("Variant") {
        if v.parse::<Variant>().ok() != Some(variant) {
            return Err(format!(
                "Variant '{}': the run plays {variant}",
                crate::games::text::shorten(v)
            ));
        }
    }
    let start = match game.tag("FEN") {
        Some(fen) => start_position(fen, variant).map_err(|e| format!("FEN: {e}"))?,
        None => AnyGame::start(variant),
    };
    play_opening(start, game.moves.iter().map(String::as_str), plies)
}

/// A position string of the run's game.
fn start_position(text: &str, variant: Variant) -> Result<AnyGame, String> {
    let start = AnyGame::from_position(text.trim()).map_err(|e| e.to_string())?;
    if start.variant() != variant {
        return Err(format!(
            "the position is {}, the run plays {variant}",
            start.variant()
        ));
    }
    Ok(start)
}

/// Plays the first `plies` tokens (all when None) from `start`; the opening must leave a game to
/// play.
fn play_opening<'a>(
    start: AnyGame,
    tokens: impl Iterator<Item = &'a str>,
    plies: Option<u32>,
) -> Result<Opening, String> {
    let mut game = GameLine::new(start.clone());
    let mut moves = Vec::new();
    for (i, token) in tokens
        .take(plies.map_or(usize::MAX, |p| p as usize))
        .enumerate()
    {
        let (mv, _) = game
            .play_token(token)
            .map_err(|e| format!("ply {}: {e}", i + 1))?;
        moves.push(mv);
    }
    if game.is_over() {
        let hint = if plies.is_none() {
            " (plies=N takes each entry's first N plies)"
        } else {
            ""
        };
        return Err(format!(
            "the game is over after this opening's {} plies{hint}",
            moves.len()
        ));
    }
    Ok(Opening { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn cfg(s: &str) -> OpeningConfig {
        OpeningConfig::parse(&s.split(' ').map(String::from).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn random_openings_are_seeded_and_distinct() {
        let mut a = OpeningBook::new(&cfg("plies=6"), Variant::TOGUZ, 7).unwrap();
        let mut b = OpeningBook::new(&cfg("plies=6"), Variant::TOGUZ, 7).unwrap();
        let mut c = OpeningBook::new(&cfg("plies=6"), Variant::TOGUZ, 8).unwrap();
        let first: Vec<_> = (0..20).map(|p| a.get(p).moves).collect();
        // Same seed, asked out of order: the same openings.
        assert_eq!(b.get(19).moves, first[19]);
        assert_eq!(b.get(3).moves, first[3]);
        assert_ne!(c.get(0).moves, first[0]);
        let distinct: HashSet<_> = first.iter().collect();
        assert_eq!(distinct.len(), 20);
        assert!(first.iter().all(|m| m.len() == 6));
        assert!(!a.is_exhausted());
    }

    #[test]
    fn balanced_openings_are_judged_and_reproducible() {
        let c = cfg("plies=6 policy=balanced margin=200 depth=2");
        let mut a = OpeningBook::new(&c, Variant::TOGUZ, 3).unwrap();
        let mut b = OpeningBook::new(&c, Variant::TOGUZ, 3).unwrap();
        for pair in 0..4 {
            let o = a.get(pair);
            assert_eq!(o.moves.len(), 6);
            assert_eq!(o.moves, b.get(pair).moves);
            // Within the margin by the same judge.
            let mut judge = Searcher::new(Options::default());
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            let r = judge.search(&o.line(), &limits, &AtomicBool::new(false), &mut |_| {});
            assert!(matches!(r.info.score, Score::Cp(cp) if cp.abs() <= 200));
        }
    }

    #[test]
    fn a_small_space_is_reported_exhausted() {
        // One ply of Toguz Kumalak: 9 distinct positions.
        let mut book = OpeningBook::new(&cfg("plies=1"), Variant::TOGUZ, 1).unwrap();
        let firsts: HashSet<_> = (0..9).map(|p| book.get(p).moves).collect();
        assert_eq!(firsts.len(), 9);
        assert!(!book.is_exhausted());
        book.get(9);
        assert!(book.take_note().is_some());
        book.get(10);
        assert!(book.take_note().is_none(), "said once");
    }

    #[test]
    fn file_openings_are_checked() {
        let dir = std::env::temp_dir().join(format!("otau-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.txt");
        std::fs::write(
            &path,
            "# comment\n1. 87 2\n\ntoguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1 moves 3\n",
        )
        .unwrap();
        let c = OpeningConfig {
            file: Some(path.clone()),
            ..OpeningConfig::default()
        };
        let mut book = OpeningBook::new(&c, Variant::TOGUZ, 0).unwrap();
        assert_eq!(book.get(0).move_names(), vec!["8", "2"]);
        assert_eq!(book.get(1).move_names(), vec!["3"]);
        assert_eq!(book.get(2).move_names(), vec!["8", "2"]);
        assert!(book.is_exhausted());
        std::fs::write(&path, "1. 87 2\n5 0\n").unwrap();
        let err = OpeningBook::new(&c, Variant::TOGUZ, 0).err().unwrap();
        assert!(err.contains("o.txt:2: "), "{err}");
        assert!(OpeningBook::new(&c, Variant::BESTEMSHE, 0).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_opening_options() {
        for bad in ["plies", "plies=x", "policy=best", "order=up", "colour=1"] {
            assert!(OpeningConfig::parse(&[bad.to_string()]).is_err(), "{bad}");
        }
        for (bad, why) in [
            ("file=b format=fen", "epd, txt or pgn"),
            ("file=b start=0", "1..=4294967295"),
            ("format=pgn", "applies to a file"),
            ("order=random", "applies to a file"),
        ] {
            let tokens: Vec<String> = bad.split(' ').map(String::from).collect();
            let err = OpeningConfig::parse(&tokens).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        let book = cfg("file=x.PGN");
        assert_eq!(book.file_format(), Some(BookFormat::Pgn));
        assert_eq!(
            cfg("file=x.epd format=txt").file_format(),
            Some(BookFormat::Txt)
        );
        assert_eq!(cfg("file=x.book").file_format(), Some(BookFormat::Txt));
        assert_eq!((book.plies, book.walk_plies()), (None, DEFAULT_PLIES));
        // Numbers out of range are refused with the range, never wrapped or raised: margin=2^32-1
        // used to become -1 (no opening balanced), depth=0 silently 1.
        for (bad, range) in [
            ("plies=1001", "0..=1000"),
            ("margin=4294967295", "0..=100000"),
            ("margin=-1", "0..=100000"),
            ("depth=0", "1..=120"),
            ("depth=121", "1..=120"),
        ] {
            let err = OpeningConfig::parse(&[bad.to_string()]).unwrap_err();
            assert!(err.contains(range), "{bad}: {err}");
        }
        let c = cfg("file=b.txt plies=3");
        assert_eq!((c.plies, c.book_plies), (None, Some(3)));
        // A records header written before books could be cut: its `plies` beside `file` was the
        // (unused) walk length, so resuming it keeps the book's entries whole.
        let old: OpeningConfig = serde_json::from_str(
            r#"{"plies":4,"policy":"random","margin_cp":300,"depth":4,"file":"b.txt","order":"sequential"}"#,
        )
        .unwrap();
        assert_eq!((old.plies, old.book_plies, old.start), (Some(4), None, 1));
        let c = cfg("plies=1000 margin=100000 depth=120");
        assert_eq!((c.plies, c.margin_cp, c.depth), (Some(1000), 100_000, 120));
        c.check().unwrap();
        let wrapped = OpeningConfig {
            margin_cp: -1,
            ..OpeningConfig::default()
        };
        assert!(wrapped.check().is_err());
    }
}
