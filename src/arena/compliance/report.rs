//! What a check found: one [`Item`] per checked step, and the whole [`ComplianceReport`] as
//! `otau check` and `otau-arena --check` print it.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    /// Not applicable to this engine (e.g. it has no `Game` option).
    Skip,
}

/// One checked item.
#[derive(Clone, Debug)]
pub struct Item {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
}

impl Item {
    pub(super) fn new(name: &'static str, status: Status, detail: impl Into<String>) -> Item {
        Item {
            name,
            status,
            detail: detail.into(),
        }
    }
}

/// The outcome of a whole check.
#[derive(Clone, Debug)]
pub struct ComplianceReport {
    pub engine: String,
    pub items: Vec<Item>,
    /// Why the check ended before its last item (the engine could not be started, did not
    /// complete the handshake, or stopped answering), if it did.
    pub stopped: Option<String>,
}

impl ComplianceReport {
    /// True when no item failed.
    pub fn passed(&self) -> bool {
        self.items.iter().all(|i| i.status != Status::Fail)
    }

    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name == name)
    }
}

impl fmt::Display for ComplianceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "UGI compliance of {}", self.engine)?;
        for item in &self.items {
            let status = match item.status {
                Status::Pass => "PASS",
                Status::Fail => "FAIL",
                Status::Skip => "SKIP",
            };
            writeln!(f, "{status} {:<22} {}", item.name, item.detail)?;
        }
        if let Some(why) = &self.stopped {
            writeln!(f, "check stopped: {why}")?;
        }
        let count = |s| self.items.iter().filter(|i| i.status == s).count();
        write!(
            f,
            "{} passed, {} failed, {} skipped: {}",
            count(Status::Pass),
            count(Status::Fail),
            count(Status::Skip),
            if self.passed() {
                "COMPLIANT"
            } else {
                "NOT COMPLIANT"
            }
        )
    }
}
