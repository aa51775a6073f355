//! A Swiss tournament's standings as organisers read them: points, then the tie-breaks chosen
//! and ordered (FIDE's tie-break regulations, C.07), and the crosstable.
//!
//! - Buchholz: the sum of the opponents' points; a round without an opponent (the bye, an
//!   absence, a forfeit) counts as an opponent with the player's own points (the regulations'
//!   dummy opponent for unplayed rounds).
//! - Buchholz cut-1: the same without the least of those.
//! - Sonneborn-Berger: the points of each opponent beaten, half of each drawn (games played).
//! - Direct encounter: among the players level on everything before it, the points scored in
//!   their games against each other.
//! - Games won (WON): games won over the board.
//! - Wins (WIN): rounds that scored a win's points, played or not (a forfeit won, a bye worth
//!   a win).
//!
//! `--tiebreaks` names them by the regulations' abbreviations (`bh-c1,bh,sb,de,won,win`, any
//! case) or by the long names the JSON keys use; the default is [`TieBreak::DEFAULT`].

use super::{Colour, Score, Tournament};

/// A tie-break, as `--tiebreaks` names it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TieBreak {
    /// The sum of the opponents' points (an unplayed round: the player's own).
    Buchholz,
    /// Buchholz without the least of its terms.
    BuchholzCut1,
    /// The points of each opponent beaten, half of each drawn.
    SonnebornBerger,
    /// Among the players level on everything before it: their points against each other.
    DirectEncounter,
    /// Games won over the board (C.07's WON; the JSON's `wins`).
    Wins,
    /// Rounds scored as a win, played or not (C.07's WIN).
    RoundsWon,
}

impl TieBreak {
    /// Every tie-break, in the order the help lists them.
    pub const ALL: [TieBreak; 6] = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
        TieBreak::RoundsWon,
    ];

    /// The tie-breaks when `--tiebreaks` is not given: Buchholz cut 1, Buchholz, Sonneborn-Berger,
    /// wins.
    pub const DEFAULT: [TieBreak; 4] = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
        TieBreak::Wins,
    ];

    /// The name on the command line and in the tables.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "buchholz",
            TieBreak::BuchholzCut1 => "buchholz-cut1",
            TieBreak::SonnebornBerger => "sonneborn-berger",
            TieBreak::DirectEncounter => "direct-encounter",
            TieBreak::Wins => "wins",
            TieBreak::RoundsWon => "rounds-won",
        }
    }

    /// FIDE's abbreviation (C.07): the usual `--tiebreaks` word.
    pub fn code(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "bh",
            TieBreak::BuchholzCut1 => "bh-c1",
            TieBreak::SonnebornBerger => "sb",
            TieBreak::DirectEncounter => "de",
            TieBreak::Wins => "won",
            TieBreak::RoundsWon => "win",
        }
    }

    /// The column heading in the standings (a few letters, so the table stays narrow).
    pub fn short(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "Buch",
            TieBreak::BuchholzCut1 => "BuC1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "Wins",
            TieBreak::RoundsWon => "RWins",
        }
    }

    /// A comma-separated list (`--tiebreaks bh-c1,bh,sb,de,won`): each an abbreviation or a
    /// long name, any case, none twice, at least one. The error names the word and every valid
    /// one.
    pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, String> {
        let mut out = Vec::new();
        for word in text.split(',').map(str::trim) {
            let found = TieBreak::ALL.iter().find(|t| {
                t.code().eq_ignore_ascii_case(word) || t.name().eq_ignore_ascii_case(word)
            });
            let Some(&tb) = found else {
                let names: Vec<String> = TieBreak::ALL
                    .iter()
                    .map(|t| format!("{} ({})", t.code(), t.name()))
                    .collect();
                return Err(format!(
                    "--tiebreaks {text}: unknown tie-break {word:?}; the valid ones: {}",
                    names.join(", ")
                ));
            };
            if out.contains(&tb) {
                return Err(format!("--tiebreaks {text}: {word:?} given twice"));
            }
            out.push(tb);
        }
        Ok(out)
    }
}

/// A player's line of the standings. Points in tenths, Sonneborn-Berger in hundredths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's index.
    pub player: usize,
    /// Points, in tenths.
    pub points: u32,
    /// The tie-breaks' values, in the order asked.
    pub values: Vec<u64>,
}

fn points_of(t: &Tournament) -> Vec<u32> {
    t.players
        .iter()
        .map(|p| p.rounds.iter().map(|r| t.points.of(r)).sum())
        .collect()
}

/// The standings: points, then `order`'s tie-breaks, then the pairing number.
pub fn standings(t: &Tournament, order: &[TieBreak]) -> Vec<Standing> {
    let points = points_of(t);
    let n = t.players.len();
    let mut keys: Vec<Vec<u64>> = (0..n).map(|p| vec![u64::from(points[p])]).collect();
    for &tb in order {
        let values: Vec<u64> = (0..n).map(|p| value(t, &points, &keys, p, tb)).collect();
        for (key, v) in keys.iter_mut().zip(values) {
            key.push(v);
        }
    }
    let mut rows: Vec<usize> = (0..n).collect();
    rows.sort_by(|&a, &b| keys[b].cmp(&keys[a]).then(a.cmp(&b)));
    rows.into_iter()
        .map(|p| Standing {
            player: p,
            points: points[p],
            values: keys[p][1..].to_vec(),
        })
        .collect()
}

fn value(t: &Tournament, points: &[u32], keys: &[Vec<u64>], p: usize, tb: TieBreak) -> u64 {
    let rounds = &t.players[p].rounds;
    match tb {
        TieBreak::Buchholz | TieBreak::BuchholzCut1 => {
            let mut scores: Vec<u64> = rounds
                .iter()
                .map(|r| match (r.played, r.opponent) {
                    (true, Some(o)) => u64::from(points[o]),
                    _ => u64::from(points[p]),
                })
                .collect();
            scores.sort_unstable();
            let skip = usize::from(tb == TieBreak::BuchholzCut1).min(scores.len());
            scores[skip..].iter().sum()
        }
        TieBreak::SonnebornBerger => rounds
            .iter()
            .filter(|r| r.played)
            .filter_map(|r| r.opponent.map(|o| (o, r.score)))
            .map(|(o, score)| match score {
                Score::Win => 10 * u64::from(points[o]),
                Score::Draw => 5 * u64::from(points[o]),
                Score::Loss => 0,
            })
            .sum(),
        TieBreak::DirectEncounter => rounds
            .iter()
            .filter(|r| r.played)
            .filter_map(|r| r.opponent.map(|o| (o, r)))
            .filter(|(o, _)| keys[*o] == keys[p])
            .map(|(_, r)| u64::from(t.points.of(r)))
            .sum(),
        TieBreak::Wins => rounds
            .iter()
            .filter(|r| r.played && r.score == Score::Win)
            .count() as u64,
        TieBreak::RoundsWon => rounds
            .iter()
            .filter(|r| t.points.of(r) >= t.points.win)
            .count() as u64,
    }
}

/// Tenths as `3.5`.
pub fn tenths(v: u64) -> String {
    format!("{}.{}", v / 10, v % 10)
}

/// A tie-break's value as the tables show it.
pub fn shown(tb: TieBreak, v: u64) -> String {
    match tb {
        TieBreak::SonnebornBerger => format!("{}.{:02}", v / 100, v % 100),
        TieBreak::Wins | TieBreak::RoundsWon => v.to_string(),
        _ => tenths(v),
    }
}

/// One crosstable cell: the opponent's rank in the standings, the colour and the result
/// (`12w1`, `3b=`, `-  +` a forfeit or bye won, `-  0` absent).
pub fn cell(t: &Tournament, rank_of: &[usize], p: usize, round: usize) -> String {
    let Some(r) = t.players[p].rounds.get(round) else {
        return "  .  ".into();
    };
    let result = match (r.played, r.score) {
        (true, Score::Win) => '1',
        (true, Score::Draw) => '=',
        (true, Score::Loss) => '0',
        (false, Score::Win) => '+',
        (false, Score::Draw) => 'h',
        (false, Score::Loss) => '-',
    };
    let colour = match r.colour {
        Some(Colour::White) => 'w',
        Some(Colour::Black) => 'b',
        None => ' ',
    };
    match r.opponent {
        Some(o) => format!("{:>3}{colour}{result}", rank_of[o] + 1),
        None if r.paired => format!("bye {result}"),
        None => format!("  - {result}"),
    }
}

/// The standings with the crosstable, as text: rank, name, points, a cell a round, the
/// tie-breaks.
pub fn table(t: &Tournament, order: &[TieBreak], names: &[String]) -> String {
    let rows = standings(t, order);
    let mut rank_of = vec![0; t.players.len()];
    for (rank, row) in rows.iter().enumerate() {
        rank_of[row.player] = rank;
    }
    let rounds = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!("{:>4}  {:<width$}  {:>5}", "Rank", "Name", "Pts");
    for r in 0..rounds {
        out.push_str(&format!("  {:>5}", format!("R{}", r + 1)));
    }
    for tb in order {
        out.push_str(&format!("  {:>6}", tb.short()));
    }
    out.push('\n');
    for (rank, row) in rows.iter().enumerate() {
        let name = names.get(row.player).map_or("?", String::as_str);
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>5}",
            rank + 1,
            name,
            tenths(u64::from(row.points))
        ));
        for r in 0..rounds {
            out.push_str(&format!("  {:>5}", cell(t, &rank_of, row.player, r)));
        }
        for (tb, v) in order.iter().zip(&row.values) {
            out.push_str(&format!("  {:>6}", shown(*tb, *v)));
        }
        out.push('\n');
    }
    out
}
