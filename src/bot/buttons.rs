//! The buttons the bot puts on its messages, and their custom ids: [`Button`] alone writes and
//! reads them (`tablut:<action>:<number>`), and the rows of buttons each message carries are
//! made here. What a press does is `components`'s.

use super::messages;
use crate::service::{ChallengeId, GameId, Leaderboard};
use crate::tafl::Variant;
use poise::serenity_prelude as serenity;
use std::fmt;
use std::str::FromStr;

/// What a button does, as its custom id says: `tablut:<action>:<number>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    /// The challenged player accepts (`tablut:accept:<challenge>`).
    Accept(ChallengeId),
    /// The challenged player declines (`tablut:decline:<challenge>`).
    Decline(ChallengeId),
    /// The challenger withdraws (`tablut:cancel:<challenge>`).
    Cancel(ChallengeId),
    /// The opponent answers a draw offer (`tablut:draw-yes:<game>`, `tablut:draw-no:<game>`).
    Draw { game: GameId, accept: bool },
    /// A page of a variant's leaderboard: Tablut's `tablut:lb:<page>` (as before there were
    /// others), `tablut:lb-brandubh:<page>`, `tablut:lb-copenhagen:<page>`.
    Leaderboard { variant: Variant, page: u32 },
    /// A page of the games running in the server, in the channels the presser can see
    /// (`tablut:games:<page>`), on `/tablut games`'s answer for its caller alone.
    Games { page: u32 },
    /// Solve the daily puzzle of a day (`tablut:daily:<day>`, days since the Unix epoch): the
    /// presser's own try, shown to them alone.
    DailyPuzzle(i64),
    /// Forget me: the member who asked confirms, on `/tablut forget-me`'s private answer
    /// (`tablut:forget-me:<user>`).
    ForgetMe(u64),
    /// Join or leave a tournament signing up (`tablut:t-join:<tournament>`,
    /// `tablut:t-leave:<tournament>`), on its announcement.
    Tournament { id: i64, join: bool },
}

/// A custom id that is not one of [`Button`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ButtonError {
    /// Not this bot's (another prefix): ignored.
    #[error("not a tablut button")]
    Foreign,
    /// This bot's prefix, but no button it makes.
    #[error("a tablut button of no kind the bot makes")]
    Broken,
}

const PREFIX: &str = "tablut:";

impl fmt::Display for Button {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let leaderboard;
        let (action, number) = match *self {
            Button::Accept(c) => ("accept", c),
            Button::Decline(c) => ("decline", c),
            Button::Cancel(c) => ("cancel", c),
            Button::Draw { game, accept: true } => ("draw-yes", game),
            Button::Draw {
                game,
                accept: false,
            } => ("draw-no", game),
            Button::Leaderboard { variant, page } => {
                leaderboard = match variant {
                    Variant::Tablut => "lb".to_string(),
                    v => format!("lb-{}", v.name()),
                };
                (leaderboard.as_str(), i64::from(page))
            }
            Button::Games { page } => ("games", i64::from(page)),
            Button::DailyPuzzle(day) => ("daily", day),
            Button::Tournament { id, join: true } => ("t-join", id),
            Button::Tournament { id, join: false } => ("t-leave", id),
            Button::ForgetMe(user) => return write!(f, "{PREFIX}forget-me:{user}"),
        };
        write!(f, "{PREFIX}{action}:{number}")
    }
}

impl FromStr for Button {
    type Err = ButtonError;

    fn from_str(s: &str) -> Result<Button, ButtonError> {
        let rest = s.strip_prefix(PREFIX).ok_or(ButtonError::Foreign)?;
        let (action, number) = rest.split_once(':').ok_or(ButtonError::Broken)?;
        // Digits only, no sign, space or leading zero: each button has exactly one id.
        if number.is_empty()
            || !number.bytes().all(|b| b.is_ascii_digit())
            || (number.len() > 1 && number.starts_with('0'))
        {
            return Err(ButtonError::Broken);
        }
        let id = || number.parse::<i64>().map_err(|_| ButtonError::Broken);
        Ok(match action {
            "accept" => Button::Accept(id()?),
            "decline" => Button::Decline(id()?),
            "cancel" => Button::Cancel(id()?),
            "draw-yes" => Button::Draw {
                game: id()?,
                accept: true,
            },
            "draw-no" => Button::Draw {
                game: id()?,
                accept: false,
            },
            "lb" | "lb-brandubh" | "lb-copenhagen" | "lb-copenhagen13" => Button::Leaderboard {
                variant: match action {
                    "lb" => Variant::Tablut,
                    "lb-brandubh" => Variant::Brandubh,
                    "lb-copenhagen13" => Variant::Copenhagen13,
                    _ => Variant::Copenhagen,
                },
                page: number.parse().map_err(|_| ButtonError::Broken)?,
            },
            "games" => Button::Games {
                page: number.parse().map_err(|_| ButtonError::Broken)?,
            },
            "daily" => Button::DailyPuzzle(id()?),
            "t-join" => Button::Tournament {
                id: id()?,
                join: true,
            },
            "t-leave" => Button::Tournament {
                id: id()?,
                join: false,
            },
            "forget-me" => Button::ForgetMe(number.parse().map_err(|_| ButtonError::Broken)?),
            _ => return Err(ButtonError::Broken),
        })
    }
}

fn button(id: Button, label: &str, style: serenity::ButtonStyle) -> serenity::CreateButton {
    serenity::CreateButton::new(id.to_string())
        .label(label)
        .style(style)
}

/// Join / Leave, on a tournament's announcement while it signs up.
pub fn tournament_buttons(id: i64) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            Button::Tournament { id, join: true },
            messages::JOIN,
            serenity::ButtonStyle::Success,
        ),
        button(
            Button::Tournament { id, join: false },
            messages::LEAVE,
            serenity::ButtonStyle::Secondary,
        ),
    ])]
}

/// Accept / Decline (the challenged player) and Cancel (the challenger).
pub fn challenge_buttons(id: ChallengeId) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            Button::Accept(id),
            messages::ACCEPT,
            serenity::ButtonStyle::Success,
        ),
        button(
            Button::Decline(id),
            messages::DECLINE,
            serenity::ButtonStyle::Danger,
        ),
        button(
            Button::Cancel(id),
            messages::CANCEL,
            serenity::ButtonStyle::Secondary,
        ),
    ])]
}

/// Accept / Decline a draw offer.
pub fn draw_buttons(game: GameId) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            Button::Draw { game, accept: true },
            messages::ACCEPT_DRAW,
            serenity::ButtonStyle::Success,
        ),
        button(
            Button::Draw {
                game,
                accept: false,
            },
            messages::DECLINE,
            serenity::ButtonStyle::Danger,
        ),
    ])]
}

/// Solve today's puzzle (on the daily puzzle's post).
pub fn daily_puzzle_buttons(day: i64) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![button(
        Button::DailyPuzzle(day),
        messages::SOLVE_DAILY_PUZZLE,
        serenity::ButtonStyle::Primary,
    )])]
}

/// Forget me (on `/tablut forget-me`'s private answer to `user`): what cannot be undone is
/// asked for twice.
pub fn forget_me_buttons(user: u64) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![button(
        Button::ForgetMe(user),
        messages::FORGET_ME,
        serenity::ButtonStyle::Danger,
    )])]
}

/// Previous / Next page.
pub fn leaderboard_buttons(board: &Leaderboard) -> Vec<serenity::CreateActionRow> {
    if board.pages <= 1 {
        return Vec::new();
    }
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            Button::Leaderboard {
                variant: board.variant,
                page: board.page.saturating_sub(1),
            },
            messages::PREVIOUS_PAGE,
            serenity::ButtonStyle::Secondary,
        )
        .disabled(board.page == 0),
        button(
            Button::Leaderboard {
                variant: board.variant,
                page: board.page + 1,
            },
            messages::NEXT_PAGE,
            serenity::ButtonStyle::Secondary,
        )
        .disabled(board.page + 1 >= board.pages),
    ])]
}

/// Previous / Next page of the games running (none when they fit on one).
pub fn games_buttons(listed: &messages::GamesPage) -> Vec<serenity::CreateActionRow> {
    if listed.pages <= 1 {
        return Vec::new();
    }
    vec![serenity::CreateActionRow::Buttons(vec![
        button(
            Button::Games {
                page: listed.page.saturating_sub(1),
            },
            messages::PREVIOUS_PAGE,
            serenity::ButtonStyle::Secondary,
        )
        .disabled(listed.page == 0),
        button(
            Button::Games {
                page: listed.page + 1,
            },
            messages::NEXT_PAGE,
            serenity::ButtonStyle::Secondary,
        )
        .disabled(listed.page + 1 >= listed.pages),
    ])]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_button() -> impl Strategy<Value = Button> {
        prop_oneof![
            (0..i64::MAX).prop_map(Button::Accept),
            (0..i64::MAX).prop_map(Button::Decline),
            (0..i64::MAX).prop_map(Button::Cancel),
            (0..i64::MAX, any::<bool>()).prop_map(|(game, accept)| Button::Draw { game, accept }),
            (0..3usize, any::<u32>()).prop_map(|(v, page)| Button::Leaderboard {
                variant: Variant::ALL[v],
                page
            }),
            any::<u32>().prop_map(|page| Button::Games { page }),
            (0..i64::MAX).prop_map(Button::DailyPuzzle),
            any::<u64>().prop_map(Button::ForgetMe),
        ]
    }

    proptest! {
        #[test]
        fn every_button_reads_back_from_its_custom_id(button in any_button()) {
            let id = button.to_string();
            prop_assert!(id.len() <= 100, "Discord's limit on a custom id");
            prop_assert_eq!(id.parse::<Button>(), Ok(button));
        }

        #[test]
        fn any_text_after_the_prefix_is_a_button_or_broken(rest in any::<String>()) {
            // What a user's client may send: never a panic, never taken for another bot's.
            let text = format!("{PREFIX}{rest}");
            match text.parse::<Button>() {
                Ok(button) => prop_assert_eq!(button.to_string(), text),
                Err(e) => prop_assert_eq!(e, ButtonError::Broken),
            }
        }

        #[test]
        fn text_without_the_prefix_is_foreign(text in any::<String>()) {
            prop_assume!(!text.starts_with(PREFIX));
            prop_assert_eq!(text.parse::<Button>(), Err(ButtonError::Foreign));
        }

        #[test]
        fn any_text_reads_as_one_button_or_none(text in "(tablut:)?(accept|lb|lb-brandubh|draw-no|games|x)?:?[-+ 0-9a]{0,22}") {
            if let Ok(button) = text.parse::<Button>() {
                prop_assert_eq!(button.to_string(), text, "one custom id per button");
            }
        }
    }

    #[test]
    fn a_broken_button_is_answered_in_one_line() {
        let answer = messages::BROKEN_BUTTON;
        assert_eq!(
            answer,
            "That button is broken: use the slash commands instead."
        );
        assert!(!answer.contains('\n'));
    }

    #[test]
    fn custom_ids_as_discord_sends_them() {
        assert_eq!(Button::Accept(7).to_string(), "tablut:accept:7");
        assert_eq!(
            "tablut:draw-no:12".parse(),
            Ok(Button::Draw {
                game: 12,
                accept: false
            })
        );
        assert_eq!(
            "tablut:lb:3".parse(),
            Ok(Button::Leaderboard {
                variant: Variant::Tablut,
                page: 3
            })
        );
        assert_eq!(
            "tablut:lb-copenhagen:1".parse(),
            Ok(Button::Leaderboard {
                variant: Variant::Copenhagen,
                page: 1
            })
        );
        assert_eq!(
            "tablut:lb-copenhagen13:1".parse(),
            Ok(Button::Leaderboard {
                variant: Variant::Copenhagen13,
                page: 1
            })
        );
        assert_eq!(Button::Games { page: 2 }.to_string(), "tablut:games:2");
        assert_eq!("tablut:games:0".parse(), Ok(Button::Games { page: 0 }));
        assert_eq!(
            "other:accept:1".parse::<Button>(),
            Err(ButtonError::Foreign)
        );
        for broken in [
            "tablut:",
            "tablut:accept",
            "tablut:accept:",
            "tablut:accept:-1",
            "tablut:accept:007",
            "tablut:accept:+1",
            "tablut:accept:x",
            "tablut:lb:4294967296",
            "tablut:games:4294967296",
            "tablut:games:-1",
            "tablut:lb-tablut:1",
            "tablut:lb-:1",
            "tablut:resign:1",
            "tablut:accept:99999999999999999999",
            "tablut:accept:9223372036854775808",
            "tablut:accept:1:2",
            "tablut::1",
            "tablut:accept:١",
            "tablut:accept: 1",
            "tablut:ACCEPT:1",
        ] {
            assert_eq!(
                broken.parse::<Button>(),
                Err(ButtonError::Broken),
                "{broken}"
            );
        }
    }
}
