//! The app's log: what happened (levels opened, stages failed, presets
//! saved), shown in the log panel. Errors land here instead of panicking, so
//! a bad file or a failing stage leaves the app running.

use bevy::prelude::*;

/// How serious a log entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Something happened.
    Info,
    /// Something went wrong; the app carries on.
    Error,
}

/// One log line.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// How serious.
    pub severity: Severity,
    /// The message, one line.
    pub text: String,
}

/// The log shown in the log panel, oldest first, capped in length.
#[derive(Resource, Debug, Default)]
pub struct Journal {
    entries: Vec<Entry>,
    /// Count of errors ever logged (the panel flags new ones).
    pub errors: u64,
}

/// How many entries are kept; older ones are dropped.
pub const CAPACITY: usize = 500;

impl Journal {
    /// Logs an informational line (also to stderr through Bevy's logger).
    pub fn info(&mut self, text: impl Into<String>) {
        let text = text.into();
        info!("{text}");
        self.push(Severity::Info, text);
    }

    /// Logs an error line.
    pub fn error(&mut self, text: impl Into<String>) {
        let text = text.into();
        warn!("{text}");
        self.errors += 1;
        self.push(Severity::Error, text);
    }

    fn push(&mut self, severity: Severity, text: String) {
        if self.entries.len() == CAPACITY {
            self.entries.remove(0);
        }
        self.entries.push(Entry { severity, text });
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The most recent error, if any.
    pub fn last_error(&self) -> Option<&Entry> {
        self.entries
            .iter()
            .rev()
            .find(|e| e.severity == Severity::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_entries() {
        let mut j = Journal::default();
        for i in 0..CAPACITY + 3 {
            j.info(format!("{i}"));
        }
        j.error("bad");
        assert_eq!(j.entries().len(), CAPACITY);
        assert_eq!(j.entries()[0].text, "4");
        assert_eq!(j.last_error().unwrap().text, "bad");
        assert_eq!(j.errors, 1);
    }
}
