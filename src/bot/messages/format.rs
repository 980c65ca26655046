//! Formatting helpers every topic uses: a message's limit and the net every reply goes
//! through, lists cut to fit, mentions, names (escaped), variants' names, counts and capitals.

use crate::ai::Level;
use crate::service::privacy::is_former_player;
use crate::service::{Player, User};
use crate::tafl::Variant;
use poise::serenity_prelude as serenity;
use serenity::Mentionable;

/// The most characters Discord shows in a message's content.
pub const CONTENT_LIMIT: usize = 2000;

/// The first follow-up after a public deferral, shown to everyone for the moment before it is
/// deleted, so that the private answer after it is private (see
/// `protocol::command::answer_privately`): it says nothing of the caller's.
pub const NOTHING_CHANGED: &str = "Nothing changed.";

/// A message's content within [`CONTENT_LIMIT`]: longer text is cut, with `…`. The builders
/// below stay within it by themselves (long lists end in "… and N more"); this is the net every
/// reply goes through.
pub fn fit(text: String) -> String {
    if text.chars().count() <= CONTENT_LIMIT {
        return text;
    }
    let mut cut: String = text.chars().take(CONTENT_LIMIT - 1).collect();
    cut.push('…');
    cut
}

/// `head`, then as many of `lines` as fit within [`CONTENT_LIMIT`], one a line, then
/// "… and N more" for the rest.
pub(super) fn listing(head: String, lines: &[String]) -> String {
    let more = |n: usize| format!("… and {n} more");
    let mut text = head;
    let mut used = text.chars().count();
    for (i, line) in lines.iter().enumerate() {
        let after = lines.len() - i - 1;
        let note = if after > 0 {
            1 + more(after).chars().count()
        } else {
            0
        };
        let len = 1 + line.chars().count();
        if used + len + note > CONTENT_LIMIT {
            text.push('\n');
            text.push_str(&more(lines.len() - i));
            break;
        }
        text.push('\n');
        text.push_str(line);
        used += len;
    }
    text
}

/// A user's mention, `<@id>`, through serenity's `Mention`.
pub fn user(id: u64) -> serenity::Mention {
    serenity::UserId::new(id).mention()
}

/// A channel's mention, `<#id>`.
pub fn channel(id: u64) -> serenity::Mention {
    serenity::ChannelId::new(id).mention()
}

/// A moment (Unix ms) as Discord shows it in each reader's time: "in 3 days", `<t:…:R>`.
pub fn relative_time(unix_ms: i64) -> String {
    match serenity::Timestamp::from_unix_timestamp(unix_ms.div_euclid(1000)) {
        Ok(t) => serenity::FormattedTimestamp::new(
            t,
            Some(serenity::FormattedTimestampStyle::RelativeTime),
        )
        .to_string(),
        Err(_) => "later".to_string(),
    }
}

/// A moment (Unix ms) as Discord shows it in each reader's time and language, as a date and a
/// time: `<t:…:f>`.
pub fn date_time(unix_ms: i64) -> String {
    match serenity::Timestamp::from_unix_timestamp(unix_ms.div_euclid(1000)) {
        Ok(t) => serenity::FormattedTimestamp::new(
            t,
            Some(serenity::FormattedTimestampStyle::ShortDateTime),
        )
        .to_string(),
        Err(_) => "later".to_string(),
    }
}

/// What the bot calls the stand-in for the members it has forgotten (`privacy::FORMER_PLAYER`),
/// whatever name its rows hold (none; rows written before hold these words).
pub const FORMER_PLAYER_NAME: &str = "a former player";

/// A person's name as they chose it, or [`FORMER_PLAYER_NAME`] for the stand-in.
pub fn person_name(u: &User) -> &str {
    if is_former_player(u.id) {
        FORMER_PLAYER_NAME
    } else {
        &u.name
    }
}

/// A player as a mention (people) or a name (the AI, and the stand-in for people forgotten).
pub fn mention(player: &Player) -> String {
    match player {
        Player::User(u) if is_former_player(u.id) => escape(person_name(u)),
        Player::User(u) => user(u.id).to_string(),
        Player::Ai(level) => ai_name(*level),
    }
}

/// The AI at `level`: "the AI (hard)".
pub fn ai_name(level: Level) -> String {
    format!("the AI ({level})")
}

/// A player's name as a post shows it: a person's escaped ([`escape`], [`person_name`]), the
/// AI's as the bot words it ([`ai_name`]).
pub fn name(player: &Player) -> String {
    match player {
        Player::User(u) => escape(person_name(u)),
        Player::Ai(level) => ai_name(*level),
    }
}

/// A player's name where markdown is not read (an image, a file, an autocomplete label): a
/// person's as it is ([`person_name`]), the AI's as [`ai_name`] words it.
pub fn plain_name(player: &Player) -> String {
    match player {
        Player::User(u) => person_name(u).to_string(),
        Player::Ai(level) => ai_name(*level),
    }
}

/// A player's name in bold.
pub(super) fn bold(player: &Player) -> String {
    format!("**{}**", name(player))
}

/// The characters Discord reads as formatting, links or mentions: markdown (`*` `_` `~` `` ` ``
/// `|` `>` `#` `-` `+` and `\`), masked links (`[` `]` `(` `)`), mentions, emoji and
/// timestamps (`<` `@`), bare links and invites (`:` of `https://`, `.` of `discord.gg`) and
/// numbered lists (`1.`).
pub(super) const MARKUP: &[char] = &[
    '\\', '*', '_', '~', '`', '|', '>', '<', '#', '-', '+', '.', '[', ']', '(', ')', '@', ':',
];

/// Text a person chose (a member's name) as plain text in a post, whatever it holds: every
/// character Discord reads as formatting, a link or a mention ([`MARKUP`]) is escaped with a
/// backslash, which Discord shows as the character alone (a link is no longer a link: neither
/// clickable nor previewed; `@everyone` and `<@id>` are words); a control character (a line
/// break) becomes a space, so that a name stays within its line and starts no heading, quote,
/// list or subtext; the bidirectional controls that would reorder the rest of the line are
/// dropped. serenity's `MessageBuilder::push_safe` and `content_safe` leave links, quotes,
/// headings and lists active, hence this one function, which every name in a post goes through.
/// Only for markdown: a thread's name, an autocomplete label, a file and an image show names
/// as they are.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{200E}'
            | '\u{200F}'
            | '\u{061C}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}' => {}
            c if c.is_control() => out.push(' '),
            c if MARKUP.contains(&c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Who a post may ping: the users it mentions itself (`<@id>`), never a role nor everyone.
/// A mention inside a name cannot count: [`escape`] leaves no `<@` in one.
pub fn pinged(text: &str) -> serenity::CreateAllowedMentions {
    let mut users = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("<@") {
        rest = &rest[at + 2..];
        let digits = rest.strip_prefix('!').unwrap_or(rest);
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        if digits[end..].starts_with('>') {
            if let Ok(id) = digits[..end].parse::<u64>() {
                if id != 0 && !users.contains(&id) {
                    users.push(id);
                }
            }
        }
    }
    serenity::CreateAllowedMentions::new().users(users.into_iter().map(serenity::UserId::new))
}

/// A variant's name in a post: "Tablut", "Brandubh", "Copenhagen".
///
/// Every post that shows a game (its start, moves, end, board, reminders, records, lists)
/// names the game when it is not Tablut, the bot's first game and the default: "· Brandubh"
/// after the turn, "wins the Copenhagen game" in the result. Tablut's posts read as they
/// always have. Lists kept per variant (leaderboards, ratings) always name it.
pub fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Tablut => "Tablut",
        Variant::Brandubh => "Brandubh",
        Variant::Copenhagen => "Copenhagen",
        Variant::Copenhagen13 => "Copenhagen 13×13",
    }
}

/// " · Brandubh" after a line about a game of another variant than Tablut; nothing for Tablut.
pub(super) fn variant_tag(variant: Variant) -> String {
    match variant {
        Variant::Tablut => String::new(),
        v => format!(" · {}", variant_name(v)),
    }
}

/// " (Brandubh)" after a game's number, for a variant other than Tablut; nothing for Tablut.
pub(super) fn variant_note(variant: Variant) -> String {
    match variant {
        Variant::Tablut => String::new(),
        v => format!(" ({})", variant_name(v)),
    }
}

/// "the game", or "the Brandubh game" for a variant other than Tablut.
pub(super) fn the_game(variant: Variant) -> String {
    match variant {
        Variant::Tablut => "the game".to_string(),
        v => format!("the {} game", variant_name(v)),
    }
}

/// `s` with its first letter a capital: "the game" → "The game".
pub(super) fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A count and its noun: "1 ply", "3 plies".
pub fn counted(n: impl TryInto<u64>, one: &str, many: &str) -> String {
    match n.try_into().unwrap_or(u64::MAX) {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}
