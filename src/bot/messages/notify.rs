//! Turn notifications: `/tablut notify`'s answers, and the direct messages and notices of
//! notifications.

use super::*;
use crate::service::notify::{
    Digest, DmsRefused, NotifyChanged, NotifyMode, NotifySetting, TurnDm,
};
use crate::service::{GameInfo, TimeControl};
use std::time::Duration;

/// What a mode does, for a sentence: "a direct message when it is your move".
fn mode_words(mode: NotifyMode) -> &'static str {
    match mode {
        NotifyMode::Move => "a direct message when it is your move",
        NotifyMode::Digest => "one direct message a day listing the games waiting on you",
        NotifyMode::Off => "no direct messages",
    }
}

/// `/tablut notify`'s answer without a choice: the member's setting.
pub fn notify_setting(s: &NotifySetting) -> String {
    let how = match (s.chosen, s.refused_at) {
        (_, Some(at)) => format!(
            " (turned off on {}: Discord refused me a direct message to you)",
            date_time(at)
        ),
        (false, None) => " (the default)".to_string(),
        (true, None) => String::new(),
    };
    format!(
        "Turn notifications, in every server: {}{how}. Change it with /tablut notify mode:move, \
         digest or off.",
        mode_words(s.mode)
    )
}

/// `/tablut notify mode:…`'s answer.
pub fn notify_changed(c: &NotifyChanged) -> String {
    let tail = match c.now {
        NotifyMode::Off => "",
        _ => {
            " Direct messages reach you only if your privacy settings allow direct messages \
             from a server's members."
        }
    };
    match c.before.mode == c.now && c.before.chosen && c.before.refused_at.is_none() {
        true => format!(
            "Your turn notifications stay as they were: {}.{tail}",
            mode_words(c.now)
        ),
        false => format!(
            "Turn notifications, in every server: {}, from your next turn on.{tail}",
            mode_words(c.now)
        ),
    }
}

/// The link to a game's message (`message`), or to its channel until the message is known.
pub fn game_link(game: &GameInfo, message: Option<u64>) -> String {
    let guild = match game.place.guild {
        Some(guild) => guild.to_string(),
        None => "@me".to_string(),
    };
    match message {
        Some(message) => format!(
            "https://discord.com/channels/{guild}/{}/{message}",
            game.place.channel
        ),
        None => format!(
            "https://discord.com/channels/{guild}/{}",
            game.place.channel
        ),
    }
}

/// The opponent of `user` in `game`, by name.
fn opponent_of(game: &GameInfo, user: u64) -> String {
    match game.side_of(user) {
        Some(side) => bold(game.player(side.other())),
        None => "your opponent".to_string(),
    }
}

/// The time a player has, for a sentence: "You have 2 d 4 h for it" (none without a clock).
fn time_left_words(game: &GameInfo, ms: Option<i64>) -> String {
    let Some(ms) = ms else {
        return "There is no time limit.".to_string();
    };
    let left = span_words(Duration::from_millis(ms.max(0) as u64), Span::Left);
    match game.time_control {
        TimeControl::Fischer { .. } => format!("Your clock: {left} left."),
        _ => format!("You have {left} for it."),
    }
}

/// A turn's direct message: whose move it was, the opponent's move, the time left and the
/// link to the game's message (`message`, when it is known; else its channel).
pub fn turn_dm(dm: &TurnDm, message: Option<u64>) -> String {
    let game = &dm.game;
    let side = match game.side_of(dm.user) {
        Some(side) => format!(": you play the {side}"),
        None => String::new(),
    };
    let what = match &dm.last_move {
        Some(last) => format!("{} played **{}**. ", bold(&last.by), escape(&last.notation)),
        None => "The game has started. ".to_string(),
    };
    fit(format!(
        "It is your move in game #{}{}{side} against {}, move {}. {what}{} {}",
        game.id,
        variant_note(game.variant()),
        opponent_of(game, dm.user),
        game.move_number(),
        time_left_words(game, dm.time_left_ms),
        game_link(game, message)
    ))
}

/// The daily digest of the games waiting on a member.
pub fn digest_text(d: &Digest) -> String {
    let head = format!(
        "Your daily digest: {} waiting on you.",
        counted(d.games.len(), "game", "games")
    );
    let lines: Vec<String> = d
        .games
        .iter()
        .map(|w| {
            let left = match w.time_left_ms {
                Some(ms) => format!(
                    ", {} left",
                    span_words(Duration::from_millis(ms.max(0) as u64), Span::Left)
                ),
                None => String::new(),
            };
            format!(
                "• game #{}{} against {}, move {}{left}: {}",
                w.game.id,
                variant_note(w.game.variant()),
                opponent_of(&w.game, d.user),
                w.game.move_number(),
                game_link(&w.game, w.game.board_message_id)
            )
        })
        .collect();
    listing(head, &lines)
}

/// Told in a game's channel: a member takes no direct messages, so their notifications are
/// off.
pub fn dms_refused_text(r: &DmsRefused) -> String {
    format!(
        "{}, Discord does not let me send you direct messages, so your turn notifications are \
         off. To have them again, allow direct messages from this server's members (the \
         server's privacy settings), then use /tablut notify.",
        user(r.user.id)
    )
}
