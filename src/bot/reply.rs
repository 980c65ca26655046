//! The replies commands send: text held within Discord's limit, pinging only the users it
//! mentions itself; with the board attached; for the caller alone; and autocomplete's choices.

use super::messages;
use crate::service::ServiceError;
use poise::serenity_prelude as serenity;

/// A reply with `text`, held within Discord's limit on content, pinging only the users it
/// mentions itself ([`messages::pinged`]).
pub fn reply(text: impl Into<String>) -> poise::CreateReply {
    let text = messages::fit(text.into());
    poise::CreateReply::default()
        .allowed_mentions(messages::pinged(&text))
        .content(text)
}

/// A message with the board attached, mentioning (and pinging) only the users named in it.
pub fn board_reply(text: String, png: Vec<u8>) -> poise::CreateReply {
    let mut reply = reply(text);
    if !png.is_empty() {
        reply = reply.attachment(serenity::CreateAttachment::bytes(png, "board.png"));
    }
    reply
}

/// A one-line answer for the caller alone.
pub fn private(text: impl Into<String>) -> poise::CreateReply {
    reply(text)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
}

/// The moves an autocomplete offers (none if they cannot be read).
pub fn choices(moves: Result<Vec<String>, ServiceError>) -> serenity::CreateAutocompleteResponse {
    let choices = moves.unwrap_or_default().into_iter();
    serenity::CreateAutocompleteResponse::new()
        .set_choices(choices.map(serenity::AutocompleteChoice::from).collect())
}
