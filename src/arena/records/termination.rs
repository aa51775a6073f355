//! How a game ended: the termination kinds (the names records, PGN and the endings column
//! show) and a game's termination with its side, rule and detail.

use serde::{Deserialize, Serialize};

use crate::games::{EndReason, Side};

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum TerminationKind {
    /// The game's own rules ended it (see `reason`).
    Rules,
    /// A player's store holds more than half of all stones: the result cannot change.
    DecidedScore,
    /// `--max-plies` reached: scored by the stones each player holds (store plus own row).
    MaxPlies,
    /// `--maxmoves` reached: a draw.
    MaxMoves,
    /// `--resign`: the engines' scores said the game was lost (see `detail`).
    Resign,
    /// `--draw`: the engines' scores said the game was even (see `detail`).
    DrawAdjudication,
    /// `--adjudicate tables`: the position is in the game's tables, which give its exact result.
    Tables,
    /// The engine sent an illegal or unreadable move.
    IllegalMove,
    /// No `bestmove` within the remaining time (or `st`, or the move timeout) plus the margin.
    TimeLoss,
    /// The engine's process ended or its pipes broke.
    Crash,
    /// The engine's process ended after the kernel killed a process of its control group at its
    /// `memory=` limit.
    MemoryLimit,
    /// `--overuse forfeit`: the engine used more CPU than its `cpus=` allow on its move, or
    /// computed on the opponent's time.
    CpuOveruse,
    /// No `ugiok` or `readyok` within the startup timeout.
    Stall,
    /// The engine failed to start too many times in a row: its games are forfeited unplayed.
    Forfeit,
}

impl TerminationKind {
    /// The kind's name in records, PGN and tables (stable: records files hold it).
    pub fn name(self) -> &'static str {
        match self {
            TerminationKind::Rules => "rules",
            TerminationKind::DecidedScore => "decided-score",
            TerminationKind::MaxPlies => "max-plies",
            TerminationKind::MaxMoves => "max-moves",
            TerminationKind::Resign => "resign",
            TerminationKind::DrawAdjudication => "draw-adjudication",
            TerminationKind::Tables => "tables",
            TerminationKind::IllegalMove => "illegal-move",
            TerminationKind::TimeLoss => "time-loss",
            TerminationKind::Crash => "crash",
            TerminationKind::MemoryLimit => "memory-limit",
            TerminationKind::CpuOveruse => "cpu-overuse",
            TerminationKind::Stall => "stall",
            TerminationKind::Forfeit => "forfeit",
        }
    }

    /// Whether an engine's failure ended the game (the engine on `side` lost by it).
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            TerminationKind::IllegalMove
                | TerminationKind::TimeLoss
                | TerminationKind::Crash
                | TerminationKind::MemoryLimit
                | TerminationKind::CpuOveruse
                | TerminationKind::Stall
                | TerminationKind::Forfeit
        )
    }
}

/// How and why a game ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Termination {
    /// What ended it.
    pub kind: TerminationKind,
    /// For a fault: the side whose engine failed (and lost). Absent if both failed to start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// For `rules`: the game's end rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<EndReason>,
    /// Human-readable details (the bad token, the exit status, ...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// The game ended before its first move: an engine never became ready for it (it failed to
    /// start or to answer its new game, or was out of the run). A Swiss scores it as a forfeit,
    /// not a game played; the other kinds as any loss. Absent (false) in every other game, and
    /// in records written before Swiss forfeits.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unplayed: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Termination {
    /// A termination of this kind, with no side, reason or detail yet.
    pub fn of(kind: TerminationKind) -> Termination {
        Termination {
            kind,
            side: None,
            reason: None,
            detail: String::new(),
            unplayed: false,
        }
    }

    /// The engine on `side` failed (and lost).
    pub fn fault(kind: TerminationKind, side: Side, detail: String) -> Termination {
        Termination {
            kind,
            side: Some(side),
            reason: None,
            detail,
            unplayed: false,
        }
    }

    /// `kind: reason or detail`, e.g. `rules: majority-in-store`, `time-loss: no move after ...`.
    pub fn describe(&self) -> String {
        let more = match self.reason {
            Some(r) => serde_json::to_value(r)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            None => self.detail.clone(),
        };
        if more.is_empty() {
            self.kind.name().to_string()
        } else {
            format!("{}: {more}", self.kind.name())
        }
    }
}
