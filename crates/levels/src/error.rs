//! The one error type of every loader.
//!
//! A [`LevelError`] prints as a single line `FILE: ELEMENT: PROBLEM` (or
//! `FILE: PROBLEM` when no single element is at fault), so the CLI can print
//! it as it is and the app can show it in one status line. Parsers inside the
//! crate produce a [`Fault`] (element and problem) and the loader adds the
//! file name.

use std::fmt;

use thiserror::Error;

/// What kind of problem a [`LevelError`] reports; lets callers react
/// (e.g. offer a bigger budget) without parsing the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The file could not be read.
    Io,
    /// The format could not be recognised, or the file says it is another
    /// format or version.
    Format,
    /// The file is not well-formed for its format (syntax, types, missing
    /// fields).
    Syntax,
    /// The geometry is invalid (self-intersections, holes outside, empty
    /// brushes, non-finite numbers, ...).
    Geometry,
    /// An index or name refers to something that does not exist.
    Reference,
    /// The level would exceed the memory [`Budget`](crate::Budget).
    Budget,
}

/// A problem with a level file: which file, which element, what is wrong.
///
/// Display is always exactly one line: `FILE: ELEMENT: PROBLEM`, or
/// `FILE: PROBLEM` when the problem concerns the whole file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", self.line())]
pub struct LevelError {
    file: String,
    element: String,
    problem: String,
    kind: ErrorKind,
}

impl LevelError {
    /// An error about `element` (may be empty) of `file`. Line breaks and
    /// other control characters in any part are replaced by spaces so the
    /// message stays on one line.
    pub fn new(file: &str, element: &str, problem: &str, kind: ErrorKind) -> Self {
        Self {
            file: one_line(file),
            element: one_line(element),
            problem: one_line(problem),
            kind,
        }
    }

    /// The file as the caller named it.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The element at fault (`outer`, `hole 3`, `line 17`, `brush 4 (line
    /// 30)`, ...); empty when the problem concerns the whole file.
    pub fn element(&self) -> &str {
        &self.element
    }

    /// What is wrong.
    pub fn problem(&self) -> &str {
        &self.problem
    }

    /// The kind of problem.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    fn line(&self) -> String {
        if self.element.is_empty() {
            format!("{}: {}", self.file, self.problem)
        } else {
            format!("{}: {}: {}", self.file, self.element, self.problem)
        }
    }
}

/// Collapses control characters (newlines, tabs, ...) into single spaces.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_space = false;
    for c in s.chars() {
        if c.is_control() || c == ' ' {
            if !last_space {
                out.push(' ');
            }
            last_space = true;
        } else {
            out.push(c);
            last_space = false;
        }
    }
    out.trim().to_string()
}

/// A problem found by a parser before the file name is known: element and
/// problem. [`Fault::in_file`] turns it into a [`LevelError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub kind: ErrorKind,
    pub element: String,
    pub problem: String,
}

impl Fault {
    /// A fault of `kind` about `element`.
    pub fn new(kind: ErrorKind, element: impl Into<String>, problem: impl fmt::Display) -> Self {
        Self {
            kind,
            element: element.into(),
            problem: problem.to_string(),
        }
    }

    /// A syntax fault.
    pub fn syntax(element: impl Into<String>, problem: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Syntax, element, problem)
    }

    /// A geometry fault.
    pub fn geometry(element: impl Into<String>, problem: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Geometry, element, problem)
    }

    /// A dangling-reference fault.
    pub fn reference(element: impl Into<String>, problem: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Reference, element, problem)
    }

    /// A budget fault.
    pub fn budget(element: impl Into<String>, problem: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Budget, element, problem)
    }

    /// A format fault (unknown or mismatched format).
    pub fn format(element: impl Into<String>, problem: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Format, element, problem)
    }

    /// The same fault with `prefix` put before its element (`layer "a"` +
    /// `hole 2` = `layer "a", hole 2`).
    pub fn within(mut self, prefix: &str) -> Self {
        self.element = if self.element.is_empty() {
            prefix.to_string()
        } else {
            format!("{prefix}, {}", self.element)
        };
        self
    }

    /// The error for `file`.
    pub fn in_file(self, file: &str) -> LevelError {
        LevelError::new(file, &self.element, &self.problem, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_one_line_with_three_parts() {
        let e = LevelError::new(
            "a.json",
            "hole 2",
            "edges 0 and 3 intersect at (1, 2)",
            ErrorKind::Geometry,
        );
        assert_eq!(
            e.to_string(),
            "a.json: hole 2: edges 0 and 3 intersect at (1, 2)"
        );
        let e = LevelError::new("a.json", "", "file is empty", ErrorKind::Syntax);
        assert_eq!(e.to_string(), "a.json: file is empty");
        assert_eq!(e.file(), "a.json");
    }

    #[test]
    fn control_characters_are_flattened() {
        let e = LevelError::new(
            "we\nird.ron",
            "line\t3",
            "expected\n\n  `(`",
            ErrorKind::Syntax,
        );
        let s = e.to_string();
        assert!(!s.contains('\n') && !s.contains('\t'), "{s}");
        assert_eq!(s, "we ird.ron: line 3: expected `(`");
    }

    #[test]
    fn within_prefixes_the_element() {
        let f = Fault::geometry("hole 1", "x").within("layer \"up\"");
        assert_eq!(f.element, "layer \"up\", hole 1");
        let f = Fault::geometry("", "x").within("layer 0");
        assert_eq!(f.element, "layer 0");
    }
}
