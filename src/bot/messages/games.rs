//! A game's posts: its start, moves, end, turn and result lines, board, history, replay,
//! export and import, hints, AI waits, draw offers and the list of games running.

use super::*;
use crate::service::{Ended, GameInfo, Hint, MoveReport, Player, RatingChanges};
use crate::tafl::{Call, Game, Outcome, Reason, RecordTags, Rules, Side, Variant};

/// How a game ended, in a few words: "the king was captured".
pub const fn reason_words(reason: Reason) -> &'static str {
    match reason {
        Reason::KingCaptured => "the king was captured",
        Reason::KingEscaped => "the king escaped",
        Reason::Repetition => "a position was repeated",
        Reason::NoMoves => "a side had no legal move",
        Reason::Resigned => "a player resigned",
        Reason::DrawAgreed => "the players agreed a draw",
        Reason::Timeout => "a player ran out of time",
        Reason::Aborted => "the game was aborted",
        Reason::ExitFort => "the king made an exit fort",
        Reason::Encircled => "the attackers encircled the king and all his defenders",
        Reason::PlyLimit => "the game reached the bot's limit on a game's length",
    }
}

/// A game's state in a line for a post, the names escaped: [`status_words`] with [`name`].
pub fn status_line(game: &GameInfo) -> String {
    status_words(game, name)
}

/// A game's state in a line, each player's name as `name` gives it: "Move 12 · Astrid
/// (attackers) to play", then the clocks when it has them (" · Astrid 2 d 4 h · Bjorn 3 d"),
/// or the result: "Defenders win: the king escaped (Bjorn)", "Draw: …".
pub fn status_words(game: &GameInfo, name: impl Fn(&Player) -> String) -> String {
    match game.outcome {
        Outcome::Ongoing => format!(
            "Move {} · {} ({}) to play{}",
            game.move_number(),
            name(game.player(game.turn)),
            game.turn,
            clocks_line(game, &name)
                .map(|line| format!(" · {line}"))
                .unwrap_or_default()
        ),
        Outcome::Won { winner, reason } => format!(
            "{} win: {} ({})",
            capital(winner.name()),
            reason_words(reason),
            name(game.player(winner))
        ),
        Outcome::Drawn { reason } => format!("Draw: {}", reason_words(reason)),
    }
}

/// The caption under a game's board: [`status_words`] with the names as they are.
pub fn board_caption(game: &GameInfo) -> String {
    status_words(game, plain_name)
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
            reason_words(reason)
        ),
        Outcome::Drawn { reason } => match variant {
            Variant::Tablut => format!("Draw: {}.", reason_words(reason)),
            _ => format!("Draw in{game_words}: {}.", reason_words(reason)),
        },
    }
}

/// The text over a game's board (`/tablut board`): the last move and whose turn it is, or the
/// result.
pub fn board_text(game: &GameInfo, last: Option<&crate::tafl::RecordedMove>) -> String {
    let text = board_text_alone(game, last);
    match clocks_line(game, name).filter(|_| !game.is_over()) {
        Some(clocks) => format!("{text}\nTime left: {clocks}"),
        None => text,
    }
}

pub(super) fn board_text_alone(
    game: &GameInfo,
    last: Option<&crate::tafl::RecordedMove>,
) -> String {
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
        tag("Attackers", &plain_name(&game.attackers)),
        tag("Defenders", &plain_name(&game.defenders)),
        tag("Rules", &game.rules),
        tag("Result", &game.outcome.status()),
    )
}

/// The tags of an exported record (`/tablut export`): the bot's game number, Discord, and
/// the players' names as they are.
pub fn record_tags(game: &GameInfo) -> RecordTags {
    RecordTags {
        event: Some(format!("tablut-bot game #{}", game.id)),
        site: Some("Discord".into()),
        date: None,
        attackers: Some(plain_name(&game.attackers)),
        defenders: Some(plain_name(&game.defenders)),
    }
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
            v => format!("{}: ", variant_title(v)),
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

/// The caption of a replay's frame `ply`: "Start", or the move's number and the move
/// ("18… f3-f4"), then the result on the last frame (" · attackers win: …").
pub fn replay_caption(game: &Game, ply: usize) -> String {
    let moves = game.moves();
    let mut text = if ply == 0 {
        "Start".to_string()
    } else {
        let m = &moves[ply - 1];
        let first_side = moves.first().map(|m| m.side).unwrap_or(Side::Attackers);
        // Moves are numbered in pairs, attackers first.
        let offset = usize::from(first_side == Side::Defenders);
        let number = (ply - 1 + offset) / 2 + 1;
        let dots = if m.side == Side::Attackers {
            "."
        } else {
            "…"
        };
        format!("{number}{dots} {m}")
    };
    if ply == moves.len() {
        let outcome = game.outcome();
        if let Some(reason) = outcome.reason() {
            let result = match outcome.winner() {
                Some(Side::Attackers) => "attackers win",
                Some(Side::Defenders) => "defenders win",
                None => "draw",
            };
            text = format!("{text} · {result}: {}", reason_words(reason));
        }
    }
    text
}

/// The words over a game's replay: its length and where it stands.
pub fn replay_text(game: &GameInfo) -> String {
    format!(
        "Replay{}: {}. {}",
        match game.variant() {
            v if v.is_tablut() => String::new(),
            v => format!(" of a game of {}", variant_title(v)),
        },
        counted(game.ply, "ply", "plies"),
        status_line(game)
    )
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
pub(super) const CASUAL_END: &str = "\nA casual game: ratings unchanged.";

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
pub(super) fn casual_words(game: &GameInfo) -> &'static str {
    if game.is_casual() {
        ", casual: no rating change, hints allowed"
    } else {
        ""
    }
}

/// "linnaeus rules" for Tablut, "Brandubh, 7×7" for the others (with "opentafl rules" when
/// not the variant's default preset).
pub(super) fn game_words(rules: &Rules) -> String {
    match rules.variant {
        Variant::Tablut => format!("{} rules", rules_name(rules)),
        v => format!(
            "{}, {n}×{n}{}",
            variant_title(v),
            other_preset(rules),
            n = v.size()
        ),
    }
}

/// ", opentafl rules" for a Brandubh or Copenhagen game not under its variant's default preset.
pub(super) fn other_preset(rules: &Rules) -> String {
    match rules.preset() {
        Some(p) if p != crate::tafl::Preset::default_of(rules.variant) => {
            format!(", {} rules", p.name())
        }
        _ => String::new(),
    }
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
