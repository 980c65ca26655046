//! Logs never carry a token or a password. serenity's errors hold the URL of the failed request, and the
//! URLs of interaction answers and follow-ups hold the interaction's token
//! (`/interactions/{id}/{token}/callback`, `/webhooks/{app}/{token}/...`): anything written to
//! the log goes through [`redact`], which replaces those, anything shaped like a bot token, and
//! the password of a URL or connection string (a `DATABASE_URL` or `DISCORD_PROXY` that holds
//! one). The command line's errors go through it too.
//! [`error`] renders an error for the log; [`Writer`] is the net under the whole log.

use regex::Regex;
use std::fmt;
use std::io;
use std::sync::LazyLock;

/// A token in a URL path (after `interactions/{id}/` or `webhooks/{id}/`), a `token` field in a
/// value's debug form, and a bot token (three dot-separated base64 parts).
static TOKENS: LazyLock<[(Regex, &str); 3]> = LazyLock::new(|| {
    let re = |p: &str| Regex::new(p).expect("a valid pattern");
    [
        (
            re(r#"(interactions|webhooks)/([0-9]+)/[^/?#\s"'<>)\]},]+"#),
            "$1/$2/<redacted>",
        ),
        (re(r#"(token"?\s*[:=]\s*"?)[^"\s,}]+"#), "$1<redacted>"),
        (
            re(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}"),
            "<redacted>",
        ),
    ]
});

/// `text` with every token and every credential (a database or proxy URL's password, see
/// [`crate::credentials`]) in it replaced by `<redacted>`.
pub fn redact(text: &str) -> String {
    let mut out = crate::credentials::hide(text);
    for (pattern, replacement) in TOKENS.iter() {
        if let std::borrow::Cow::Owned(replaced) = pattern.replace_all(&out, *replacement) {
            out = std::borrow::Cow::Owned(replaced);
        }
    }
    out.into_owned()
}

/// An error for the log: its full debug form (a serenity error's status, route and Discord's
/// message), tokens redacted.
pub fn error(e: &impl fmt::Debug) -> String {
    redact(&format!("{e:?}"))
}

/// A log writer that redacts every line before passing it on (for whatever another crate
/// logs): `tracing_subscriber::fmt().with_writer(Writer(std::io::stderr))`.
#[derive(Clone, Copy)]
pub struct Writer<M>(pub M);

/// One event's output on its way through [`Writer`].
pub struct Redacting<W: io::Write>(W);

impl<W: io::Write> io::Write for Redacting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .write_all(redact(&String::from_utf8_lossy(buf)).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl<'a, M: tracing_subscriber::fmt::MakeWriter<'a>> tracing_subscriber::fmt::MakeWriter<'a>
    for Writer<M>
{
    type Writer = Redacting<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        Redacting(self.0.make_writer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: &str = "NzAwMDAwMDAwMDAwMDAwMDAx.Gfake0.fake-token-for-tests-only-0123456789ab";

    #[test]
    fn tokens_in_urls_fields_and_bot_tokens_are_replaced() {
        let url = "http://127.0.0.1:9/api/v10/interactions/123/aW50ZXJhY3Rpb246MTIz.abc-_/callback";
        assert_eq!(
            redact(url),
            "http://127.0.0.1:9/api/v10/interactions/123/<redacted>/callback"
        );
        assert_eq!(
            redact("PATCH /api/v10/webhooks/7/tok3n/messages/@original failed"),
            "PATCH /api/v10/webhooks/7/<redacted>/messages/@original failed"
        );
        assert_eq!(
            redact(r#"url: "https://discord.com/api/v10/webhooks/7/tok3n?wait=true""#),
            r#"url: "https://discord.com/api/v10/webhooks/7/<redacted>?wait=true""#
        );
        assert_eq!(
            redact(r#"Interaction { token: "secret", id: 5 }"#),
            r#"Interaction { token: "<redacted>", id: 5 }"#
        );
        assert_eq!(
            redact(&format!("Authorization: Bot {BOT}")),
            "Authorization: Bot <redacted>"
        );
        assert_eq!(
            redact("cannot open the database postgres://bot:pa55word@db:5432/tablut: timed out"),
            "cannot open the database postgres://bot:<redacted>@db:5432/tablut: timed out"
        );
        // What is not a token stays.
        let plain = "POST /api/v10/channels/42/messages: 500 Internal Server Error (code 0)";
        assert_eq!(redact(plain), plain);
    }

    #[test]
    fn the_writer_redacts_what_it_passes_on() {
        use std::io::Write;
        let mut out = Vec::new();
        Redacting(&mut out)
            .write_all(format!("token {BOT} /interactions/1/abc/callback\n").as_bytes())
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "token <redacted> /interactions/1/<redacted>/callback\n"
        );
    }
}
