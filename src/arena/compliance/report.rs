//! What a check found: one [`Item`] per checked step, and the whole [`ComplianceReport`] as
//! `otau check` and `otau-arena --check` print it.

use std::fmt;

/// How one item came out: a failure fails the whole check, a skip does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The engine did what the protocol asks.
    Pass,
    /// The engine did not; the item's detail says what it did instead.
    Fail,
    /// Not applicable to this engine (e.g. it has no `Game` option).
    Skip,
}

/// One checked item.
#[derive(Clone, Debug)]
pub struct Item {
    /// The item's fixed name, the one the report prints and [`ComplianceReport::item`] finds.
    pub name: &'static str,
    /// How the item came out.
    pub status: Status,
    /// What was sent and seen, so a failure can be mended without rerunning the check.
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
    /// The engine as the command line named it.
    pub engine: String,
    /// Every item checked, in the order checked (the later items assume the earlier ones).
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

    /// The item of that name, if the check got that far (tests and callers ask for one by name).
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
