//! Credentials never shown: a database URL (`postgres://user:password@host/db`), a proxy URL
//! with a user and password, a `password=` parameter of a URL or connection string, and the
//! debug form of options holding a password. [`hide`] replaces the secret part, keeping what
//! helps an operator (the scheme, user, host, port and database). The store hides the URL in
//! its own errors; the bot's log and the command line's errors pass everything through
//! `bot::redact`, which uses this.

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

/// What stands where a secret was.
pub const HIDDEN: &str = "<redacted>";

/// A URL's password (`scheme://user:password@`, up to the last `@` before the host).
static URL_PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s/?#@:]*):([^\s/?#]*)@").expect("a valid pattern")
});

/// A `password=`, `passwd=` or `pwd=` parameter; a `password: "…"` or `password: Some("…")`
/// field of a debug form.
static PASSWORD_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b((?:ssl)?(?:password|passwd|pwd)"?\s*[:=]\s*(?:Some\()?"?)[^"\s,&;)}]+"#)
        .expect("a valid pattern")
});

/// `text` with every credential in it replaced by [`HIDDEN`]. A placeholder in a hint
/// (`postgres://user:password@host/database`) stays.
pub fn hide(text: &str) -> Cow<'_, str> {
    let out = URL_PASSWORD.replace_all(text, |c: &regex::Captures| {
        if c[2].eq_ignore_ascii_case("password") {
            c[0].to_string()
        } else {
            format!("{}:{HIDDEN}@", &c[1])
        }
    });
    match PASSWORD_FIELD.replace_all(&out, format!("${{1}}{HIDDEN}").as_str()) {
        Cow::Owned(replaced) => Cow::Owned(replaced),
        Cow::Borrowed(_) => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_urls_parameters_and_debug_forms_are_hidden() {
        for (text, want) in [
            (
                "cannot open the database postgres://tablut:s3cret@db.example:5432/tablut: refused",
                "cannot open the database postgres://tablut:<redacted>@db.example:5432/tablut: refused",
            ),
            // A password with an unescaped `@` or `:` is hidden whole.
            (
                "postgresql://u:p@ss:w@rd@127.0.0.1/db",
                "postgresql://u:<redacted>@127.0.0.1/db",
            ),
            (
                "error sending request for url (http://proxy:hunter22@10.0.0.1:3128/api/v10/users/@me)",
                "error sending request for url (http://proxy:<redacted>@10.0.0.1:3128/api/v10/users/@me)",
            ),
            (
                "'POSTGRES://u:x@h/d' is not a database URL",
                "'POSTGRES://u:<redacted>@h/d' is not a database URL",
            ),
            (
                "postgres://u@h/db?sslmode=require&password=s3cret&application_name=bot",
                "postgres://u@h/db?sslmode=require&password=<redacted>&application_name=bot",
            ),
            (
                "host=h user=u password=s3cret dbname=d",
                "host=h user=u password=<redacted> dbname=d",
            ),
            (
                r#"PgConnectOptions { username: "u", password: Some("s3cret"), port: 5432 }"#,
                r#"PgConnectOptions { username: "u", password: Some("<redacted>"), port: 5432 }"#,
            ),
            (r#"{"Password":"s3cret"}"#, r#"{"Password":"<redacted>"}"#),
        ] {
            assert_eq!(hide(text), want, "{text}");
            assert!(!hide(text).contains("s3cret"));
        }
        // What holds no credential stays as it is.
        for plain in [
            "sqlite://tablut.db?mode=rwc",
            "postgres://tablut@127.0.0.1/tablut",
            "https://discord.com/api/v10/channels/1/messages",
            "a@b.c wrote: see http://example.com/a@b",
            "12:30:00 the clock ticked",
            "write sqlite://tablut.db or postgres://user:password@host/database",
        ] {
            assert_eq!(hide(plain), plain);
        }
    }
}
