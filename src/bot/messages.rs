//! What the bot says: every message's text, from the service's plain types. Pure functions.

use crate::ai::analysis::{self, Judgement};
use crate::service::analysis::{AnalysisSummary, CostlyMove, SideSummary};
use crate::service::{
    ChallengeInfo, ClockEvent, Ended, GameInfo, Hint, Leaderboard, MoveReport, News, Player,
    RatingChanges, Stats, TimeControl,
};
use crate::tafl::{Call, Outcome, Rules, Side, Variant};
use poise::serenity_prelude as serenity;
use serenity::Mentionable;
use std::time::Duration;

/// The most characters Discord shows in a message's content.
pub const CONTENT_LIMIT: usize = 2000;

/// The first follow-up after a public deferral, shown to everyone for the moment before it is
/// deleted, so that the private answer after it is private (see
/// `commands::play::answer_privately`): it says nothing of the caller's.
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
fn listing(head: String, lines: &[String]) -> String {
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

/// A player as a mention (people) or a name (the AI, and the stand-in for people forgotten).
pub fn mention(player: &Player) -> String {
    match player {
        Player::User(u) if crate::service::privacy::is_former_player(u.id) => escape(&u.name),
        Player::User(u) => user(u.id).to_string(),
        Player::Ai(level) => format!("the AI ({level})"),
    }
}

/// A player's name as a post shows it: a person's escaped ([`escape`]), the AI's as the bot
/// words it ("the AI (hard)").
pub fn name(player: &Player) -> String {
    match player {
        Player::User(u) => escape(&u.name),
        ai => ai.name(),
    }
}

/// A player's name in bold.
fn bold(player: &Player) -> String {
    format!("**{}**", name(player))
}

/// The characters Discord reads as formatting, links or mentions: markdown (`*` `_` `~` `` ` ``
/// `|` `>` `#` `-` `+` and `\`), masked links (`[` `]` `(` `)`), mentions, emoji and
/// timestamps (`<` `@`), bare links and invites (`:` of `https://`, `.` of `discord.gg`) and
/// numbered lists (`1.`).
const MARKUP: &[char] = &[
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

/// A game's state in a line (its move and who is to play, or its result), with the names
/// escaped: [`GameInfo::status_line`] for a post.
pub fn status_line(game: &GameInfo) -> String {
    game.status_line_named(name)
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
    }
}

/// " · Brandubh" after a line about a game of another variant than Tablut; nothing for Tablut.
fn variant_tag(variant: Variant) -> String {
    match variant {
        Variant::Tablut => String::new(),
        v => format!(" · {}", variant_name(v)),
    }
}

/// " (Brandubh)" after a game's number, for a variant other than Tablut; nothing for Tablut.
fn variant_note(variant: Variant) -> String {
    match variant {
        Variant::Tablut => String::new(),
        v => format!(" ({})", variant_name(v)),
    }
}

/// "the game", or "the Brandubh game" for a variant other than Tablut.
fn the_game(variant: Variant) -> String {
    match variant {
        Variant::Tablut => "the game".to_string(),
        v => format!("the {} game", variant_name(v)),
    }
}

/// "Your move, <@id> (defenders) · move 3" (then " · Brandubh" for another variant than
/// Tablut), or the result once the game is over.
pub fn turn_line(game: &GameInfo) -> String {
    let tag = variant_tag(game.variant());
    match game.to_move() {
        Some(p @ Player::User(_)) => format!(
            "Your move, {} ({}) · move {}{tag}",
            mention(p),
            game.turn,
            game.move_number()
        ),
        Some(p) => format!("{} ({}) is thinking…{tag}", capital(&mention(p)), game.turn),
        None => result_line(game),
    }
}

/// "**Astrid** wins with the attackers: the king was captured." or "Draw: …"; for another
/// variant than Tablut, "**Astrid** wins the Brandubh game with the attackers: …" or "Draw in
/// the Brandubh game: …".
pub fn result_line(game: &GameInfo) -> String {
    let variant = game.variant();
    let game_words = match variant {
        Variant::Tablut => String::new(),
        _ => format!(" {}", the_game(variant)),
    };
    match game.outcome {
        Outcome::Ongoing => String::new(),
        Outcome::Won { winner, reason } => format!(
            "{} wins{game_words} with the {winner}: {}.",
            bold(game.player(winner)),
            reason.describe()
        ),
        Outcome::Drawn { reason } => match variant {
            Variant::Tablut => format!("Draw: {}.", reason.describe()),
            _ => format!("Draw in{game_words}: {}.", reason.describe()),
        },
    }
}

/// The text over a game's board (`/tablut board`): the last move and whose turn it is, or the
/// result.
pub fn board_text(game: &GameInfo, last: Option<&crate::tafl::RecordedMove>) -> String {
    let text = board_text_alone(game, last);
    match game.clock_line_named(name).filter(|_| !game.is_over()) {
        Some(clocks) => format!("{text}\nTime left: {clocks}"),
        None => text,
    }
}

fn board_text_alone(game: &GameInfo, last: Option<&crate::tafl::RecordedMove>) -> String {
    match last {
        Some(last) => format!("Last move: **{last}**\n{}", turn_line(game)),
        None if !game.is_over() => turn_line(game),
        None => format!("{}{}", status_line(game), variant_tag(game.variant())),
    }
}

/// The file beside `/tablut history`'s answer: the game's tags (`[Name "value"]`, a value on
/// one line and without a double quote, whatever a member's name holds), then its record and
/// the positions' record.
pub fn history_file(game: &GameInfo, record: &str, position_record: &str) -> String {
    let tag = |name: &str, value: &dyn std::fmt::Display| {
        let value = value.to_string().replace(['"', '\n', '\r'], "'");
        format!("[{name} \"{value}\"]\n")
    };
    format!(
        "{}{}{}{}{}\n{record}\n\nposition: {position_record}\n",
        tag("Variant", &game.variant()),
        tag("Attackers", &game.attackers.name()),
        tag("Defenders", &game.defenders.name()),
        tag("Rules", &game.rules),
        tag("Result", &game.outcome.status()),
    )
}

/// The answer to `/tablut history`: the players and where the game stands, then its record
/// (`record`, the moves in notation) as a code block, cut to fit (the file beside it has it
/// whole).
pub fn history_text(game: &GameInfo, record: &str) -> String {
    let record = if record.is_empty() {
        "(no moves yet)"
    } else {
        record
    };
    let mut text = format!(
        "{}**{}** (attackers) vs **{}** (defenders): {}\n",
        match game.variant() {
            v if v.is_tablut() => String::new(),
            v => format!("{}: ", v.title()),
        },
        name(&game.attackers),
        name(&game.defenders),
        status_line(game)
    );
    // Discord messages hold 2000 characters: the file has the whole record.
    let room = 1900usize.saturating_sub(text.chars().count());
    if record.chars().count() > room {
        let cut: String = record.chars().take(room.saturating_sub(3)).collect();
        text.push_str(&format!("```{cut}…```"));
    } else {
        text.push_str(&format!("```{record}```"));
    }
    text
}

/// The words over a game's replay: its length and where it stands.
pub fn replay_text(game: &GameInfo) -> String {
    format!(
        "Replay{}: {}. {}",
        match game.variant() {
            v if v.is_tablut() => String::new(),
            v => format!(" of a game of {}", v.title()),
        },
        counted(game.ply, "ply", "plies"),
        status_line(game)
    )
}

/// `player` aborted the game (a player before the second move, or a moderator).
pub fn aborted_by(game: &GameInfo, player: &Player) -> String {
    format!(
        "{} aborted {}; it does not count.",
        mention(player),
        the_game(game.variant())
    )
}

/// The refusal of one of Tablut's presets for another variant.
pub fn preset_refused(variant: Variant, preset: &str) -> String {
    format!(
        "{} has no rules preset {preset}: choose {} (`/tablut rules variant:{}` describes them).",
        variant.title(),
        crate::tafl::Preset::names_of(variant),
        variant.name()
    )
}

fn capital(s: &str) -> String {
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

/// The line for an AI turn in `game` still waiting for a worker, with `ahead` requests before
/// it ("this Brandubh game" for another variant than Tablut).
pub fn ai_waiting(game: &GameInfo, ahead: usize) -> String {
    let this = match game.variant() {
        Variant::Tablut => "this one".to_string(),
        v => format!("this {} game", variant_name(v)),
    };
    match ahead {
        0 => format!(
            "The AI is thinking; {} is next in line.",
            match game.variant() {
                Variant::Tablut => "this game".to_string(),
                _ => this,
            }
        ),
        1 => format!("The AI is thinking; 1 game ahead of {this}."),
        n => format!("The AI is thinking; {n} games ahead of {this}."),
    }
}

/// The message after a move.
pub fn move_message(r: &MoveReport) -> String {
    let mut text = format!(
        "{} ({}) played **{}**",
        bold(&r.by),
        r.recorded.side,
        r.notation
    );
    match r.captured.len() {
        0 => text.push('.'),
        _ => {
            let squares: Vec<String> = r.captured.iter().map(|s| s.to_string()).collect();
            text.push_str(&format!(", capturing {}.", squares.join(", ")));
        }
    }
    if r.recorded.king_captured {
        text.push_str(" The king is taken!");
    }
    // Linnaeus' calls are Tablut's: the other games have no such announcement.
    match r.call.filter(|_| r.game.variant().is_tablut()) {
        Some(Call::Raichi) => text.push_str(" *Raichi!* The king has a free line to the edge."),
        Some(Call::Tuichu) => text.push_str(" *Tuichu!* The king has two free lines to the edge."),
        None => {}
    }
    text.push('\n');
    text.push_str(&turn_line(&r.game));
    if let Some(changes) = &r.ratings {
        text.push('\n');
        text.push_str(&ratings_line(&r.game, changes));
    } else if r.game.is_over() && r.game.is_casual() {
        text.push_str(CASUAL_END);
    }
    text
}

/// After the result of a casual game between people.
const CASUAL_END: &str = "\nA casual game: ratings unchanged.";

/// The message when a game ends off the board.
pub fn ended_message(e: &Ended, by: Option<&Player>) -> String {
    let reason = e.game.outcome.reason().map(|r| r.name());
    let mut text = match (reason, by) {
        (Some("resigned"), Some(p)) => format!("{} resigned. ", bold(p)),
        (Some("aborted"), Some(p)) => format!(
            "{} aborted {}; it does not count. ",
            mention(p),
            the_game(e.game.variant())
        ),
        (Some("aborted"), None) => format!(
            "{} was aborted; it does not count. ",
            capital(&the_game(e.game.variant()))
        ),
        (Some("draw_agreed"), _) => "Draw agreed. ".to_string(),
        (Some("timeout"), _) => {
            let loser = e.game.player(e.game.turn);
            format!("{} ran out of time. ", mention(loser))
        }
        _ => String::new(),
    };
    if reason != Some("aborted") {
        text.push_str(&result_line(&e.game));
    }
    if let Some(changes) = &e.ratings {
        text.push('\n');
        text.push_str(&ratings_line(&e.game, changes));
    } else if reason != Some("aborted") && e.game.is_casual() {
        text.push_str(CASUAL_END);
    }
    text
}

/// "Ratings: Astrid 1500 → 1662 · Birger 1500 → 1338".
pub fn ratings_line(game: &GameInfo, c: &RatingChanges) -> String {
    let one =
        |side: Side, (_, before, after): (u64, crate::rating::Rating, crate::rating::Rating)| {
            format!(
                "{} {:.0} → {:.0}",
                name(game.player(side)),
                before.rating,
                after.rating
            )
        };
    format!(
        "Ratings: {} · {}",
        one(Side::Attackers, c.attackers),
        one(Side::Defenders, c.defenders)
    )
}

/// The message when a game starts.
pub fn started_message(game: &GameInfo) -> String {
    format!(
        "Game on! {} attacks, {} defends ({}, {}{}).\n{}",
        mention(&game.attackers),
        mention(&game.defenders),
        game_words(&game.rules),
        time_words(game.time_control),
        casual_words(game),
        turn_line(game)
    )
}

/// ", casual: no rating change, hints allowed" for a casual game between people; nothing
/// otherwise.
fn casual_words(game: &GameInfo) -> &'static str {
    if game.is_casual() {
        ", casual: no rating change, hints allowed"
    } else {
        ""
    }
}

/// "linnaeus rules" for Tablut, "Brandubh, 7×7" for the others (with "opentafl rules" when
/// not the variant's default preset).
fn game_words(rules: &Rules) -> String {
    match rules.variant {
        Variant::Tablut => format!("{} rules", rules_name(rules)),
        v => format!(
            "{}, {n}×{n}{}",
            v.title(),
            other_preset(rules),
            n = v.size()
        ),
    }
}

/// ", opentafl rules" for a Brandubh or Copenhagen game not under its variant's default preset.
fn other_preset(rules: &Rules) -> String {
    match rules.preset() {
        Some(p) if p != crate::tafl::Preset::default_of(rules.variant) => {
            format!(", {} rules", p.name())
        }
        _ => String::new(),
    }
}

/// A challenge accepted (its game in `thread`, when it has one), declined or withdrawn; a
/// challenge to another game than Tablut names it ("the Brandubh challenge").
pub fn challenge_closed(c: &ChallengeInfo, thread: Option<u64>) -> String {
    let challenge = match c.rules.variant {
        Variant::Tablut => "the challenge".to_string(),
        v => format!("the {} challenge", variant_name(v)),
    };
    match (c.status, thread) {
        (_, Some(thread)) => format!(
            "Challenge accepted: {} is on in {}.",
            the_game(c.rules.variant),
            channel(thread)
        ),
        (crate::service::ChallengeStatus::Cancelled, None) => {
            format!("{} withdrew {challenge}.", user(c.challenger.id))
        }
        _ => format!(
            "{} declined {challenge} from {}.",
            user(c.challenged.id),
            user(c.challenger.id)
        ),
    }
}

/// The name of the thread a challenge's game is played in: "Brandubh: Astrid vs Birger".
pub fn thread_name(c: &ChallengeInfo) -> String {
    let name = format!(
        "{}: {} vs {}",
        variant_name(c.rules.variant),
        c.challenger.name,
        c.challenged.name
    );
    // Discord's limit on a channel's name.
    name.chars().take(100).collect()
}

/// `by` offers a draw in `game`.
pub fn draw_offered(game: &GameInfo, by: u64) -> String {
    let side = game.side_of(by).unwrap_or(game.turn);
    format!(
        "{} offers a draw{}. {}, do you accept?",
        mention(game.player(side)),
        match game.variant() {
            Variant::Tablut => String::new(),
            v => format!(" in {}", the_game(v)),
        },
        mention(game.player(side.other()))
    )
}

/// `by` declined the draw offered in `game`.
pub fn draw_declined(game: &GameInfo, by: u64) -> String {
    format!("{} declined the draw. {}", user(by), turn_line(game))
}

/// The challenge message.
pub fn challenge_message(c: &ChallengeInfo) -> String {
    let side = match c.side {
        crate::service::SideChoice::Random => "sides drawn at random".to_string(),
        s => format!("{} to play the {}", escape(&c.challenger.name), s.name()),
    };
    format!(
        "{}, {} challenges you to {}{}: {side}, {}{}. Accept or decline {}.",
        user(c.challenged.id),
        user(c.challenger.id),
        if c.rated { "" } else { "a casual game of " },
        match c.rules.variant {
            Variant::Tablut => format!("Tablut: {} rules", rules_name(&c.rules)),
            v => format!(
                "{} ({n}×{n}{})",
                v.title(),
                other_preset(&c.rules),
                n = v.size()
            ),
        },
        time_words(c.time_control),
        if c.thread { ", in a thread" } else { "" },
        relative_time(c.expires_at)
    )
}

/// The preset's name, or "custom".
pub fn rules_name(rules: &Rules) -> String {
    rules
        .preset()
        .map(|p| p.name().to_string())
        .unwrap_or_else(|| "custom".to_string())
}

/// "3d a move", "a bank of 3d, 6h added each move" or "no time limit".
pub fn time_words(tc: TimeControl) -> String {
    match tc {
        TimeControl::None => "no time limit".into(),
        TimeControl::Fischer { bank, increment } => format!(
            "a bank of {} each, {} added each move",
            TimeControl::PerMove(bank),
            TimeControl::PerMove(increment)
        ),
        tc => format!("{tc} a move"),
    }
}

/// A duration in words: "1 d 2 h", "3 h 20 min", "5 min".
pub fn duration_words(d: Duration) -> String {
    // To the nearest minute: the clock's sweep runs a moment after a reminder falls due, so
    // 11 h 59 min 57 s left reads as the 12 h it stands for.
    let m = (d.as_secs() + 30) / 60;
    let (days, hours, mins) = (m / 1440, m / 60 % 24, m % 60);
    match (days, hours) {
        (0, 0) => format!("{} min", mins.max(1)),
        (0, h) => format!("{h} h {mins} min"),
        (d, h) => format!("{d} d {h} h"),
    }
}

/// The rules of `variant` in brief; with `game`, the rules of the channel's game (when it is a
/// game of that variant): Tablut's options.
pub fn rules_message(variant: Variant, game: Option<&Rules>) -> String {
    let mut text = String::from(match variant {
        Variant::Tablut => TABLUT_RULES,
        Variant::Brandubh => BRANDUBH_RULES,
        Variant::Copenhagen => COPENHAGEN_RULES,
    });
    text.push_str("\nMove with `/move e1-e3` (a bare square lists its moves).");
    match game.filter(|r| r.variant == variant) {
        Some(rules) if variant == Variant::Tablut => {
            let options: Vec<String> = rules
                .options()
                .iter()
                .map(|(k, v)| format!("`{k}={v}`"))
                .collect();
            text.push_str(&format!(
                "\nThis channel's game: **{}** rules: {}.",
                rules_name(rules),
                options.join(", ")
            ));
        }
        Some(rules) => text.push_str(&format!(
            "\nThis channel's game is a game of {}, **{}** rules.",
            variant.title(),
            rules_name(rules)
        )),
        None => {}
    }
    if variant == Variant::Tablut {
        text.push_str("\nAlso: `/tablut rules variant:` brandubh (7×7) or copenhagen (11×11).");
    } else {
        text.push_str("\nPresets (`rules:` when you start a game):");
        for p in crate::tafl::Preset::of(variant) {
            text.push_str(&format!("\n• **{}**: {}.", p.name(), p.description()));
        }
    }
    text
}

const TABLUT_RULES: &str =
    "**Tablut**, the Sámi game Linnaeus recorded in 1732. 9×9 board, files a–i, ranks 1–9.\n\
     • The attackers (16, blue) move first; the king and his 8 defenders (red) answer. \
     Every piece moves like a rook, over no piece.\n\
     • Only the king may stand on the castle (e5); pieces pass through it while it is empty.\n\
     • Enclose an enemy between two of yours on a rank or file to capture it. The empty castle \
     is hostile to both sides; the armed king helps capture.\n\
     • The king is taken by four attackers on the castle, three beside it, two elsewhere.\n\
     • The defenders win when the king reaches the edge; the attackers when they take him. A \
     repeated position draws; a side with no move loses.";

const BRANDUBH_RULES: &str = "**Brandubh**, the Irish game of the tafl family. 7×7 board, files a–g, ranks 1–7.\n\
     • The attackers (8, blue) move first; the king and his 4 defenders (red) answer. \
     Every piece moves like a rook, over no piece.\n\
     • Only the king may stand on the throne (d4) or a corner; pieces pass through the empty throne.\n\
     • Enclose an enemy between two of yours on a rank or file to capture it. The corners and \
     the empty throne are hostile to both sides; the armed king helps capture.\n\
     • Under the default preset the king is taken by two attackers (or one and a corner; the \
     empty throne never counts against him), and by four on the throne.\n\
     • The defenders win when the king reaches a corner; the attackers when they take him, or \
     enclose him and all his defenders. A position seen a third time loses for the defenders; \
     a side with no move loses.";

const COPENHAGEN_RULES: &str = "**Copenhagen Hnefatafl**, the tafl game of today's tournaments. 11×11 board, files a–k, ranks 1–11.\n\
     • The attackers (24, blue) move first; the king and his 12 defenders (red) answer. \
     Every piece moves like a rook, over no piece.\n\
     • Only the king may stand on the throne (f6) or a corner; pieces pass through the empty throne.\n\
     • Enclose an enemy between two of yours on a rank or file to capture it. The corners and \
     the empty throne are hostile to both sides; the armed king helps capture. A shieldwall \
     takes a row of pieces on the edge at once.\n\
     • The king is taken by attackers on his four sides (three and the empty throne); never on \
     the edge.\n\
     • The defenders win when the king reaches a corner or makes an exit fort on the edge; the \
     attackers when they take him or enclose all the defenders. Under the default preset a \
     position seen a third time loses for the defenders; a side with no move loses.";

/// A move played while the channel still owed earlier news (the AI's move, a reminder, on
/// their way): for the player alone, since the channel shows the move after that news.
pub fn move_posted(notation: &str) -> String {
    format!(
        "You played **{notation}**. The channel shows it right after the news still on its way \
         there, so everyone reads the game in order."
    )
}

/// A resignation, an abort or a draw offer made while the channel still owed earlier news:
/// for its maker alone, since the channel shows it after that news.
pub fn news_posted() -> String {
    "Done. The channel shows it right after the news still on its way there, so everyone reads \
     the game in order."
        .to_string()
}

/// The answer to `/tablut export`, its file attached.
pub fn exported(game: &GameInfo, format: crate::tafl::RecordFormat) -> String {
    format!(
        "Game #{} ({}), {}: the record in {}.",
        game.id,
        game_words(&game.rules),
        counted(game.ply, "ply", "plies"),
        match format {
            crate::tafl::RecordFormat::Tafl => "the archives' format",
            crate::tafl::RecordFormat::OpenTafl => "OpenTafl's format",
        }
    )
}

/// An imported record kept as a finished game of the channel.
pub fn imported(id: i64) -> String {
    format!("Imported as game #{id}: `/tablut analysis game:{id}` shows its review.")
}

/// `/tablut import` given both or neither of its sources.
pub const IMPORT_ONE_SOURCE: &str =
    "Give the record once: as text (record:) or as a file (file:), not both or neither.";

/// `/tablut import then: challenge` without an opponent.
pub const IMPORT_NEEDS_OPPONENT: &str =
    "Say whom you challenge to play on: add opponent:, or play on against the bot with then: ai.";

/// A hint, for the player alone.
pub fn hint_message(h: &Hint) -> String {
    let line: Vec<&str> = h.pv.iter().take(6).map(String::as_str).collect();
    format!(
        "Try **{}** (searched {} ahead; score {:+.2} for you). Expected line: {}",
        h.best,
        counted(h.depth, "ply", "plies"),
        h.score as f64 / 100.0,
        line.join(" ")
    )
}

/// A player's stats.
pub fn stats_message(name: &str, s: &Stats) -> String {
    // One rating a variant, each named: "Tablut rating **1662** ± 580 (1 rated games)".
    let rating = if s.ratings.is_empty() {
        "no rating yet".to_string()
    } else {
        let each: Vec<String> = s
            .ratings
            .iter()
            .map(|r| {
                format!(
                    "{} rating **{:.0}** ± {:.0} ({})",
                    variant_name(r.variant),
                    r.rating.rating,
                    2.0 * r.rating.deviation,
                    counted(r.rated_games, "rated game", "rated games")
                )
            })
            .collect();
        each.join(" · ")
    };
    let mut text = format!(
        "**{}**: {} · as attackers {} won, {} lost · as defenders {} won, {} lost · {} drawn · {rating}",
        escape(name),
        counted(s.games, "game", "games"),
        s.wins_as_attackers,
        s.losses_as_attackers,
        s.wins_as_defenders,
        s.losses_as_defenders,
        s.draws
    );
    if !s.recent.is_empty() {
        text.push_str("\nRecent:");
        for g in &s.recent {
            text.push_str(&format!(
                "\n• {} as {} against {} ({}{})",
                g.result,
                g.side,
                escape(&g.opponent),
                g.reason.replace('_', " "),
                match g.variant {
                    Variant::Tablut => String::new(),
                    v => format!(", {}", variant_name(v)),
                }
            ));
        }
    }
    text
}

/// A leaderboard page (each variant has its own, named in its title).
pub fn leaderboard_message(board: &Leaderboard) -> String {
    let name = variant_name(board.variant);
    if board.lines.is_empty() {
        return format!(
            "No rated {name} games in this server yet: games between two people count."
        );
    }
    let lines: Vec<String> = board
        .lines
        .iter()
        .map(|l| {
            format!(
                "{}. {} {:.0} ± {:.0} ({})",
                l.rank,
                escape(&l.name),
                l.rating.rating,
                2.0 * l.rating.deviation,
                counted(l.rated_games, "game", "games")
            )
        })
        .collect();
    listing(
        format!(
            "**{name} leaderboard** (page {}/{})",
            board.page + 1,
            board.pages
        ),
        &lines,
    )
}

/// How many games a page of `/tablut games` lists, at most (fewer when their lines are long:
/// a page stays within [`CONTENT_LIMIT`]).
pub const GAMES_PER_PAGE: usize = 10;

/// A page of the games running in a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesPage {
    pub text: String,
    /// The page shown, from 0.
    pub page: u32,
    pub pages: u32,
}

/// Page `page` (from 0; past the last: the last) of `games`, the games running in the channels
/// a member can see. The games are cut into pages of [`GAMES_PER_PAGE`], or fewer where their
/// lines would not fit in one message, so every game is on a page and none is left out.
pub fn games_page(games: &[GameInfo], page: u32) -> GamesPage {
    if games.is_empty() {
        return GamesPage {
            text: "No games are running in the channels you can see: start one with /tablut challenge or /tablut ai."
                .to_string(),
            page: 0,
            pages: 1,
        };
    }
    let lines: Vec<String> = games
        .iter()
        .map(|g| {
            let turn = g
                .to_move()
                .map(|p| format!("{} ({}) to move", name(p), g.turn))
                .unwrap_or_default();
            let variant = match g.variant() {
                Variant::Tablut => String::new(),
                v => format!("{}, ", variant_name(v)),
            };
            format!(
                "• {}: {variant}{} vs {}, move {}, {turn}",
                channel(g.place.channel),
                name(&g.attackers),
                name(&g.defenders),
                g.move_number()
            )
        })
        .collect();
    let head = |page: usize, pages: usize| match pages {
        1 => format!("**Games in progress** ({})", games.len()),
        _ => format!(
            "**Games in progress** ({}, page {}/{pages})",
            games.len(),
            page + 1
        ),
    };
    // Room for the longest head there can be.
    let room = CONTENT_LIMIT - head(lines.len(), lines.len()).chars().count();
    let mut starts = vec![0];
    let mut used = 0;
    for (i, line) in lines.iter().enumerate() {
        let len = 1 + line.chars().count();
        let first = *starts.last().expect("one page at least");
        if i > first && (i - first >= GAMES_PER_PAGE || used + len > room) {
            starts.push(i);
            used = 0;
        }
        used += len;
    }
    let pages = starts.len();
    let page = (page as usize).min(pages - 1);
    let end = starts.get(page + 1).copied().unwrap_or(lines.len());
    GamesPage {
        // `listing` is the net: a line longer than a message is cut there.
        text: listing(head(page, pages), &lines[starts[page]..end]),
        page: page as u32,
        pages: pages as u32,
    }
}

/// The words of a notice the outbox delivers: what it tells (see [`News`]), worded at
/// delivery.
pub fn notice_text(news: &News) -> String {
    match news {
        News::Moved(report) => move_message(report),
        News::Ended { ended, by } => ended_message(ended, by.as_ref()),
        News::Clock(event) => clock_message(event),
        News::Started(game) => started_message(game),
        News::ChannelGone(game) => format!(
            "{} between {} and {} was aborted: its thread is gone. It does not count.",
            capital(&the_game(game.variant())),
            bold(&game.attackers),
            bold(&game.defenders)
        ),
        News::Challenge(c) => challenge_message(c),
        News::ChallengeClosed { challenge, thread } => challenge_closed(challenge, *thread),
        News::DrawOffered { game, by } => draw_offered(game, *by),
        News::DrawDeclined { game, by } => draw_declined(game, *by),
        News::NotStarted { why } => format!("No game was started in this thread. {why}"),
        News::DailyPuzzle(view) => daily_puzzle(view),
        News::AiWaiting { game, ahead } => ai_waiting(game, *ahead),
        News::AnalysisProgress {
            game,
            reviewed,
            total,
        } => analysis_progress(game, *reviewed, *total),
        News::AnalysisSummary(summary) => analysis_summary(summary),
        News::PuzzleAnswer(answer) => super::commands::puzzle::answer_text(answer),
        News::PuzzleShown(view) => super::commands::puzzle::view_message(view),
        News::DailyPuzzleChannel { channel, had } => {
            super::commands::puzzle::daily_channel_text(*channel, *had)
        }
        News::Forgotten(done) => forgotten_text(done),
        // Worded when it was written, before notices were typed.
        News::Worded { text, .. } => text.clone(),
    }
}

/// `/tablut privacy`'s answer, with the file of `rows` rows.
pub fn privacy_text(rows: usize) -> String {
    format!(
        "Everything the bot stores about you is in the attached file: {}, table by table, as \
         stored. /tablut forget-me deletes it.",
        counted(rows, "row", "rows")
    )
}

/// `/tablut privacy`'s answer when the file is beyond what Discord takes.
pub fn privacy_too_large(bytes: usize) -> String {
    format!(
        "What the bot stores about you is too large to send here ({} MB): ask the bot's \
         operator for it.",
        bytes.div_ceil(1024 * 1024)
    )
}

/// `/tablut forget-me`'s question, above its button.
pub fn forget_me_question() -> String {
    format!(
        "Forget you? In every server, your ratings, puzzle ratings and puzzle tries are \
         deleted, and in your finished games and closed challenges your name and id become \
         **{}** (the games stay whole: their records, replays and your opponents' ratings do \
         not change). This cannot be undone. Press **Forget me** to go ahead, or dismiss this \
         message to keep everything.",
        crate::service::privacy::FORMER_PLAYER_NAME
    )
}

/// What `/tablut forget-me` did, shown in place of its question.
pub fn forgotten_text(done: &crate::service::privacy::Forgotten) -> String {
    format!(
        "Done: the bot has forgotten you. Deleted: {}, {} and {}; {} now played by **{}**. \
         Messages already posted in channels stay as Discord shows them.",
        counted(done.ratings, "rating", "ratings"),
        counted(done.puzzle_ratings, "puzzle rating", "puzzle ratings"),
        counted(done.puzzle_tries, "puzzle try", "puzzle tries"),
        counted(done.games, "finished game", "finished games"),
        crate::service::privacy::FORMER_PLAYER_NAME
    )
}

/// The daily puzzle, posted in the channel an admin named.
pub fn daily_puzzle(view: &crate::service::puzzle::PuzzleView) -> String {
    format!(
        "Today's puzzle: {} Press **Solve today's puzzle** (or use /tablut puzzle today) for \
         your try, seen by you alone, then answer with /tablut puzzle move. One try each: \
         /tablut puzzle leaderboard shows who solved it.",
        view.task()
    )
}

/// What the clock says in a game's channel.
pub fn clock_message(event: &ClockEvent) -> String {
    match event {
        ClockEvent::Reminder {
            game,
            user,
            remaining,
            ..
        } => format!(
            "{}, it is your move ({}, move {}{}): {} left.",
            self::user(*user),
            game.turn,
            game.move_number(),
            variant_tag(game.variant()),
            duration_words(*remaining)
        ),
        ClockEvent::TimedOut(ended) => ended_message(ended, None),
        ClockEvent::ChallengeExpired(c) => format!(
            "The {}challenge from {} to {} expired unanswered.",
            match c.rules.variant {
                Variant::Tablut => String::new(),
                v => format!("{} ", variant_name(v)),
            },
            escape(&c.challenger.name),
            escape(&c.challenged.name)
        ),
    }
}

/// A finished game as the analysis's autocomplete lists it (within 100 characters).
pub fn game_choice(game: &GameInfo) -> String {
    let label = format!(
        "#{}{} · {} vs {} · {} · {}",
        game.id,
        variant_tag(game.variant()),
        game.attackers.name(),
        game.defenders.name(),
        game.outcome.status().replace('_', " "),
        counted(game.ply, "ply", "plies")
    );
    if label.chars().count() <= 100 {
        return label;
    }
    let mut cut: String = label.chars().take(99).collect();
    cut.push('…');
    cut
}

/// The progress of an analysis, as its message shows it (edited as it goes).
pub fn analysis_progress(game: &GameInfo, reviewed: u32, total: u32) -> String {
    if reviewed >= total {
        format!(
            "Reviewed game #{}{}: {}. The summary follows.",
            game.id,
            variant_note(game.variant()),
            match total {
                1 => "its one move".to_string(),
                n => format!("all {n} moves"),
            }
        )
    } else {
        format!(
            "Reviewing game #{}{}: {reviewed} of {} reviewed.",
            game.id,
            variant_note(game.variant()),
            counted(total, "move", "moves")
        )
    }
}

/// The answer when an analysis starts.
pub fn analysis_started(game: &GameInfo, total: u32) -> String {
    format!(
        "Reviewing game #{} ({}{}) in the background: the progress shows here, then the summary and the graph.",
        game.id,
        match game.variant() {
            Variant::Tablut => String::new(),
            v => format!("{}, ", variant_name(v)),
        },
        counted(total, "move", "moves")
    )
}

/// The answer while an analysis is under way.
pub fn analysis_running(game: &GameInfo, reviewed: u32, total: u32) -> String {
    format!(
        "Game #{}{} is being reviewed: {reviewed} of {} so far. The summary and the graph will be posted here.",
        game.id,
        variant_note(game.variant()),
        counted(total, "move", "moves")
    )
}

/// A finished analysis: the players and the result, each side's accuracy, its count of
/// blunders, mistakes and inaccuracies, and its costliest moves in the record's notation, each
/// with the expected score it gave away, the better move and the answer it allowed. Within
/// Discord's limit.
pub fn analysis_summary(summary: &AnalysisSummary) -> String {
    let game = &summary.game;
    let named = |side: Side| name(game.player(side));
    let mut out = format!(
        "**Analysis of game #{}**{}: {} (attackers) vs {} (defenders). {}.\n",
        game.id,
        variant_note(game.variant()),
        named(Side::Attackers),
        named(Side::Defenders),
        status_line(game)
    );
    let accuracy = |s: &SideSummary| match s.accuracy {
        Some(a) => format!("{} {a:.0}%", named(s.side)),
        None => format!("{} (no moves)", named(s.side)),
    };
    out.push_str(&format!(
        "Accuracy: {} · {}\n",
        accuracy(&summary.sides[0]),
        accuracy(&summary.sides[1])
    ));
    for s in &summary.sides {
        let counts: Vec<String> = [
            (Judgement::Blunder, s.blunders),
            (Judgement::Mistake, s.mistakes),
            (Judgement::Inaccuracy, s.inaccuracies),
        ]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(j, n)| counted(n, j.word(), j.words()))
        .collect();
        let counts = if counts.is_empty() {
            "no costly move".to_string()
        } else {
            counts.join(", ")
        };
        out.push_str(&format!(
            "\n**{}** ({}): {counts}\n",
            capitalise(s.side.name()),
            named(s.side)
        ));
        for m in &s.worst {
            out.push_str(&costly_move(m));
            out.push('\n');
        }
    }
    fit(out)
}

/// One costly move as the summary lists it: "• 21… d6-e6+?! (inaccuracy, 13% of the expected
/// score given away): better **d6-f6**; it allowed **g4-e4**", with what it did to a forced
/// result when that judged it ("(blunder: it allows a forced loss; 15% of …)"). The percentage
/// is the one the judgement was made on.
fn costly_move(m: &CostlyMove) -> String {
    let dots = match m.side {
        Side::Attackers => ".",
        Side::Defenders => "…",
    };
    let mut line = format!(
        "• {}{dots} {}{} ({}{}{}% of the expected score given away)",
        m.number,
        m.played,
        m.judgement.mark(),
        m.judgement.word(),
        match m.forced {
            Some(f) => format!(": {}; ", f.words()),
            None => ", ".to_string(),
        },
        analysis::percent(m.loss)
    );
    if let Some(better) = m.better {
        line.push_str(&format!(": better **{better}**"));
    }
    if let Some(r) = m.refutation {
        line.push_str(&format!("; it allowed **{r}**"));
    }
    line
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_analysis_summary_names_three_moves_a_side_within_the_limit() {
        use crate::ai::analysis::{review, Evaluation};
        use crate::service::{Place, Player, TimeControl, User};
        use crate::tafl::{Game, Position};
        // A long game where every move throws the game away: 30 costly moves a side.
        let mut game = Game::new(Rules::default());
        let mut rng = fastrand::Rng::with_seed(3);
        while game.moves().len() < 60 {
            let legal = game.position().legal_moves_sorted();
            let mut g = game.clone();
            let mv = legal[rng.usize(..legal.len())];
            g.play(mv).unwrap();
            if !g.outcome().is_over() {
                game = g;
            }
        }
        let evals: Vec<Option<Evaluation>> = (0..=60)
            .map(|i| {
                let best = game.positions()[i].legal_moves_sorted()[0];
                Some(Evaluation {
                    score: 900,
                    best,
                    depth: 1,
                    nodes: 1,
                })
            })
            .collect();
        let r = review(&game, &evals, 164.0);
        assert!(
            r.moves
                .iter()
                .filter(|m| m.judgement.word() == "blunder")
                .count()
                > 50
        );
        let name = "*".repeat(32);
        let info = GameInfo {
            id: 123_456_789,
            place: Place {
                guild: Some(1),
                channel: 2,
            },
            attackers: Player::User(User::new(1, name.clone())),
            defenders: Player::User(User::new(2, name)),
            rules: Rules::default(),
            start: Position::start(Rules::default()),
            rated: true,
            ply: 60,
            turn: game.turn(),
            outcome: Outcome::Drawn {
                reason: crate::tafl::Reason::DrawAgreed,
            },
            time_control: TimeControl::None,
            turn_deadline: None,
            board_message_id: None,
            clocks: None,
        };
        let text = analysis_summary(&AnalysisSummary::new(&info, &r));
        assert!(text.chars().count() <= CONTENT_LIMIT, "{}", text.len());
        assert!(!text.ends_with('…'), "fits without being cut");
        assert_eq!(text.matches("\n• ").count(), 6, "{text}");
        assert!(text.contains("better **"), "{text}");
        assert!(text.contains(r"\*\*\*"), "names escaped: {text}");
    }

    #[test]
    fn counts_are_pluralised_and_labels_agree_with_their_percentages() {
        use crate::ai::analysis::{Forced, MoveReview, Review};
        use crate::service::{Place, Player, TimeControl, User};
        use crate::tafl::Position;
        let start = Position::start(Rules::default());
        let mv = start.legal_moves_sorted()[0];
        // Attackers' moves (odd plies): three inaccuracies, one loss shown as 20%, and one that
        // allowed a forced loss for 15%.
        let judged = |ply: u32, loss: f64, forced: Option<Forced>| MoveReview {
            ply,
            side: Side::Attackers,
            played: format!("m{ply}"),
            mv,
            before: 0.5,
            after: 0.5 - loss,
            loss,
            judgement: Judgement::of_loss(loss)
                .max(forced.map_or(Judgement::Good, |f| f.judgement(0.5, 0.5 - loss))),
            forced,
            accuracy: crate::ai::analysis::move_accuracy(loss),
            better: None,
            refutation: None,
        };
        let moves = vec![
            judged(1, 0.12, None),
            judged(3, 0.11, None),
            judged(5, 0.13, None),
            judged(7, 0.1996, None),
            judged(9, 0.15, Some(Forced::LossAllowed)),
        ];
        let review = Review {
            curve: vec![0.5; 11],
            calls: Vec::new(),
            accuracy: [Some(50.0), None],
            outcome: Outcome::Drawn {
                reason: crate::tafl::Reason::DrawAgreed,
            },
            moves,
        };
        let info = GameInfo {
            id: 7,
            place: Place {
                guild: Some(1),
                channel: 2,
            },
            attackers: Player::User(User::new(1, "Astrid")),
            defenders: Player::User(User::new(2, "Birger")),
            rules: Rules::default(),
            start,
            rated: true,
            ply: 10,
            turn: Side::Attackers,
            outcome: review.outcome,
            time_control: TimeControl::None,
            turn_deadline: None,
            board_message_id: None,
            clocks: None,
        };
        let text = analysis_summary(&AnalysisSummary::new(&info, &review));
        assert!(
            text.contains("1 blunder, 1 mistake, 3 inaccuracies"),
            "{text}"
        );
        assert!(!text.contains("inaccuracys"), "{text}");
        // The label is the one the shown percentage falls under.
        assert!(text.contains("m7? (mistake, 20% of"), "{text}");
        // A forced loss says why it is a blunder for less than 30%.
        assert!(
            text.contains("m9?? (blunder: it allows a forced loss; 15% of"),
            "{text}"
        );
        // Counts of one are singular wherever a count is worded.
        let mut one = info.clone();
        one.ply = 1;
        assert!(
            game_choice(&one).ends_with("· 1 ply"),
            "{}",
            game_choice(&one)
        );
        assert!(analysis_started(&one, 1).contains("(1 move)"));
        assert!(analysis_running(&one, 0, 1).contains("0 of 1 move so far"));
        assert!(analysis_progress(&one, 0, 1).contains("0 of 1 move reviewed"));
        assert!(analysis_progress(&one, 1, 1).contains("its one move"));
        assert!(analysis_progress(&one, 0, 2).contains("0 of 2 moves reviewed"));
        let hint = Hint {
            best: "a4-a2".into(),
            score: 0,
            depth: 1,
            pv: Vec::new(),
        };
        assert!(hint_message(&hint).contains("searched 1 ply ahead"));
        assert_eq!(counted(1u32, "ply", "plies"), "1 ply");
        assert_eq!(counted(0u32, "ply", "plies"), "0 plies");
    }

    #[test]
    fn mentions_and_times_in_discord_markup() {
        assert_eq!(user(80351110224678912).to_string(), "<@80351110224678912>");
        assert_eq!(
            channel(81384788765712384).to_string(),
            "<#81384788765712384>"
        );
        assert_eq!(relative_time(1_800_000_000_999), "<t:1800000000:R>");
    }

    #[test]
    fn names_cannot_inject_markdown_or_mentions() {
        assert_eq!(escape("*Bo*_@everyone"), "\\*Bo\\*\\_\\@everyone");
        assert_eq!(
            escape("[Free Nitro](https://x.io)"),
            "\\[Free Nitro\\]\\(https\\://x\\.io\\)"
        );
        assert_eq!(escape("<@&1> # h\n> q"), "\\<\\@&1\\> \\# h \\> q");
        assert_eq!(escape("a\u{202E}b\u{2066}c\\"), "abc\\\\");
        // Letters, digits, spaces and the rest of Unicode are left as they are.
        assert_eq!(escape("Åsa Ørn 1732 ᚦ 🐺"), "Åsa Ørn 1732 ᚦ 🐺");
        // Only the users a post mentions itself are pinged; a name's mention cannot be one.
        let pings = |text: &str| serde_json::to_value(pinged(text)).unwrap();
        assert_eq!(
            pings("<@7>, <@!8> and <@7>: <@&9> <#10> @everyone"),
            serde_json::json!({"parse": [], "roles": [], "users": ["7", "8"]})
        );
        assert_eq!(
            pings(&format!("**{}** moved", escape("<@7> @everyone"))),
            serde_json::json!({"parse": [], "roles": [], "users": []})
        );
    }

    /// Names a member could choose, each of which Discord would read as formatting, a link, a
    /// preview or a mention if a post showed it as it is.
    const HOSTILE: &[&str] = &[
        "[Free Nitro](https://x.io)",
        "https://x.io/free-nitro",
        "discord.gg/nitro www.x.io",
        "@everyone @here",
        "<@80351110224678912> <@&1> <#2>",
        "# Heading",
        "## h2\n### h3",
        "> quote >>> all",
        "-# subtext",
        "- list\n* item\n1. first",
        "```rust\ncode``` `tick`",
        "||spoiler|| ~~gone~~",
        "__under__ *it* **bold**",
        "<t:1800000000:R> <:e:3> </x:4>",
        "\u{202E}desrever\u{2066}",
        "back\\slash\\",
        "\\*not escaped*",
    ];

    /// The characters Discord's markdown, link, invite and mention parsing reads (written apart
    /// from [`MARKUP`], so that a character dropped there fails here).
    const DISCORD_READS: &str = "\\*_~`|><#-+.[]()@:";

    /// What Discord would read as markup in `text`: its markup characters (a backslash before
    /// one makes it text), line breaks and bidirectional controls, in order.
    fn markup(text: &str) -> Vec<char> {
        let mut out = Vec::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(n) if n.is_ascii_punctuation() => {}
                    next => out.extend(std::iter::once('\\').chain(next)),
                },
                c if DISCORD_READS.contains(c)
                    || c == '\n'
                    || escape(&c.to_string()).is_empty() =>
                {
                    out.push(c)
                }
                _ => {}
            }
        }
        out
    }

    /// `text` as Discord shows it, escapes taken out.
    fn rendered(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, chars.peek()) {
                ('\\', Some(n)) if n.is_ascii_punctuation() => out.push(chars.next().unwrap()),
                (c, _) => out.push(c),
            }
        }
        out
    }

    /// A name as a post shows it: on one line, without bidirectional controls.
    fn shown(name: &str) -> String {
        rendered(&escape(name))
    }

    #[test]
    fn the_history_files_tags_hold_any_name_on_one_line() {
        for name in HOSTILE.iter().chain(&["say \"hi\"]\n[Result \"1-0\"]"]) {
            let game = GameInfo {
                attackers: Player::User(crate::service::User::new(7, *name)),
                ..long_game(1)
            };
            let file = history_file(&game, "1. e1-e3", "x");
            let tags: Vec<&str> = file.lines().take_while(|l| !l.is_empty()).collect();
            assert_eq!(tags.len(), 5, "{file}");
            for line in tags {
                assert!(
                    line.starts_with('[')
                        && line.ends_with("\"]")
                        && line.matches('"').count() == 2,
                    "{line}"
                );
            }
            assert!(file.contains("\n1. e1-e3\n"), "{file}");
        }
    }

    /// Every kind of post that shows a name, built for players named `a` and `b`.
    fn posts_naming(a: &str, b: &str) -> Vec<(&'static str, String)> {
        use crate::service::{ChallengeStatus, Place, RecentGame, User};
        use crate::tafl::{Bitboard, Mark, Move, Reason, RecordedMove, Square};
        let (alice, bob) = (User::new(7, a), User::new(8, b));
        let game = |outcome| GameInfo {
            attackers: Player::User(alice.clone()),
            defenders: Player::User(bob.clone()),
            outcome,
            ply: 4,
            turn: Side::Attackers,
            ..long_game(1)
        };
        let won = |reason| Outcome::Won {
            winner: Side::Defenders,
            reason,
        };
        let rating = crate::rating::Rating::default();
        let ratings = RatingChanges {
            attackers: (7, rating, rating),
            defenders: (8, rating, rating),
        };
        let sq = |f, r| Square::from_coords(f, r).unwrap();
        let recorded = RecordedMove {
            mv: Move::new(sq(3, 3), sq(3, 1)),
            side: Side::Defenders,
            captured: Bitboard::EMPTY,
            king_captured: false,
            mark: Mark::Threat,
            call: None,
        };
        let report = MoveReport {
            game: game(won(Reason::KingEscaped)),
            recorded,
            notation: recorded.to_string(),
            by: Player::User(bob.clone()),
            captured: Vec::new(),
            call: None,
            ratings: Some(ratings),
            png: Vec::new(),
            notice: 0,
        };
        let ended = |outcome| Ended {
            game: game(outcome),
            ratings: Some(ratings),
            png: Vec::new(),
            notice: None,
        };
        let challenge = ChallengeInfo {
            id: 1,
            place: Place {
                guild: Some(1),
                channel: 2,
            },
            challenger: alice.clone(),
            challenged: bob.clone(),
            side: crate::service::SideChoice::Attackers,
            rules: Rules::default(),
            time_control: TimeControl::None,
            thread: false,
            rated: true,
            status: ChallengeStatus::Pending,
            expires_at: 0,
            message_id: None,
        };
        let stats = Stats {
            user: 7,
            games: 1,
            wins_as_attackers: 0,
            losses_as_attackers: 1,
            wins_as_defenders: 0,
            losses_as_defenders: 0,
            draws: 0,
            ratings: Vec::new(),
            recent: vec![RecentGame {
                game: 1,
                variant: Variant::Tablut,
                side: Side::Attackers,
                opponent: b.to_string(),
                result: "loss",
                reason: "king_escaped".into(),
                ended_at: 0,
            }],
        };
        let leaderboard = Leaderboard {
            variant: Variant::Tablut,
            page: 0,
            pages: 1,
            players: 2,
            lines: [&alice, &bob]
                .iter()
                .enumerate()
                .map(|(i, u)| crate::service::Ranked {
                    rank: i as u32 + 1,
                    user: u.id,
                    name: u.name.clone(),
                    rating,
                    rated_games: 1,
                })
                .collect(),
        };
        let review = crate::ai::analysis::Review {
            curve: vec![0.5; 5],
            calls: Vec::new(),
            accuracy: [Some(50.0), Some(60.0)],
            outcome: won(Reason::KingEscaped),
            moves: Vec::new(),
        };
        let solvers: Vec<crate::service::puzzle::PuzzlePlayer> = [&alice, &bob]
            .iter()
            .map(|u| crate::service::puzzle::PuzzlePlayer {
                user_id: u.id,
                name: u.name.clone(),
                rating,
                solved: 1,
                failed: 0,
            })
            .collect();
        let on = game(Outcome::Ongoing);
        let over = game(won(Reason::KingEscaped));
        vec![
            ("move", move_message(&report)),
            (
                "resignation",
                ended_message(&ended(won(Reason::Resigned)), Some(&report.by)),
            ),
            (
                "loss on time",
                ended_message(&ended(won(Reason::Timeout)), None),
            ),
            (
                "draw agreed",
                ended_message(
                    &ended(Outcome::Drawn {
                        reason: Reason::DrawAgreed,
                    }),
                    None,
                ),
            ),
            ("result", result_line(&over)),
            ("ratings", ratings_line(&over, &ratings)),
            ("board, the game over", board_text(&over, None)),
            ("board", board_text(&on, Some(&recorded))),
            ("start", started_message(&on)),
            ("thread gone", notice_text(&News::ChannelGone(on.clone()))),
            ("challenge", challenge_message(&challenge)),
            (
                "challenge expired",
                clock_message(&ClockEvent::ChallengeExpired(challenge.clone())),
            ),
            ("draw offered", draw_offered(&on, 7)),
            ("draw declined", draw_declined(&on, 8)),
            ("stats", stats_message(a, &stats)),
            ("leaderboard", leaderboard_message(&leaderboard)),
            ("games", games_page(&[on.clone(), over.clone()], 0).text),
            (
                "analysis",
                analysis_summary(&AnalysisSummary::new(&over, &review)),
            ),
            ("history", history_text(&on, "1. e1-e3")),
            ("replay", replay_text(&over)),
            (
                "puzzles' leaderboard",
                crate::bot::commands::puzzle::leaderboard_text(None, &solvers),
            ),
        ]
    }

    #[test]
    fn a_hostile_name_is_text_in_every_post_that_shows_a_name() {
        let plain = posts_naming("Astrid", "Birger");
        for hostile in HOSTILE {
            // Both players so named, and each alone beside a plain name.
            for (a, b) in [
                (*hostile, *hostile),
                (*hostile, "Birger"),
                ("Astrid", *hostile),
            ] {
                for ((kind, text), (_, plain)) in posts_naming(a, b).iter().zip(&plain) {
                    // The name adds no markup to the post: it reads as the post with plain
                    // names does.
                    assert_eq!(
                        markup(text),
                        markup(plain),
                        "{kind} with {hostile:?}: {text}"
                    );
                    // And shows as typed (on one line, without reordering controls), wherever
                    // the plain post shows a name.
                    for (name, plain_name) in [(a, "Astrid"), (b, "Birger")] {
                        if rendered(plain).contains(plain_name) {
                            assert!(
                                rendered(text).contains(&shown(name)),
                                "{kind} shows {name:?}: {text}"
                            );
                        }
                    }
                    // No mention in a name pings: the post pings the users it mentions itself.
                    assert_eq!(
                        serde_json::to_value(pinged(text)).unwrap(),
                        serde_json::to_value(pinged(plain)).unwrap(),
                        "{kind} with {hostile:?}"
                    );
                }
            }
        }
        // Every kind names someone, as people.
        for (kind, text) in &plain {
            assert!(
                text.contains("Astrid") || text.contains("Birger") || text.contains("<@"),
                "{kind}: {text}"
            );
        }
    }

    #[test]
    fn long_lists_end_in_a_count_of_the_rest_within_the_limit() {
        let lines: Vec<String> = (0..100)
            .map(|i| format!("{i:03} {}", "x".repeat(96)))
            .collect();
        let text = listing("Head".into(), &lines);
        assert!(text.chars().count() <= CONTENT_LIMIT, "{}", text.len());
        let shown = text.lines().count() - 2;
        assert!(shown >= 18, "as many lines as fit: {shown}");
        assert!(
            text.ends_with(&format!("\n… and {} more", 100 - shown)),
            "{text}"
        );
        assert!(text.contains(&lines[shown - 1]) && !text.contains(&lines[shown]));
        // Everything that fits is shown whole, with no note.
        let short = listing("Head".into(), &lines[..3]);
        assert_eq!(short.lines().count(), 4);
        assert!(!short.contains("more"));
        assert_eq!(fit("é".repeat(2000)), "é".repeat(2000));
        let cut = fit("é".repeat(2500));
        assert_eq!(cut.chars().count(), CONTENT_LIMIT);
        assert!(cut.ends_with('…'));
    }

    /// A name as long as Discord allows (32), every character one that is escaped.
    fn long_name(i: u64) -> crate::service::User {
        crate::service::User::new(900 + i, "*_".repeat(16))
    }

    fn long_game(i: u64) -> GameInfo {
        let rules = Rules::default();
        GameInfo {
            id: i as i64,
            place: crate::service::Place {
                guild: Some(1),
                channel: 10_000_000_000_000_000_000 + i,
            },
            attackers: Player::User(long_name(2 * i)),
            defenders: Player::User(long_name(2 * i + 1)),
            rules,
            start: crate::tafl::Position::start(rules),
            rated: true,
            ply: 999,
            turn: Side::Defenders,
            outcome: Outcome::Ongoing,
            time_control: TimeControl::None,
            turn_deadline: None,
            board_message_id: None,
            clocks: None,
        }
    }

    #[test]
    fn every_builder_stays_within_the_limit_with_the_longest_names() {
        let within = |text: String| {
            assert!(
                text.chars().count() <= CONTENT_LIMIT,
                "{} characters",
                text.len()
            );
            text
        };
        let games: Vec<GameInfo> = (0..100).map(long_game).collect();
        // Every game is on a page, and every page within the limit.
        let pages = games_page(&games, 0).pages;
        assert!(pages > 100 / GAMES_PER_PAGE as u32, "{pages} pages");
        let mut listed = 0;
        for page in 0..pages {
            let shown = games_page(&games, page);
            assert_eq!((shown.page, shown.pages), (page, pages));
            let text = within(shown.text);
            assert!(!text.contains(" more"));
            assert!(text.contains(&format!("page {}/{pages}", page + 1)));
            listed += text.lines().filter(|l| l.starts_with('•')).count();
        }
        assert_eq!(listed, games.len());
        // Past the last page: the last.
        assert_eq!(games_page(&games, u32::MAX).page, pages - 1);
        within(started_message(&games[0]));
        within(turn_line(&games[0]));
        for v in Variant::ALL {
            within(rules_message(v, Some(&v.rules())));
        }
        let stats = Stats {
            user: 1,
            games: u32::MAX,
            wins_as_attackers: u32::MAX,
            losses_as_attackers: u32::MAX,
            wins_as_defenders: u32::MAX,
            losses_as_defenders: u32::MAX,
            draws: u32::MAX,
            ratings: Variant::ALL
                .map(|variant| crate::service::VariantRating {
                    variant,
                    rating: crate::rating::Rating::default(),
                    rated_games: u32::MAX,
                })
                .to_vec(),
            recent: (0..5)
                .map(|i| crate::service::RecentGame {
                    game: i,
                    variant: Variant::Copenhagen,
                    side: Side::Attackers,
                    opponent: long_name(0).name,
                    result: "loss",
                    reason: "king_captured".into(),
                    ended_at: 0,
                })
                .collect(),
        };
        within(stats_message(&long_name(0).name, &stats));
        let board = Leaderboard {
            variant: Variant::Copenhagen,
            page: 0,
            pages: u32::MAX,
            players: u32::MAX,
            lines: (0..crate::service::view::LEADERBOARD_PAGE)
                .map(|i| crate::service::Ranked {
                    rank: u32::MAX - i,
                    user: 1,
                    name: long_name(0).name,
                    rating: crate::rating::Rating::default(),
                    rated_games: u32::MAX,
                })
                .collect(),
        };
        assert!(
            !within(leaderboard_message(&board)).contains(" more"),
            "a page fits whole"
        );
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration_words(Duration::from_secs(26 * 3600)), "1 d 2 h");
        assert_eq!(duration_words(Duration::from_secs(200 * 60)), "3 h 20 min");
        assert_eq!(duration_words(Duration::from_secs(10)), "1 min");
        assert_eq!(
            duration_words(Duration::from_secs(12 * 3600 - 3)),
            "12 h 0 min"
        );
        assert_eq!(
            duration_words(Duration::from_secs(90 * 60 + 29)),
            "1 h 30 min"
        );
    }

    #[test]
    fn the_rules_name_the_channel_games_options() {
        let text = rules_message(Variant::Tablut, Some(&crate::tafl::Preset::Corner.rules()));
        assert!(text.contains("**corner** rules") && text.contains("`escape=corner`"));
        assert!(!rules_message(Variant::Tablut, None).contains("This channel's game"));
        // Another variant's rules, asked for in a channel playing Tablut: no Tablut options.
        let text = rules_message(Variant::Brandubh, Some(&Rules::default()));
        assert!(
            text.starts_with("**Brandubh**") && text.contains("7×7"),
            "{text}"
        );
        assert!(!text.contains("This channel's game"), "{text}");
        let text = rules_message(Variant::Copenhagen, Some(&Variant::Copenhagen.rules()));
        assert!(text.contains("files a–k, ranks 1–11"), "{text}");
        assert!(
            text.contains("• **hnefatafl_org**: hnefatafl.org's"),
            "{text}"
        );
        assert!(
            text.contains(
                "This channel's game is a game of Copenhagen Hnefatafl, **aagenielsen** rules."
            ),
            "{text}"
        );
    }

    fn game_of(variant: Variant, outcome: Outcome) -> GameInfo {
        GameInfo {
            rules: variant.rules(),
            start: crate::tafl::Position::start_of(variant),
            outcome,
            turn: Side::Attackers,
            ply: 4,
            ..long_game(1)
        }
    }

    #[test]
    fn raichi_and_tuichu_are_called_in_tablut_games_alone() {
        use crate::tafl::{Bitboard, Mark, Move, RecordedMove, Square};
        let sq = |f, r| Square::from_coords(f, r).unwrap();
        for variant in Variant::ALL {
            for call in [Call::Raichi, Call::Tuichu] {
                let recorded = RecordedMove {
                    mv: Move::new(sq(3, 3), sq(3, 1)),
                    side: Side::Defenders,
                    captured: Bitboard::EMPTY,
                    king_captured: false,
                    mark: Mark::Threat,
                    call: Some(call),
                };
                let report = MoveReport {
                    game: game_of(variant, Outcome::Ongoing),
                    recorded,
                    notation: recorded.to_string(),
                    by: Player::User(crate::service::User::new(8, "Birger")),
                    captured: Vec::new(),
                    call: Some(call),
                    ratings: None,
                    png: Vec::new(),
                    notice: 0,
                };
                let text = move_message(&report);
                let called = text.contains("*Raichi!*") || text.contains("*Tuichu!*");
                assert_eq!(called, variant.is_tablut(), "{text}");
            }
        }
    }

    #[test]
    fn challenges_draw_offers_reviews_and_waits_name_the_game_unless_it_is_tablut() {
        use crate::service::ChallengeStatus;
        let challenge = |variant: Variant, status| ChallengeInfo {
            id: 1,
            place: crate::service::Place {
                guild: Some(1),
                channel: 2,
            },
            challenger: crate::service::User::new(7, "Astrid"),
            challenged: crate::service::User::new(8, "Birger"),
            side: crate::service::SideChoice::Random,
            rules: variant.rules(),
            time_control: TimeControl::None,
            thread: true,
            rated: true,
            status,
            expires_at: 0,
            message_id: None,
        };
        for variant in Variant::ALL {
            let accepted =
                challenge_closed(&challenge(variant, ChallengeStatus::Accepted), Some(3));
            let declined = challenge_closed(&challenge(variant, ChallengeStatus::Declined), None);
            let withdrawn = challenge_closed(&challenge(variant, ChallengeStatus::Cancelled), None);
            let expired = clock_message(&ClockEvent::ChallengeExpired(challenge(
                variant,
                ChallengeStatus::Expired,
            )));
            let offer = draw_offered(&game_of(variant, Outcome::Ongoing), 900);
            let thread = thread_name(&challenge(variant, ChallengeStatus::Pending));
            let game = game_of(variant, Outcome::Ongoing);
            let reviews = [
                analysis_started(&game, 7),
                analysis_running(&game, 3, 7),
                analysis_progress(&game, 3, 7),
                analysis_progress(&game, 7, 7),
                ai_waiting(&game, 0),
                ai_waiting(&game, 1),
                ai_waiting(&game, 2),
            ];
            for text in reviews {
                assert_eq!(
                    text.contains(variant_name(variant)),
                    !variant.is_tablut(),
                    "{text}"
                );
            }
            assert_eq!(
                thread,
                format!("{}: Astrid vs Birger", variant_name(variant))
            );
            match variant {
                Variant::Tablut => {
                    assert_eq!(accepted, "Challenge accepted: the game is on in <#3>.");
                    assert_eq!(declined, "<@8> declined the challenge from <@7>.");
                    assert_eq!(withdrawn, "<@7> withdrew the challenge.");
                    assert_eq!(
                        expired,
                        "The challenge from Astrid to Birger expired unanswered."
                    );
                    assert!(offer.contains(" offers a draw. "), "{offer}");
                    assert_eq!(
                        ai_waiting(&game, 0),
                        "The AI is thinking; this game is next in line."
                    );
                    assert_eq!(
                        ai_waiting(&game, 2),
                        "The AI is thinking; 2 games ahead of this one."
                    );
                }
                v => {
                    let name = variant_name(v);
                    assert_eq!(
                        accepted,
                        format!("Challenge accepted: the {name} game is on in <#3>.")
                    );
                    assert_eq!(
                        declined,
                        format!("<@8> declined the {name} challenge from <@7>.")
                    );
                    assert_eq!(withdrawn, format!("<@7> withdrew the {name} challenge."));
                    assert_eq!(
                        expired,
                        format!("The {name} challenge from Astrid to Birger expired unanswered.")
                    );
                    assert!(
                        offer.contains(&format!(" offers a draw in the {name} game. ")),
                        "{offer}"
                    );
                }
            }
        }
    }

    #[test]
    fn posts_name_the_game_unless_it_is_tablut() {
        let astrid = Player::User(crate::service::User::new(7, "Astrid"));
        let won = Outcome::Won {
            winner: Side::Defenders,
            reason: crate::tafl::Reason::KingEscaped,
        };
        for (variant, name) in [
            (Variant::Tablut, None),
            (Variant::Brandubh, Some("Brandubh")),
            (Variant::Copenhagen, Some("Copenhagen")),
        ] {
            let mut game = game_of(variant, Outcome::Ongoing);
            game.attackers = astrid.clone();
            let turn = turn_line(&game);
            assert!(
                turn.starts_with("Your move, <@7> (attackers) · move 3"),
                "{turn}"
            );
            let started = started_message(&game);
            let listed = games_page(std::slice::from_ref(&game), 0).text;
            let over = game_of(variant, won);
            let result = result_line(&over);
            match name {
                None => {
                    assert!(turn.ends_with("move 3"), "{turn}");
                    assert!(
                        started.contains("(linnaeus rules, no time limit)"),
                        "{started}"
                    );
                    assert!(result.contains(" wins with the defenders: "), "{result}");
                    assert!(!listed.contains("Tablut"), "{listed}");
                }
                Some(name) => {
                    assert!(turn.ends_with(&format!("move 3 · {name}")), "{turn}");
                    let n = variant.size();
                    assert!(
                        started.contains(&format!("({}, {n}×{n}, no time limit)", variant.title())),
                        "{started}"
                    );
                    assert!(
                        result.contains(&format!(" wins the {name} game with the defenders: ")),
                        "{result}"
                    );
                    assert!(listed.contains(&format!(": {name}, ")), "{listed}");
                    assert!(aborted_by(&game, &astrid).contains(&format!("the {name} game")));
                }
            }
        }
        for variant in Variant::ALL {
            assert_ne!(rules_name(&variant.rules()), "custom", "{variant}");
        }
        assert_eq!(rules_name(&Variant::Brandubh.rules()), "aagenielsen");
        assert_eq!(
            preset_refused(Variant::Copenhagen, "walker"),
            "Copenhagen Hnefatafl has no rules preset walker: choose aagenielsen or hnefatafl_org (`/tablut rules variant:copenhagen` describes them)."
        );
    }
}
