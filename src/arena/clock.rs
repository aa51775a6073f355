//! Time controls and the arena's own clocks.
//!
//! The arena measures every think itself, from the `go` it wrote to the `bestmove` it read: an
//! engine's own `time` report is only recorded, never trusted. A move is late when it arrives
//! after the remaining time (or `st`) plus `timemargin`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// `tc=moves/time+inc` or `tc=time+inc` (seconds, fractions allowed).
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct TimeControl {
    /// Moves per period (`40/60`): the base time is added again after each period.
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!("bad time control '{s}' (expected moves/time+inc or time+inc, in seconds, e.g. 40/60+0.5 or 10+0.1)")
        };
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => (
                Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?),
                rest,
            ),
            None => (None, s),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = parse_seconds(base).ok_or_else(bad)?;
        let inc_ms = parse_seconds(inc).ok_or_else(bad)?;
        if base_ms == 0 && inc_ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", seconds_text(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", seconds_text(self.inc_ms))?;
        }
        Ok(())
    }
}

/// Seconds (fractions allowed, at most a day) as whole milliseconds.
pub fn parse_seconds(s: &str) -> Option<u64> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && (0.0..=86_400.0).contains(&v)).then(|| (v * 1000.0).round() as u64)
}

fn seconds_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

/// How one engine is asked to move: any combination of clock, fixed time per move, depth and
/// nodes (the engine stops at the first limit it reaches).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveLimits {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// `st=`: fixed time per move, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Lateness forgiven before a time loss, in ms.
    pub timemargin_ms: u64,
    /// Longest wait for a move when no clock or `st` bounds it (depth/nodes searches), in ms.
    pub timeout_ms: u64,
}

impl MoveLimits {
    pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

    /// Whether the game's outcome can depend on wall time. Games where neither engine is timed
    /// are reproducible, and their records leave out wall times.
    pub fn is_timed(&self) -> bool {
        self.tc.is_some() || self.movetime_ms.is_some()
    }

    /// `depth=`/`nodes=`/`st=`/`tc=` as written on the command line.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("st={}", seconds_text(ms)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        parts.join(" ")
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct SideClock {
    tc: Option<TimeControl>,
    remaining_ms: i64,
    moves_made: u32,
}

impl SideClock {
    pub fn new(tc: Option<TimeControl>) -> SideClock {
        SideClock {
            tc,
            remaining_ms: tc.map_or(0, |t| t.base_ms as i64),
            moves_made: 0,
        }
    }

    pub fn tc(&self) -> Option<TimeControl> {
        self.tc
    }

    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms.max(0) as u64
    }

    /// Moves left in the current period (for `movestogo`).
    pub fn moves_to_go(&self) -> Option<u32> {
        let per = self.tc?.moves?;
        Some(per - self.moves_made % per)
    }

    /// Charges a think; false when it overran the remaining time plus `margin_ms` (a time loss).
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> bool {
        let Some(tc) = self.tc else { return true };
        let late = used_ms as i64 > self.remaining_ms + margin_ms as i64;
        self.remaining_ms = (self.remaining_ms - used_ms as i64).max(0) + tc.inc_ms as i64;
        self.moves_made += 1;
        if let Some(per) = tc.moves {
            if self.moves_made.is_multiple_of(per) {
                self.remaining_ms += tc.base_ms as i64;
            }
        }
        !late
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        let tc: TimeControl = "40/60+0.5".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            }
        );
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!("10+0.1".parse::<TimeControl>().unwrap().inc_ms, 100);
        assert_eq!("8".parse::<TimeControl>().unwrap().base_ms, 8000);
        for bad in ["", "x", "0/10", "10+", "-1+1", "0+0", "1e9", "NaN", "5/6/7"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_charges_increments_and_periods() {
        let mut c = SideClock::new(Some("2/1+0.1".parse().unwrap()));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(300, 0));
        assert_eq!(c.remaining_ms(), 800);
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(300, 0));
        // Period over: base time added again.
        assert_eq!(c.remaining_ms(), 600 + 1000);
        assert!(!c.charge(1700, 50));
        let mut c = SideClock::new(Some("1".parse().unwrap()));
        assert!(c.charge(1040, 50), "within the margin");
        assert_eq!(c.remaining_ms(), 0);
    }
}
