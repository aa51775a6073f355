//! PGN for every game, written from its record (so a resumed or merged run can rewrite it).
//!
//! The seven standard tags come first, so rating tools (Ordo, BayesElo) read the games as they
//! read chess games; `Variant` names the game id. Moves are in the game's record notation
//! (federation notation for Toguz Kumalak), numbered by the position's full-move number so that
//! Giuthi's extra moves (the same side twice) still read correctly. Opening moves carry `{book}`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{Read, Write};

use anyhow::{bail, Context, Result};

use crate::arena::pairing::schedule::Shard;
use crate::arena::records::{GameRecord, MoveRecord, TerminationKind};
use crate::arena::system::files::{self, Created, Named, Target};
use crate::games::{AnyGame, Game, Side};

/// The games a run plays, in game order: the schedule, or one shard of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slice {
    pub scheduled: u64,
    pub shard: Option<Shard>,
}

impl Slice {
    /// The first game of the slice at or after `index` (`scheduled` when there is none).
    pub(crate) fn first_from(&self, index: u64) -> u64 {
        let i = match self.shard {
            None => index,
            Some(s) => {
                let (n, r) = (s.n as u64, (s.k - 1) as u64);
                let pair = index / 2;
                if s.contains(pair) {
                    index
                } else {
                    let base = pair - pair % n + r;
                    2 * if base > pair { base } else { base + n }
                }
            }
        };
        i.min(self.scheduled)
    }
}

/// The PGN of a run as it goes, games in game order whatever order they finish in: a game that
/// ends before an earlier one waits for it. So a run's PGN is the same at any concurrency, and
/// the PGN of a resumed run ends equal to an uninterrupted run's. At the end of a session the
/// games still waiting (after one left unplayed by an interrupt or a stop) are written too, in
/// game order; a resumed run rewrites the PGN from the records, in order again.
pub(crate) struct PgnWriter {
    out: Named,
    /// A regular file is held under an exclusive lock for the run, as its records are: another
    /// command writing it would interleave or replace the games.
    file: File,
    event: String,
    slice: Slice,
    /// The next game to write.
    next: u64,
    /// Finished games after `next`, as PGN text.
    waiting: BTreeMap<u64, String>,
}

impl PgnWriter {
    /// The PGN of a new run: a new file (registered in `created`), an empty one, one whose
    /// first `keep` bytes stay (`--pgn-append`), or a stream.
    pub fn create(
        out: Named,
        event: &str,
        slice: Slice,
        keep: u64,
        created: &mut Created,
    ) -> Result<PgnWriter> {
        let file =
            match files::target(&out.path).with_context(|| format!("{out}: cannot be examined"))? {
                Target::Stream => files::open_stream(&out)?,
                Target::Directory => bail!("{out}: is a directory; give a file name"),
                Target::Regular(len) if len != keep => {
                    bail!("{out}: changed while the run started ({len} bytes, {keep} expected)")
                }
                Target::Regular(_) => files::open_append(&out, false)?,
                Target::Absent => {
                    let f = files::open_append(&out, true)?;
                    created.file(&files::real_path(&out.path));
                    f
                }
            };
        Ok(PgnWriter {
            out,
            file,
            event: event.to_string(),
            slice,
            next: slice.first_from(0),
            waiting: BTreeMap::new(),
        })
    }

    /// The PGN of a resumed run, rewritten from its records: the first `keep` bytes of the file
    /// (what was there before the run), then the recorded games in game order up to the first
    /// one not yet played (the rest wait for it). A regular file is rewritten whole (written
    /// beside it and renamed over it); a stream gets the games again.
    pub fn resume(
        out: Named,
        event: &str,
        slice: Slice,
        keep: u64,
        recorded: &BTreeMap<u64, GameRecord>,
    ) -> Result<PgnWriter> {
        let mut next = slice.first_from(0);
        let mut ready = Vec::new();
        let mut waiting = BTreeMap::new();
        for (&i, g) in recorded {
            if i == next && waiting.is_empty() {
                ready.push(g);
                next = slice.first_from(i + 1);
            } else {
                waiting.insert(i, game_pgn(g, event));
            }
        }
        let write_games = |w: &mut dyn Write| -> std::io::Result<()> {
            for g in &ready {
                w.write_all(game_pgn(g, event).as_bytes())?;
            }
            Ok(())
        };
        let file =
            match files::target(&out.path).with_context(|| format!("{out}: cannot be examined"))? {
                Target::Stream => {
                    let mut f = files::open_stream(&out)?;
                    let mut w = std::io::BufWriter::new(&mut f);
                    write_games(&mut w)
                        .and_then(|_| w.flush())
                        .with_context(|| format!("{out}: cannot be written"))?;
                    drop(w);
                    f
                }
                Target::Directory => bail!("{out}: is a directory; give a file name"),
                Target::Regular(_) | Target::Absent => {
                    // Not while another run appends to it (the rename would leave it writing to a
                    // file no name reaches): its lock is taken first, and held until replaced.
                    let old = match files::target(&out.path) {
                        Ok(Target::Regular(_)) => Some(files::hold(&out)?),
                        _ => None,
                    };
                    let prefix = prefix(&out, keep)?;
                    files::rewrite_held(&out, old, |w| {
                        w.write_all(&prefix)?;
                        write_games(w)
                    })?
                    .context("the PGN became a stream while it was rewritten")?
                }
            };
        Ok(PgnWriter {
            out,
            file,
            event: event.to_string(),
            slice,
            next,
            waiting,
        })
    }

    /// A finished game: written now if it is the next in game order, else when its turn comes.
    pub fn add(&mut self, g: &GameRecord) -> Result<()> {
        self.waiting.insert(g.index, game_pgn(g, &self.event));
        let mut text = String::new();
        while let Some(t) = self.waiting.remove(&self.next) {
            text.push_str(&t);
            self.next = self.slice.first_from(self.next + 1);
        }
        self.write(text.as_bytes())
    }

    /// The end of a session: the games still waiting, in game order.
    pub fn finish(&mut self) -> Result<()> {
        let text: String = std::mem::take(&mut self.waiting).into_values().collect();
        self.write(text.as_bytes())
    }

    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.file
            .write_all(bytes)
            .and_then(|_| self.file.flush())
            .with_context(|| {
                format!(
                    "{}: cannot write (the records hold every game: fix the cause, then \
                     --resume rewrites the PGN from them)",
                    self.out
                )
            })
    }
}

/// The first `keep` bytes of a PGN (what it held before the run).
fn prefix(out: &Named, keep: u64) -> Result<Vec<u8>> {
    if keep == 0 {
        return Ok(Vec::new());
    }
    let mut bytes = Vec::new();
    File::open(&out.path)
        .and_then(|f| f.take(keep).read_to_end(&mut bytes))
        .with_context(|| format!("{out}: cannot be read"))?;
    if (bytes.len() as u64) < keep {
        bail!(
            "{out}: holds {} bytes, fewer than the {keep} it held before the run (it was \
             changed since); move it away and resume: the run's games are written anew",
            bytes.len()
        );
    }
    Ok(bytes)
}

/// One game as PGN text, ending with a blank line.
pub fn game_pgn(record: &GameRecord, event: &str) -> String {
    pgn_text(record, event, true)
}

/// A game still in progress as PGN text (`otau web`'s download before the game ends): result
/// `*`, `Termination "unterminated"`, and no closing comment; `record.result` and
/// `record.termination` are not read.
pub fn unfinished_game_pgn(record: &GameRecord, event: &str) -> String {
    pgn_text(record, event, false)
}

fn pgn_text(record: &GameRecord, event: &str, finished: bool) -> String {
    let result = if finished { record.result.pgn() } else { "*" };
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    };
    tag(&mut out, "Event", event);
    tag(&mut out, "Site", "otau-arena");
    tag(&mut out, "Date", "????.??.??");
    tag(
        &mut out,
        "Round",
        &format!("{}.{}", record.round + 1, record.index + 1),
    );
    tag(&mut out, "White", &record.south);
    tag(&mut out, "Black", &record.north);
    tag(&mut out, "Result", result);
    tag(&mut out, "Variant", &record.game);
    let start = AnyGame::from_position(&record.opening.start).ok();
    let standard = start.as_ref().map(|s| *s == AnyGame::start(s.variant()));
    if standard == Some(false) {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &record.opening.start);
    }
    let termination = match record.termination.kind {
        _ if !finished => "unterminated",
        TerminationKind::Rules | TerminationKind::MaxPlies => "normal",
        TerminationKind::DecidedScore
        | TerminationKind::MaxMoves
        | TerminationKind::Resign
        | TerminationKind::DrawAdjudication
        | TerminationKind::Tables => "adjudication",
        TerminationKind::TimeLoss | TerminationKind::CpuOveruse => "time forfeit",
        TerminationKind::IllegalMove => "rules infraction",
        TerminationKind::Crash
        | TerminationKind::MemoryLimit
        | TerminationKind::Stall
        | TerminationKind::Forfeit => "abandoned",
    };
    tag(&mut out, "Termination", termination);
    tag(
        &mut out,
        "PlyCount",
        &(record.opening.moves.len() + record.moves.len()).to_string(),
    );
    out.push('\n');

    let mut text = String::new();
    let mut pos = start;
    let book = record.opening.moves.iter().map(|m| (m.as_str(), None));
    let played = record.moves.iter().map(|m| (m.mv.as_str(), Some(m)));
    let mut last_side = None;
    for (i, (token, rec)) in book.chain(played).enumerate() {
        let (number, side, name) = match pos.as_mut() {
            Some(p) => {
                let number = p.fullmove();
                let side = p.side_to_move();
                let name = match p.parse_move(token) {
                    Ok(mv) => {
                        let name = p.record_name(mv);
                        p.play(mv);
                        name
                    }
                    Err(_) => token.to_string(),
                };
                (number, side, name)
            }
            None => (
                (i / 2 + 1) as u32,
                if i % 2 == 0 { Side::South } else { Side::North },
                token.to_string(),
            ),
        };
        if side == Side::South {
            let _ = write!(text, "{number}. ");
        } else if last_side != Some(Side::South) {
            let _ = write!(text, "{number}... ");
        }
        last_side = Some(side);
        text.push_str(&name);
        text.push(' ');
        match rec {
            None if i + 1 == record.opening.moves.len() => text.push_str("{book} "),
            None => {}
            Some(m) => {
                if let Some(comment) = move_comment(m) {
                    let _ = write!(text, "{{{comment}}} ");
                }
            }
        }
    }
    if finished {
        let why = record.termination.describe().replace(['{', '}'], "");
        let _ = write!(text, "{{{why}}} ");
    }
    text.push_str(result);
    wrap(&text, 80, &mut out);
    out.push_str("\n\n");
    out
}

/// A move's comment as the PGN prints it: its score and depth, and its time in a timed game
/// (`+0.35/5 0.120s`); None when the engine said neither. The game viewer shows the same.
pub fn move_comment(m: &MoveRecord) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(s) = &m.score {
        parts.push(score_text(s, m.depth));
    }
    if let Some(t) = m.time_ms {
        parts.push(format!("{:.3}s", t as f64 / 1000.0));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// `cp 35` at depth 5 -> `+0.35/5` (stones); `mate -4` -> `-M4/5`; a bound is marked before
/// the number, `cp -5000 lowerbound` -> `>=-50.00/5` and `upperbound` `<=`, so that no reader
/// of the PGN takes it for a score.
fn score_text(score: &str, depth: Option<u32>) -> String {
    let mut it = score.split(' ');
    let number = match (it.next(), it.next().and_then(|v| v.parse::<i64>().ok())) {
        (Some("cp"), Some(cp)) => Some(format!("{:+.2}", cp as f64 / 100.0)),
        (Some("mate"), Some(m)) => Some(format!(
            "{}M{}",
            if m < 0 { "-" } else { "+" },
            m.unsigned_abs()
        )),
        _ => None,
    };
    let text = match (number, it.next(), it.next()) {
        (Some(n), None, _) => n,
        (Some(n), Some("lowerbound"), None) => format!(">={n}"),
        (Some(n), Some("upperbound"), None) => format!("<={n}"),
        _ => score.to_string(),
    };
    match depth {
        Some(d) => format!("{text}/{d}"),
        None => text,
    }
}

fn wrap(text: &str, width: usize, out: &mut String) {
    let mut col = 0;
    for word in text.split(' ') {
        if col > 0 && col + 1 + word.len() > width {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::records::{MoveRecord, OpeningRecord, Termination};
    use crate::games::{GameLine, Variant};

    /// A record of `plies` moves (the first `book` of them the opening) picked by position hash.
    fn record(start: AnyGame, book: usize, plies: usize) -> GameRecord {
        let mut line = GameLine::new(start.clone());
        let mut names = Vec::new();
        let mut moves = Vec::new();
        for i in 0..plies {
            if line.is_over() {
                break;
            }
            let pos = line.position().clone();
            let legal = pos.legal_moves();
            let mv = legal[(pos.hash() % legal.len() as u64) as usize];
            line.play(mv).unwrap();
            if i < book {
                names.push(pos.move_name(mv));
            } else {
                moves.push(MoveRecord {
                    mv: pos.move_name(mv),
                    notation: pos.record_name(mv),
                    time_ms: Some(12),
                    score: Some("cp -35".into()),
                    depth: Some(4),
                    nodes: None,
                    info_dropped: 0,
                    cpu_ms: None,
                    waiting_cpu_ms: None,
                    overuse: None,
                });
            }
        }
        GameRecord {
            index: 4,
            pair: 2,
            round: 1,
            encounter: None,
            game: start.variant().id(),
            south: "eng \"A\"".into(),
            north: "B".into(),
            opening: OpeningRecord {
                start: start.to_string(),
                moves: names,
            },
            moves,
            final_position: line.position().to_string(),
            result: crate::games::Outcome::Draw,
            termination: Termination {
                kind: TerminationKind::MaxPlies,
                side: None,
                reason: None,
                detail: "{odd} detail".into(),
                unplayed: false,
            },
            totals: None,
        }
    }

    /// Reads the PGN back with the library's reader and replays it with the rules.
    fn round_trip(r: &GameRecord) {
        let text = game_pgn(r, "test");
        let games = crate::pgn::parse(&text).unwrap();
        assert_eq!(games.len(), 1, "{text}");
        let g = &games[0];
        // PGN escapes quotes in tag values; the library reader unescapes them.
        assert_eq!(g.tag("White"), Some(r#"eng "A""#));
        assert_eq!(g.tag("Variant"), Some(r.game.as_str()));
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
        let mut pos = match g.tag("FEN") {
            Some(fen) => AnyGame::from_position(fen).unwrap(),
            None => AnyGame::start(r.game.parse::<Variant>().unwrap()),
        };
        assert_eq!(
            g.moves.len(),
            r.opening.moves.len() + r.moves.len(),
            "{text}"
        );
        for token in &g.moves {
            let mv = pos
                .parse_move(token)
                .unwrap_or_else(|e| panic!("{token}: {e}\n{text}"));
            pos.play(mv);
        }
        assert_eq!(pos.to_string(), r.final_position);
    }

    #[test]
    fn slices_step_through_their_own_games() {
        let all = Slice {
            scheduled: 7,
            shard: None,
        };
        assert_eq!(
            (all.first_from(0), all.first_from(6), all.first_from(9)),
            (0, 6, 7)
        );
        let s = Slice {
            scheduled: 20,
            shard: Some(Shard { k: 2, n: 3 }),
        };
        let games: Vec<u64> = std::iter::successors(Some(s.first_from(0)), |&i| {
            Some(s.first_from(i + 1)).filter(|&j| j < 20)
        })
        .collect();
        assert_eq!(games, [2, 3, 8, 9, 14, 15]);
    }

    #[test]
    fn toguz_pgn_uses_federation_notation_and_replays() {
        let r = record(AnyGame::start(Variant::TOGUZ), 4, 60);
        let text = game_pgn(&r, "test");
        assert!(text.contains("{book}"));
        assert!(text.contains("{-0.35/4 0.012s}"));
        assert!(!text.contains("[FEN"));
        assert!(text.lines().all(|l| l.len() <= 80));
        round_trip(&r);
    }

    #[test]
    fn giuthi_extra_moves_and_set_up_positions_replay() {
        round_trip(&record(AnyGame::start(Variant::GIUTHI), 2, 80));
        let mut later = GameLine::new(AnyGame::start(Variant::TOGUZ));
        for _ in 0..5 {
            let m = later.position().legal_moves()[0];
            later.play(m).unwrap();
        }
        let r = record(later.position().clone(), 0, 30);
        assert!(game_pgn(&r, "t").contains("[SetUp \"1\"]"));
        round_trip(&r);
    }
}
