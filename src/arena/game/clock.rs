//! Time controls and the arena's own clocks.
//!
//! The arena measures every think itself, from the `go` it wrote to the `bestmove` it read: an
//! engine's own `time` report is only recorded, never trusted. A move is late when it arrives
//! after the remaining time (or `st`) plus `timemargin`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// `tc=moves/time+inc` or `tc=time+inc` (seconds, fractions allowed; the time also as `m:ss`
/// or `h:mm:ss`, as cutechess-cli and fastchess write it).
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct TimeControl {
    /// Moves per period (`40/60`): the base time is added again after each period.
    pub moves: Option<u32>,
    /// The time at the start (and added again each period), in ms.
    pub base_ms: u64,
    /// The time added after each move, in ms.
    pub inc_ms: u64,
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `[MOVES/]TIME[+INC]`. TIME is at least 1 ms, since the first move is played on it alone
    /// (the increment comes after each move): `0+0.1` would lose every game on its first move.
    /// TIME may be written `m:ss` or `h:mm:ss` (`40/1:30+0.5`), and MOVES 0 means the whole game
    /// (cutechess-cli's `0/120+2`), as no MOVES does.
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = |why: String| {
            format!(
                "bad time control '{s}': {why} (expected [moves/]time[+inc], time in seconds or \
                 m:ss, e.g. 40/60+0.5, 10+0.1 or 40/1:30+0.5)"
            )
        };
        let (moves, rest) = match s.split_once('/') {
            // fastchess's and cutechess-cli's `inf/TIME+INC`: no move count (both read it so).
            Some(("inf" | "infinite", rest)) => (None, rest),
            Some((m, rest)) => (
                m.parse::<u32>()
                    .map(|m| (m > 0).then_some(m))
                    .map_err(|_| bad(format!("moves '{m}' is not in 0..={}", u32::MAX)))?,
                rest,
            ),
            None => (None, s),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = clock_seconds(base).map_err(|e| bad(format!("time {e}")))?;
        let base_ms = seconds_in(&base, 1).map_err(|e| {
            bad(format!(
                "time {e}; the first move is played on the time alone, the increment comes after \
                 each move"
            ))
        })?;
        let inc_ms = seconds_in(inc, 0).map_err(|e| bad(format!("increment {e}")))?;
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

/// `m:ss` or `h:mm:ss` (the last part seconds, fractions allowed) as plain seconds for
/// [`seconds_in`]; anything without `:` unchanged.
fn clock_seconds(s: &str) -> Result<String, String> {
    if !s.contains(':') {
        return Ok(s.to_string());
    }
    let parts: Vec<&str> = s.split(':').collect();
    let bad = || format!("'{s}' is not m:ss or h:mm:ss");
    let (last, whole) = parts.split_last().ok_or_else(bad)?;
    if whole.len() > 2 {
        return Err(bad());
    }
    let mut secs = 0u64;
    for part in whole {
        let n: u64 = part.parse().map_err(|_| bad())?;
        secs = secs.saturating_mul(60).saturating_add(n);
    }
    let tail: f64 = last
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)
        .ok_or_else(bad)?;
    Ok(format!("{}", secs.saturating_mul(60) as f64 + tail))
}

/// The longest time any option may give, in ms: a day (clocks, `st`, timeouts, `timemargin`).
pub(crate) const MAX_MS: u64 = 86_400_000;

/// Seconds (fractions allowed) as whole milliseconds, rounded to the nearest, in
/// `min_ms..=MAX_MS`; the error says why not (`'x' is not ...`, `... is outside ...`, or below the
/// millisecond resolution), for the caller to prefix with the option.
pub fn seconds_in(s: &str, min_ms: u64) -> Result<u64, String> {
    let range = || format!("{}..={} seconds", seconds_text(min_ms), MAX_MS / 1000);
    // fastchess's unit suffix: `2+0.02s`, `st=0.1s`.
    let t = s.trim();
    let t = t.strip_suffix('s').filter(|t| !t.is_empty()).unwrap_or(t);
    let v: f64 = t
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| format!("'{s}' is not a number of seconds ({})", range()))?;
    if !(0.0..=(MAX_MS / 1000) as f64).contains(&v) {
        return Err(format!("{s} is outside {}", range()));
    }
    let ms = (v * 1000.0).round() as u64;
    if v > 0.0 && ms < min_ms.max(1) {
        return Err(format!(
            "{s} s rounds to 0 ms: times are whole milliseconds ({})",
            range()
        ));
    }
    if ms < min_ms {
        return Err(format!("{s} is outside {}", range()));
    }
    Ok(ms)
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
    /// `tc=`: the clock, when the game is timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// `st=`: fixed time per move, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    /// `depth=`: plies the engine searches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// `nodes=`: nodes the engine searches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Lateness forgiven before a time loss, in ms.
    pub timemargin_ms: u64,
    /// Longest wait for a move when no clock or `st` bounds it (depth/nodes searches), in ms.
    pub timeout_ms: u64,
}

impl MoveLimits {
    pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 60_000;
    /// `depth=`: UGI engines commonly read it as a signed 32-bit number.
    pub const MAX_DEPTH: u32 = i32::MAX as u32;
    /// `nodes=`: a signed 64-bit number for the same reason.
    pub(crate) const MAX_NODES: u64 = i64::MAX as u64;

    /// Every value in its range (see `protocol/arena.md`, Engines). The command line builds only
    /// such limits; this also checks the ones a records file gives `--resume`, so that no sum of
    /// times or margins can wrap.
    pub fn check(&self) -> Result<(), String> {
        if let Some(tc) = self.tc {
            if tc.moves == Some(0) || tc.base_ms == 0 || tc.base_ms > MAX_MS || tc.inc_ms > MAX_MS {
                return Err(format!(
                    "tc={tc}: time 0.001..=86400 s, increment 0..=86400 s, moves 1 or more"
                ));
            }
        }
        let ms_in = |what: &str, v: u64, min: u64| {
            if (min..=MAX_MS).contains(&v) {
                Ok(())
            } else {
                Err(format!("{what}: {v} ms is outside {min}..={MAX_MS} ms"))
            }
        };
        if let Some(st) = self.movetime_ms {
            ms_in("st", st, 1)?;
        }
        ms_in("timemargin", self.timemargin_ms, 0)?;
        ms_in("timeout", self.timeout_ms, 1)?;
        if let Some(d) = self.depth {
            if !(1..=Self::MAX_DEPTH).contains(&d) {
                return Err(format!("depth={d} is outside 1..={}", Self::MAX_DEPTH));
            }
        }
        if let Some(n) = self.nodes {
            if !(1..=Self::MAX_NODES).contains(&n) {
                return Err(format!("nodes={n} is outside 1..={}", Self::MAX_NODES));
            }
        }
        Ok(())
    }

    /// Whether the game's outcome can depend on wall time. Games where neither engine is timed
    /// are reproducible, and their records leave out wall times.
    pub(crate) fn is_timed(&self) -> bool {
        self.tc.is_some() || self.movetime_ms.is_some()
    }

    /// The limits as written, each followed by what it means in words, for the run's header:
    /// `tc=10/0.1` reads as 10 s by someone who meant `10+0.1`, and runs silently as "10 moves in
    /// 0.1 s" otherwise.
    pub fn explain(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            let base = seconds_text(tc.base_ms);
            let mut text = match tc.moves {
                Some(m) => format!("tc={tc} ({m} moves in {base} s, again every {m} moves"),
                None => format!("tc={tc} ({base} s for the whole game"),
            };
            if tc.inc_ms > 0 {
                text.push_str(&format!(", plus {} s a move", seconds_text(tc.inc_ms)));
            }
            parts.push(text + ")");
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("st={0} ({0} s a move)", seconds_text(ms)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d} ({d} plies a move)"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n} ({n} nodes a move)"));
        }
        if self.timemargin_ms > 0 {
            parts.push(format!(
                "timemargin={0} ({0} ms late forgiven)",
                self.timemargin_ms
            ));
        }
        parts.join(", ")
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
    /// A full clock for `tc` (no clock when `None`).
    pub fn new(tc: Option<TimeControl>) -> SideClock {
        SideClock {
            tc,
            remaining_ms: tc.map_or(0, |t| t.base_ms as i64),
            moves_made: 0,
        }
    }

    /// The time control this clock runs on.
    pub fn tc(&self) -> Option<TimeControl> {
        self.tc
    }

    pub(crate) fn remaining_ms(&self) -> u64 {
        self.remaining_ms.max(0) as u64
    }

    /// Moves left in the current period (for `movestogo`).
    pub fn moves_to_go(&self) -> Option<u32> {
        let per = self.tc?.moves?;
        Some(per - self.moves_made % per)
    }

    /// Charges a think; false when it overran the remaining time plus `margin_ms` (a time loss).
    pub(crate) fn charge(&mut self, used_ms: u64, margin_ms: u64) -> bool {
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
        // cutechess-cli's and fastchess's spellings: m:ss and h:mm:ss, and 0 moves for the whole
        // game.
        let tc: TimeControl = "40/1:30+0.5".parse().unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 90_000, 500));
        assert_eq!(
            "1:00:00.5".parse::<TimeControl>().unwrap().base_ms,
            3_600_500
        );
        let tc: TimeControl = "0/120+2".parse().unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 120_000, 2000));
        for bad in [
            "", "x", "x/10", "10+", "-1+1", "0+0", "1e9", "NaN", "5/6/7", "1:2:3:4", ":", "1:x",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        // Each refusal says why: a clock of no time loses every game on move 1, and a value
        // below the millisecond is not silently zero.
        for (bad, why) in [
            ("0+0.1", "the first move is played on the time alone"),
            ("0.0004", "time 0.0004 s rounds to 0 ms"),
            ("10+0.0004", "increment 0.0004 s rounds to 0 ms"),
            ("10+86401", "increment 86401 is outside 0..=86400 seconds"),
            ("x/10", "moves 'x' is not in 0..=4294967295"),
        ] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert_eq!("0.001".parse::<TimeControl>().unwrap().base_ms, 1);
        assert_eq!("86400+86400".parse::<TimeControl>().unwrap().inc_ms, MAX_MS);
        assert_eq!(seconds_in("0.0015", 1), Ok(2), "rounded to the nearest ms");
        assert_eq!(seconds_in("0", 0), Ok(0));
    }

    #[test]
    fn limits_out_of_range_are_refused() {
        let ok = MoveLimits {
            timeout_ms: MoveLimits::DEFAULT_TIMEOUT_MS,
            depth: Some(MoveLimits::MAX_DEPTH),
            nodes: Some(MoveLimits::MAX_NODES),
            timemargin_ms: MAX_MS,
            ..MoveLimits::default()
        };
        ok.check().unwrap();
        for bad in [
            MoveLimits {
                timemargin_ms: u64::MAX - 99,
                ..ok.clone()
            },
            MoveLimits {
                movetime_ms: Some(0),
                ..ok.clone()
            },
            MoveLimits {
                timeout_ms: 0,
                ..ok.clone()
            },
            MoveLimits {
                depth: Some(0),
                ..ok.clone()
            },
            MoveLimits {
                nodes: Some(u64::MAX),
                ..ok.clone()
            },
            MoveLimits {
                tc: Some(TimeControl {
                    moves: None,
                    base_ms: 0,
                    inc_ms: 100,
                }),
                ..ok.clone()
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
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
