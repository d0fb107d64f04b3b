//! Plain-text tables for terminal reports.

/// Widest a cell may be before it wraps onto more lines (characters).
pub const WRAP: usize = 72;

/// The lines of a cell wrapped at spaces to at most `width` characters
/// (a single word longer than that stays whole).
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Renders rows as columns padded to their widest cell line; the first row
/// is the header, underlined. Cells longer than [`WRAP`] wrap onto more
/// lines, so one long value does not pad every row to its width.
/// Numeric-looking cells are right-aligned.
pub fn render(rows: &[Vec<String>]) -> String {
    let cells: Vec<Vec<Vec<String>>> = rows
        .iter()
        .map(|r| r.iter().map(|c| wrap(c, WRAP)).collect())
        .collect();
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            cells
                .iter()
                .filter_map(|r| r.get(c))
                .flatten()
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let numeric = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|ch| ch.is_ascii_digit() || ".-+e%x".contains(ch))
    };
    // Numbers right-align among the numbers of their column only, so a
    // long text in the column does not push them far right.
    let number_widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .filter(|s| numeric(s))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (ri, (row, wrapped)) in rows.iter().zip(&cells).enumerate() {
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        for k in 0..height {
            let line: Vec<String> = wrapped
                .iter()
                .enumerate()
                .map(|(c, lines)| {
                    let s = lines.get(k).map_or("", String::as_str);
                    let s = if numeric(&row[c]) {
                        format!("{s:>w$}", w = number_widths[c])
                    } else {
                        s.to_string()
                    };
                    format!("{s:<w$}", w = widths[c])
                })
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
        }
        if ri == 0 && rows.len() > 1 {
            let total: usize = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
            out.push_str(&"-".repeat(total));
            out.push('\n');
        }
    }
    out
}

/// `{"a": 1, "b": 2}` as `a 1, b 2`.
pub fn counts(c: &std::collections::BTreeMap<String, u64>) -> String {
    c.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_and_numbers_right_align() {
        let t = render(&[
            vec!["stage".into(), "ms".into()],
            vec!["notches".into(), "0.42".into()],
            vec!["portals".into(), "12.50".into()],
        ]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "stage    ms");
        assert_eq!(lines[1], "-".repeat(14), "the rule spans every column");
        assert_eq!(lines[2], "notches   0.42");
        assert_eq!(lines[3], "portals  12.50");
    }

    #[test]
    fn a_long_value_wraps_instead_of_padding_every_row() {
        let long = (0..60)
            .map(|i| format!("class_{i},"))
            .collect::<Vec<_>>()
            .join(" ");
        let t = render(&[
            vec!["property".into(), "value".into()],
            vec!["brushes".into(), "1257".into()],
            vec!["entities".into(), long.clone()],
        ]);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines.iter().all(|l| l.chars().count() <= WRAP + 10), "{t}");
        assert_eq!(
            lines[2], "brushes   1257",
            "numbers align among numbers only"
        );
        let joined: String = lines[3..]
            .iter()
            .map(|l| l[10..].trim_end())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(joined, long, "every word kept, in order");
        assert_eq!(
            wrap("averyveryverylongword", 5),
            vec!["averyveryverylongword"]
        );
    }
}
