//! Input echoed in a message, cut short: a 10 000-character argument must not make a 20 KB error.

/// The most characters of an input a message repeats.
pub const ECHO_LIMIT: usize = 40;

/// `s`, or its first [`ECHO_LIMIT`] characters and an ellipsis.
pub fn echo(s: &str) -> String {
    match s.char_indices().nth(ECHO_LIMIT) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_at_a_character_boundary() {
        assert_eq!(echo("e3-d3"), "e3-d3");
        assert_eq!(echo(&"a".repeat(40)), "a".repeat(40));
        assert_eq!(echo(&"é".repeat(10_000)), format!("{}…", "é".repeat(40)));
    }
}
