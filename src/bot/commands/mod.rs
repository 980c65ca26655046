//! The slash commands: `/tablut …` (one module per topic) and `/move`. Their words in
//! Discord's list (descriptions, options', choices' labels) are made in `messages` and set by
//! [`all`].

pub mod analysis;
pub mod look;
pub mod notify;
pub mod play;
pub mod privacy;
pub mod puzzle;
pub mod records;
pub mod start;
pub mod tournament;
pub mod vacation;

use super::protocol::command::invocation;
use super::{messages, Context, Data, Error};

/// Every command the bot registers, with its words.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = wordless();
    for command in &mut commands {
        word(command, None);
    }
    commands
}

/// Every command the bot registers, as poise makes them: without their words.
fn wordless() -> Vec<poise::Command<Data, Error>> {
    vec![tablut(), play::move_()]
}

/// Sets the words of `command` (a subcommand of `parent`'s, by its full name), its options'
/// and its subcommands' from `messages`: its description, each option's, each choice's label.
/// Every one has its words there (`every_command_has_its_words`): one without would be
/// registered with poise's placeholder for a description, or a choice under its bare name.
fn word(command: &mut poise::Command<Data, Error>, parent: Option<&str>) {
    let name = match parent {
        Some(parent) => format!("{parent} {}", command.name),
        None => command.name.to_string(),
    };
    command.description = messages::command_description(&name).map(Into::into);
    for option in &mut command.parameters {
        option.description = messages::option_description(&name, &option.name).map(Into::into);
        if option.choices.is_empty() {
            continue;
        }
        for choice in option.choices.to_mut() {
            if let Some(label) = messages::choice_label(&option.name, &choice.name) {
                choice.name = label.into();
            }
        }
    }
    for subcommand in &mut command.subcommands {
        word(subcommand, Some(&name));
    }
}

/// `/tablut`: the group of every command but `/move`.
#[poise::command(
    slash_command,
    subcommands(
        "start::challenge",
        "start::ai",
        "look::board",
        "play::resign",
        "play::draw",
        "play::hint",
        "look::history",
        "look::replay",
        "look::rules",
        "play::abort",
        "look::stats",
        "look::leaderboard",
        "look::games",
        "puzzle::puzzle",
        "analysis::analysis",
        "privacy::privacy",
        "privacy::forget_me",
        "records::export",
        "records::import",
        "tournament::tournament",
        "vacation::vacation",
        "notify::notify"
    ),
    subcommand_required
)]
pub(crate) async fn tablut(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The per-user rate, counted once per command: poise runs the check for each command of
/// `/tablut sub` (the group and the subcommand), and the invocation remembers it was counted.
/// Autocomplete is not a use: it is not counted.
pub async fn within_rate(ctx: Context<'_>) -> Result<bool, Error> {
    if let poise::Context::Application(a) = ctx {
        if a.interaction_type == poise::CommandInteractionType::Autocomplete {
            return Ok(true);
        }
    }
    if invocation(ctx, |i| std::mem::replace(&mut i.counted, true)).await {
        return Ok(true);
    }
    ctx.data().service.limits().command(ctx.author().id.get())?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Command = poise::Command<Data, Error>;

    /// Whether `words` are there, within Discord's 100 characters.
    fn fits(words: Option<&str>) -> bool {
        words.is_some_and(|w| (1..=100).contains(&w.chars().count()))
    }

    /// `command` (as poise makes it, a subcommand of `parent`'s) and its options and choices
    /// have their words in `messages`, and `registered` (the same, from [`all`]) has them.
    fn has_its_words(command: &Command, registered: &Command, parent: Option<&str>) {
        let name = match parent {
            Some(parent) => format!("{parent} {}", command.name),
            None => command.name.to_string(),
        };
        let said = messages::command_description(&name);
        assert!(fits(said), "/{name}: {said:?}");
        assert_eq!(registered.description.as_deref(), said, "/{name}");
        for (option, registered) in command.parameters.iter().zip(&registered.parameters) {
            let said = messages::option_description(&name, &option.name);
            assert!(fits(said), "/{name} {}: {said:?}", option.name);
            assert_eq!(registered.description.as_deref(), said);
            let choices = option.choices.iter().zip(registered.choices.iter());
            for (choice, registered) in choices {
                let said = messages::choice_label(&option.name, &choice.name);
                assert!(
                    fits(said),
                    "/{name} {}: {}: {said:?}",
                    option.name,
                    choice.name
                );
                assert_eq!(Some(&*registered.name), said);
            }
        }
        for (sub, registered) in command.subcommands.iter().zip(&registered.subcommands) {
            has_its_words(sub, registered, Some(&name));
        }
    }

    /// Every command, option and choice is registered with its words from `messages`.
    #[test]
    fn every_command_has_its_words() {
        let (made, registered) = (wordless(), all());
        assert_eq!(made.len(), registered.len());
        for (command, registered) in made.iter().zip(&registered) {
            has_its_words(command, registered, None);
        }
    }
}
