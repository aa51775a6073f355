//! What an engine program is held to (`sandbox=`, `memory=`, `processes=`, `cpus=`): the keys as
//! the run records them. How they are enforced (bubblewrap, control groups, rlimits) is
//! `crate::arena::engine::sandbox`'s.

use serde::{Deserialize, Serialize};

/// The most `memory=` takes, in MB: 1 TiB.
pub const MAX_MEMORY_MB: u64 = 1 << 20;
/// The most `processes=` takes (the kernel's own `pid_max` is at most 4194304).
pub const MAX_PROCESSES: u64 = 4_194_304;
/// The most `cpus=` takes.
pub const MAX_CPUS: u64 = 4096;

/// An engine's confinement. All off (the default) is an engine run with the arena's rights, as
/// fastchess and cutechess-cli run it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confinement {
    /// `sandbox=on`: run under bubblewrap (the system read-only, its folder read-only, a private
    /// scratch folder, no network, no other process).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sandbox: bool,
    /// `memory=MB`: the engine and everything it starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mb: Option<u64>,
    /// `processes=N`: tasks (processes and threads) at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processes: Option<u64>,
    /// `cpus=N`: cores' worth of CPU time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<u64>,
    /// `overuse=warn|forfeit` (or `--overuse`): what follows a move on which the engine used more
    /// CPU than its `cpus=` allow, or computed on the opponent's time.
    #[serde(default, skip_serializing_if = "Overuse::is_warn")]
    pub overuse: Overuse,
}

/// What follows an engine's CPU overuse (`crate::arena::engine::sandbox::cpu`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Overuse {
    /// Reported by engine and count at the end of the run.
    #[default]
    Warn,
    /// The game is lost at the first, by `cpu-overuse`.
    Forfeit,
}

impl Overuse {
    pub(crate) fn is_warn(&self) -> bool {
        *self == Overuse::Warn
    }
}

impl Confinement {
    /// Nothing asked: the engine runs as it always did.
    pub fn is_none(&self) -> bool {
        *self == Confinement::default()
    }

    /// Whether any resource limit is asked.
    pub fn has_limits(&self) -> bool {
        self.memory_mb.is_some() || self.processes.is_some() || self.cpus.is_some()
    }

    /// Reads one of the keys; `None` when `key` is not one of them. The error says what the
    /// value may be, for the caller to name the list, the key and the value.
    pub(crate) fn set(&mut self, key: &str, value: &str) -> Option<Result<(), String>> {
        let num = |max: u64, unit: &str| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("a whole number{unit} in 1..={max}"))
        };
        Some(match key {
            "sandbox" if value == "on" || value == "off" => {
                self.sandbox = value == "on";
                Ok(())
            }
            "sandbox" => Err("on or off".into()),
            "overuse" if value == "warn" || value == "forfeit" => {
                self.overuse = if value == "warn" {
                    Overuse::Warn
                } else {
                    Overuse::Forfeit
                };
                Ok(())
            }
            "overuse" => Err("warn or forfeit".into()),
            "memory" => num(MAX_MEMORY_MB, " of MB").map(|n| self.memory_mb = Some(n)),
            "processes" => num(MAX_PROCESSES, "").map(|n| self.processes = Some(n)),
            "cpus" => num(MAX_CPUS, "").map(|n| self.cpus = Some(n)),
            _ => return None,
        })
    }

    /// The keys in words, as the run's header shows them (`sandbox=on memory=256`), empty when
    /// none.
    pub fn keys_text(&self) -> String {
        let mut out = Vec::new();
        if self.sandbox {
            out.push("sandbox=on".to_string());
        }
        if let Some(m) = self.memory_mb {
            out.push(format!("memory={m}"));
        }
        if let Some(p) = self.processes {
            out.push(format!("processes={p}"));
        }
        if let Some(c) = self.cpus {
            out.push(format!("cpus={c}"));
        }
        if self.overuse == Overuse::Forfeit {
            out.push("overuse=forfeit".to_string());
        }
        out.join(" ")
    }

    /// The values in range: checked on what `--resume` reads back too.
    pub fn check(&self) -> Result<(), String> {
        let mut probe = Confinement::default();
        for (key, value) in [
            ("memory", self.memory_mb),
            ("processes", self.processes),
            ("cpus", self.cpus),
        ] {
            if let Some(v) = value {
                let read = probe.set(key, &v.to_string()).expect("a key");
                read.map_err(|why| format!("{key}={v}: {why}"))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_and_checked() {
        let mut c = Confinement::default();
        assert!(c.is_none());
        assert_eq!(c.set("sandbox", "on"), Some(Ok(())));
        assert_eq!(c.set("memory", "256"), Some(Ok(())));
        assert_eq!(c.set("processes", "32"), Some(Ok(())));
        assert_eq!(c.set("cpus", "1"), Some(Ok(())));
        assert_eq!(c.keys_text(), "sandbox=on memory=256 processes=32 cpus=1");
        assert!(c.check().is_ok());
        assert_eq!(c.set("colour", "red"), None);
        assert!(c
            .set("sandbox", "yes")
            .unwrap()
            .unwrap_err()
            .contains("on or off"));
        assert!(c.set("memory", "0").unwrap().unwrap_err().contains("1..="));
        assert!(c.set("cpus", "1.5").unwrap().is_err());
        let bad = Confinement {
            cpus: Some(0),
            ..Default::default()
        };
        assert!(bad.check().unwrap_err().contains("cpus=0"));
    }
}
