//! Adjudication beyond the game's own rules, as chess runners offer it (`--resign`, `--draw`,
//! `--maxmoves`), and what they cannot offer for these games: exact adjudication by the tables
//! (`--adjudicate tables`).
//!
//! The engines' scores are their last `info score` of each move, from the mover's view, in
//! centi-stones (`cp`) or moves to mate (`mate`). A move without a score breaks every streak, so
//! an engine that reports no score is never adjudicated by score; a move whose last score was a
//! bound (`lowerbound`, `upperbound`) is a move without a score.

use serde::{Deserialize, Serialize};

use crate::games::{AnyGame, Game, Side};
use crate::key_values::KeyValues;

/// Largest `score=` of `--resign` and `--draw`, in centi-stones: the range the client accepts
/// for `info score cp`.
pub const MAX_SCORE_CP: u32 = 100_000;

/// `--adjudicate`: whether the tables end games. Off by default: Modiar is solved from its
/// start, so with tables on every Modiar game would end before its first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdjudicateBy {
    /// Play on to the end (the default).
    None,
    /// End a game as soon as its position is within the game's tables, with their result.
    Tables,
}

/// `--resign movecount=N score=S [twosided=true]`: the loser's score (and with `twosided` the
/// winner's too) beyond `score` for `movecount` consecutive own moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Consecutive own moves the score must stay beyond `score`.
    pub movecount: u32,
    /// The score (centi-stones, from the engine's view) beyond which the engine is taken to be
    /// lost.
    pub score: u32,
    /// Also require the winner's score beyond `score` (both engines agree).
    #[serde(default)]
    pub twosided: bool,
}

/// `--draw movenumber=N movecount=M score=S`: after full move N, both engines' |score| at most
/// S for M consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// The full move before which no draw is adjudicated.
    pub movenumber: u32,
    /// Consecutive moves of each engine the scores must stay within `score`.
    pub movecount: u32,
    /// The largest |score| (centi-stones) still counted as level.
    pub score: u32,
}

/// Every adjudication option of a run (recorded in its configuration; records written before
/// they existed read as all off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicationRules {
    /// `--resign`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
    /// `--draw`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
    /// `--maxmoves N`: a game still running after N full moves (2N plies from the opening's
    /// start position) is a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_moves: Option<u32>,
    /// `--adjudicate tables`: a position within the game's tables ends the game with their
    /// exact result.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tables: bool,
}

impl AdjudicationRules {
    /// Whether nothing is on (what a records file without the field holds).
    pub(crate) fn is_off(&self) -> bool {
        *self == AdjudicationRules::default()
    }

    /// The ranges the options' parsers keep, checked again on what `--resume` reads back.
    pub fn check(&self) -> Result<(), String> {
        if let Some(r) = self.resign {
            if r.movecount == 0 || r.score == 0 {
                return Err(format!(
                    "--resign movecount={} score={}: movecount in 1..={}, score in 1..={}",
                    r.movecount,
                    r.score,
                    u32::MAX,
                    u32::MAX
                ));
            }
        }
        if let Some(d) = self.draw {
            if d.movecount == 0 || d.score > MAX_SCORE_CP {
                return Err(format!(
                    "--draw movecount={} score={}: movecount in 1..={}, score in 0..={MAX_SCORE_CP}",
                    d.movecount,
                    d.score,
                    u32::MAX
                ));
            }
        }
        if self.max_moves == Some(0) {
            return Err(format!("--maxmoves 0: 1..={}", u32::MAX));
        }
        Ok(())
    }
}

/// `option`'s `key=value` tokens, each key one of `keys` and given once; `numbers` of them
/// (`(key, min, max)`) read as whole numbers in `min..=max`, in the order of `numbers`. The
/// errors name the option, the key, the value and the range.
fn read<'t>(
    option: &str,
    tokens: &'t [String],
    keys: &[&str],
    numbers: &[(&str, u32, u32)],
) -> Result<(KeyValues<'t>, Vec<Option<u32>>), String> {
    let kv = KeyValues::parse(option, tokens.iter().map(String::as_str))
        .and_then(|kv| kv.only(keys))
        .and_then(|kv| kv.once(&[]))
        .map_err(|e| e.to_string())?;
    let values = numbers
        .iter()
        .map(|&(key, min, max)| {
            kv.get(key)
                .map(|v| kv.whole(key, v, min..=max))
                .transpose()
                .map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    Ok((kv, values))
}

impl ResignRule {
    /// Parses `--resign movecount=N score=S [twosided=true|false]` (both numbers required).
    pub fn parse(tokens: &[String]) -> Result<ResignRule, String> {
        // A bound above MAX_SCORE_CP is beyond every `cp` score an engine may report: only a
        // mate score reaches it (fastchess's `-resign score=500000` means just that).
        let numbers = [("movecount", 1, u32::MAX), ("score", 1, u32::MAX)];
        let keys = ["movecount", "score", "twosided"];
        let (kv, values) = read("--resign", tokens, &keys, &numbers)?;
        let twosided = kv
            .choice("twosided", &[("true", true), ("false", false)])
            .map_err(|e| e.to_string())?;
        match values[..] {
            [Some(movecount), Some(score)] => Ok(ResignRule {
                movecount,
                score,
                twosided: twosided.unwrap_or(false),
            }),
            _ => Err("--resign: give movecount=N and score=S".to_string()),
        }
    }
}

impl DrawRule {
    /// Parses `--draw movenumber=N movecount=M score=S` (all three required).
    pub fn parse(tokens: &[String]) -> Result<DrawRule, String> {
        let numbers = [
            ("movenumber", 0, u32::MAX),
            ("movecount", 1, u32::MAX),
            ("score", 0, MAX_SCORE_CP),
        ];
        let keys = numbers.map(|(key, ..)| key);
        match read("--draw", tokens, &keys, &numbers)?.1[..] {
            [Some(movenumber), Some(movecount), Some(score)] => Ok(DrawRule {
                movenumber,
                movecount,
                score,
            }),
            _ => Err("--draw: give movenumber=N movecount=M score=S".to_string()),
        }
    }
}

/// An engine's reported score, read from the record's `cp N` / `mate N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Cp(i64),
    Mate(i64),
}

impl Score {
    /// None for anything but an exact score: a bound (`cp -5000 lowerbound`, the record of an
    /// aspiration window failing) says only on which side of a number the score lies, so it
    /// counts as no score and breaks every streak, as a move without a score does.
    fn read(text: &str) -> Option<Score> {
        let mut words = text.split(' ');
        let (kind, value) = (words.next()?, words.next()?.parse().ok()?);
        if words.next().is_some() {
            return None;
        }
        match kind {
            "cp" => Some(Score::Cp(value)),
            "mate" => Some(Score::Mate(value)),
            _ => None,
        }
    }

    /// At most `-bound` (a mate against the mover counts).
    fn losing(self, bound: u32) -> bool {
        match self {
            Score::Cp(v) => v <= -i64::from(bound),
            Score::Mate(m) => m < 0,
        }
    }

    /// At least `bound` (a mate for the mover counts).
    fn winning(self, bound: u32) -> bool {
        match self {
            Score::Cp(v) => v >= i64::from(bound),
            Score::Mate(m) => m > 0,
        }
    }

    /// |score| at most `bound` (a mate never does).
    fn even(self, bound: u32) -> bool {
        matches!(self, Score::Cp(v) if v.abs() <= i64::from(bound))
    }
}

/// What the scores decided (the referee records it as `resign` or `draw-adjudication`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// `--resign`: `winner` wins; `detail` says whose scores.
    Resign { winner: Side, detail: String },
    /// `--draw`: a draw.
    Draw { detail: String },
}

/// The score streaks of one game, per side: consecutive own moves losing, winning and even.
#[derive(Debug)]
pub(crate) struct ScoreWatch {
    rules: AdjudicationRules,
    losing: [u32; 2],
    winning: [u32; 2],
    even: [u32; 2],
}

impl ScoreWatch {
    pub fn new(rules: AdjudicationRules) -> ScoreWatch {
        ScoreWatch {
            rules,
            losing: [0; 2],
            winning: [0; 2],
            even: [0; 2],
        }
    }

    /// Counts the move `side` just made at full move `fullmove` with its reported `score`;
    /// the adjudication it brings about, if any (resign before draw).
    pub(crate) fn after_move(
        &mut self,
        side: Side,
        fullmove: u32,
        score: Option<&str>,
    ) -> Option<Verdict> {
        let score = score.and_then(Score::read);
        let me = side.index();
        let bump = |count: &mut u32, yes: bool| *count = if yes { *count + 1 } else { 0 };
        if let Some(r) = self.rules.resign {
            bump(
                &mut self.losing[me],
                score.is_some_and(|s| s.losing(r.score)),
            );
            bump(
                &mut self.winning[me],
                score.is_some_and(|s| s.winning(r.score)),
            );
            for loser in Side::BOTH {
                let winner = loser.other();
                if self.losing[loser.index()] >= r.movecount
                    && (!r.twosided || self.winning[winner.index()] >= r.movecount)
                {
                    let detail = format!(
                        "{loser} scored <= -{} cp for {} moves{}",
                        r.score,
                        r.movecount,
                        if r.twosided {
                            format!(", {winner} >= {} cp", r.score)
                        } else {
                            String::new()
                        }
                    );
                    return Some(Verdict::Resign { winner, detail });
                }
            }
        }
        if let Some(d) = self.rules.draw {
            let counts = fullmove > d.movenumber && score.is_some_and(|s| s.even(d.score));
            bump(&mut self.even[me], counts);
            if self.even.iter().all(|&n| n >= d.movecount) {
                let detail = format!(
                    "|scores| <= {} cp for {} moves each after move {}",
                    d.score, d.movecount, d.movenumber
                );
                return Some(Verdict::Draw { detail });
            }
        }
        None
    }
}

/// `--max-plies` scoring: each player is credited with their store and the stones on their own
/// row, as the rules score a game in which the player to move is stuck.
pub(crate) fn stones_held(pos: &AnyGame) -> [u32; 2] {
    Side::BOTH.map(|s| pos.store(s) + pos.row(s).iter().map(|&n| n as u32).sum::<u32>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn rules_parse_with_precise_errors() {
        let r = ResignRule::parse(&toks("movecount=3 score=500 twosided=true")).unwrap();
        assert_eq!((r.movecount, r.score, r.twosided), (3, 500, true));
        let e = ResignRule::parse(&toks("movecount=0 score=500")).unwrap_err();
        assert_eq!(
            e,
            format!("--resign movecount=0: a whole number in 1..={}", u32::MAX)
        );
        // Beyond every cp score: only mate scores reach it (fastchess's score=500000).
        let r = ResignRule::parse(&toks("movecount=1 score=500000")).unwrap();
        assert_eq!(r.score, 500_000);
        let e = ResignRule::parse(&toks("movecount=2 score=0")).unwrap_err();
        assert!(e.contains(&format!("1..={}", u32::MAX)), "{e}");
        assert!(ResignRule::parse(&toks("score=5"))
            .unwrap_err()
            .contains("movecount=N"));
        assert!(ResignRule::parse(&toks("movecount=1 score=5 twosided=yes")).is_err());
        let d = DrawRule::parse(&toks("movenumber=10 movecount=4 score=0")).unwrap();
        assert_eq!((d.movenumber, d.movecount, d.score), (10, 4, 0));
        let e = DrawRule::parse(&toks("movenumber=1 movecount=2 scor=3")).unwrap_err();
        assert!(e.contains("unknown key 'scor'"), "{e}");
    }

    #[test]
    fn rules_round_trip_and_old_records_read_as_off() {
        let rules = AdjudicationRules {
            resign: Some(ResignRule::parse(&toks("movecount=3 score=400")).unwrap()),
            draw: Some(DrawRule::parse(&toks("movenumber=1 movecount=2 score=3")).unwrap()),
            max_moves: Some(80),
            tables: true,
        };
        let text = serde_json::to_string(&rules).unwrap();
        assert_eq!(
            serde_json::from_str::<AdjudicationRules>(&text).unwrap(),
            rules
        );
        let old: AdjudicationRules = serde_json::from_str("{}").unwrap();
        assert!(old.is_off());
        assert_eq!(serde_json::to_string(&old).unwrap(), "{}");
    }

    #[test]
    fn streaks_need_scores_on_consecutive_moves() {
        let rules = AdjudicationRules {
            resign: Some(ResignRule {
                movecount: 2,
                score: 500,
                twosided: false,
            }),
            ..Default::default()
        };
        let mut w = ScoreWatch::new(rules);
        assert!(w.after_move(Side::North, 1, Some("cp -600")).is_none());
        // A move without a score breaks the streak.
        assert!(w.after_move(Side::North, 2, None).is_none());
        assert!(w.after_move(Side::North, 3, Some("mate -3")).is_none());
        let v = w.after_move(Side::North, 4, Some("cp -500")).unwrap();
        assert!(
            matches!(
                v,
                Verdict::Resign {
                    winner: Side::South,
                    ..
                }
            ),
            "{v:?}"
        );

        let draw = AdjudicationRules {
            draw: Some(DrawRule {
                movenumber: 2,
                movecount: 1,
                score: 10,
            }),
            ..Default::default()
        };
        let mut w = ScoreWatch::new(draw);
        // Moves up to full move 2 do not count; a mate is never even.
        assert!(w.after_move(Side::South, 2, Some("cp 0")).is_none());
        assert!(w.after_move(Side::North, 2, Some("cp 0")).is_none());
        assert!(w.after_move(Side::South, 3, Some("cp 10")).is_none());
        assert!(w.after_move(Side::North, 3, Some("mate 2")).is_none());
        assert!(w.after_move(Side::South, 4, Some("cp -3")).is_none());
        let v = w.after_move(Side::North, 4, Some("cp 9")).unwrap();
        assert!(matches!(v, Verdict::Draw { .. }), "{v:?}");
    }
}
