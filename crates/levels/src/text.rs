//! Shared text-format plumbing: UTF-8 decoding, JSON and RON parsing with
//! errors that name the line, and the sniffing of a RON file's top-level
//! struct name.

use serde::de::DeserializeOwned;

use crate::error::Fault;

/// Deepest nesting accepted in RON and JSON (both parsers also stop at
/// their own limit of 128); keeps hostile, deeply nested files from using
/// the stack.
const MAX_DEPTH: usize = 64;

/// The file as UTF-8 text.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, Fault> {
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        Fault::syntax(format!("line {line}"), "not valid UTF-8 text")
    })
}

pub(crate) use navscope_core::num::clip;

/// Parses RON into `T`, with implicit `Some` so optional fields are written
/// plainly.
pub(crate) fn ron<T: DeserializeOwned>(text: &str) -> Result<T, Fault> {
    let opts = ron::Options::default()
        .with_recursion_limit(MAX_DEPTH)
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    opts.from_str(text).map_err(|e| {
        Fault::syntax(
            format!("line {}, column {}", e.span.start.line, e.span.start.col),
            e.code.to_string(),
        )
    })
}

/// Parses JSON into `T`.
pub(crate) fn json<T: DeserializeOwned>(text: &str) -> Result<T, Fault> {
    serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let msg = msg.strip_suffix(&suffix).unwrap_or(&msg).to_string();
        let msg = if e.is_eof() {
            format!("file ends too early: {msg}")
        } else {
            msg
        };
        Fault::syntax(format!("line {}, column {}", e.line(), e.column()), msg)
    })
}

/// Checks nesting depth of `[`, `{` and `(` outside strings, so neither
/// parser is handed a file nested deeper than [`MAX_DEPTH`].
pub(crate) fn check_depth(text: &str) -> Result<(), Fault> {
    let (mut depth, mut line) = (0usize, 1usize);
    let mut in_str = false;
    let mut escaped = false;
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '[' | '{' | '(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(Fault::syntax(
                        format!("line {line}"),
                        format!("nested more than {MAX_DEPTH} levels deep"),
                    ));
                }
            }
            ']' | '}' | ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The first identifier of a RON document after whitespace, comments and
/// `#![enable(...)]` attributes, when an opening `(` follows it: its
/// top-level struct name.
pub(crate) fn ron_struct_name(text: &str) -> Option<&str> {
    let mut s = text.trim_start();
    loop {
        if let Some(rest) = s.strip_prefix("//") {
            s = rest.split_once('\n').map_or("", |(_, r)| r).trim_start();
        } else if let Some(rest) = s.strip_prefix("/*") {
            s = rest.split_once("*/").map_or("", |(_, r)| r).trim_start();
        } else if let Some(rest) = s.strip_prefix("#!") {
            s = rest.split_once(']').map_or("", |(_, r)| r).trim_start();
        } else {
            break;
        }
    }
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0 && s[end..].trim_start().starts_with('(')).then(|| &s[..end])
}

/// Serialises the value inside a `Some` (fields that are skipped when
/// `None`), so files read with implicit `Some` are written without it.
pub(crate) fn some_inner<T: serde::Serialize, S: serde::Serializer>(
    v: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => x.serialize(s),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_name_skips_comments_and_attributes() {
        assert_eq!(
            ron_struct_name("// hi\n/* x */ #![enable(implicit_some)]\n FloorPlan(outer: [])"),
            Some("FloorPlan")
        );
        assert_eq!(ron_struct_name("(outer: [])"), None);
        assert_eq!(ron_struct_name(""), None);
        assert_eq!(ron_struct_name("hello world"), None);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = "[".repeat(10_000);
        let f = check_depth(&deep).unwrap_err();
        assert_eq!(f.element, "line 1");
        assert!(check_depth("[[\"[[[[[[[[\"]]").is_ok());
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let f = json::<Vec<u32>>("[1,\n2,\n x]").unwrap_err();
        assert_eq!(f.element, "line 3, column 2");
        assert!(!f.problem.contains("at line"), "{}", f.problem);
        let f = json::<Vec<u32>>("[1, 2").unwrap_err();
        assert!(
            f.problem.starts_with("file ends too early"),
            "{}",
            f.problem
        );
        let f = ron::<Vec<u32>>("[1,\n oops]").unwrap_err();
        assert!(f.element.starts_with("line 2"), "{}", f.element);
        let f = utf8(b"ok\n\xff").unwrap_err();
        assert_eq!(f.element, "line 2");
    }
}
