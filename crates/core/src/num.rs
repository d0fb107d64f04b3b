//! Numbers (and tokens) as messages print them: short, whatever their
//! size.
//!
//! A coordinate of 1e140 printed with `{}` is 141 digits long; in an error
//! line it should read `1.0e140`. [`short`] keeps ordinary values as they
//! are (`5`, `-2.5`, `0.125`) and writes very large, very small or long
//! ones in scientific notation with at most three significant digits.

/// `v` for a message: plain for ordinary magnitudes (at most 12
/// characters), else scientific with up to three significant digits
/// (`1.0e140`, `2.35e-13`); `NaN`, `inf` and `-inf` as Rust writes them.
pub fn short(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let plain = v.to_string();
    let magnitude = v.abs();
    if v == 0.0 {
        // -0 reads as 0 to a person.
        return "0".to_string();
    }
    if (1e-4..1e9).contains(&magnitude) && plain.len() <= 12 {
        return plain;
    }
    if (1e-4..1e9).contains(&magnitude) {
        // Ordinary size, long fraction: six decimals are plenty.
        let fixed = format!("{v:.6}");
        return fixed
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string();
    }
    let sci = format!("{v:.2e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let mut mantissa = mantissa.trim_end_matches('0').to_string();
    if mantissa.ends_with('.') {
        mantissa.push('0');
    }
    format!("{mantissa}e{exponent}")
}

/// At most 20 characters of a token taken from a file or a command line,
/// with `...` when cut, and control characters escaped (`\n`, `\0`): a
/// 600-digit number must not make a 600-character message, nor a name
/// with a line break a two-line one.
pub fn clip(token: &str) -> String {
    let mut out: String = token
        .chars()
        .take(20)
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    if token.chars().nth(20).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{clip, short};

    #[test]
    fn long_tokens_are_cut() {
        assert_eq!(clip("abc"), "abc");
        assert_eq!(clip(&"9".repeat(600)), format!("{}...", "9".repeat(20)));
        assert_eq!(clip("a\nb\0"), "a\\nb\\0");
        assert_eq!(clip("für"), "für");
    }

    #[test]
    fn ordinary_values_stay_as_they_are() {
        assert_eq!(short(5.0), "5");
        assert_eq!(short(-2.5), "-2.5");
        assert_eq!(short(0.125), "0.125");
        assert_eq!(short(100000.0), "100000");
        assert_eq!(short(0.0), "0");
        assert_eq!(short(-0.0), "0");
        assert_eq!(short(0.1 + 0.2), "0.3");
    }

    #[test]
    fn huge_and_tiny_values_are_short() {
        assert_eq!(short(1e140), "1.0e140");
        assert_eq!(short(-1e300), "-1.0e300");
        assert_eq!(short(f64::MAX), "1.8e308");
        assert_eq!(short(2.345e-13), "2.35e-13");
        assert_eq!(short(3.4e38), "3.4e38");
        assert_eq!(short(f64::NAN), "NaN");
        assert_eq!(short(f64::INFINITY), "inf");
        for v in [1e20, 1e-20, 123456789012.0, -f64::MIN_POSITIVE] {
            assert!(short(v).len() <= 10, "{}", short(v));
        }
    }
}
