//! Input echoed in a message, cut short: a 10 000-character argument must not make a 20 KB error,
//! and on one line: control characters (a pasted newline) become spaces.

/// The most characters of an input a message repeats.
pub const ECHO_LIMIT: usize = 40;

/// `s`, or its first [`ECHO_LIMIT`] characters and an ellipsis; on one line.
pub fn echo(s: &str) -> String {
    let mut chars = s.chars().map(|c| if c.is_control() { ' ' } else { c });
    let mut out: String = chars.by_ref().take(ECHO_LIMIT).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_at_a_character_boundary() {
        assert_eq!(echo("e3-d3"), "e3-d3");
        assert_eq!(echo(&"a".repeat(40)), "a".repeat(40));
        assert_eq!(echo(&"é".repeat(10_000)), format!("{}…", "é".repeat(40)));
        assert_eq!(echo("a\nb\tc"), "a b c");
    }
}
