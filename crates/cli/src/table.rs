//! Plain-text tables for terminal reports.

/// Renders rows as columns padded to their widest cell; the first row is the
/// header, underlined. Numeric-looking cells are right-aligned.
pub fn render(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (ri, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let numeric = !s.is_empty()
                    && s.chars()
                        .all(|ch| ch.is_ascii_digit() || ".-+e%x".contains(ch));
                if numeric {
                    format!("{s:>w$}", w = widths[c])
                } else {
                    format!("{s:<w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
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
}
