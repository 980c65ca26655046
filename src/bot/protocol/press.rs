//! The protocol (see [`super`]) for a button press: its response, either at once (a page of a
//! list, the pressed message updated) or, for a change, acknowledged first (a deferred update,
//! or a deferred message for the presser alone) and the pressed message edited into the
//! change's news after; and its refusals, for the presser alone.

use crate::bot::{messages, redact, Data, Error};
use crate::service::{Answer, AnswerRef, Answered, ServiceError};
use poise::serenity_prelude as serenity;

/// The response to one press: at once with the updated message (a page of a list), or, for a
/// change, acknowledged first (a deferred update, so Discord's three seconds cannot run out)
/// and the message edited after into the change's news.
pub struct Press<'a> {
    pub http: &'a serenity::Http,
    pub cache: &'a serenity::Cache,
    pub press: &'a serenity::ComponentInteraction,
    acknowledged: bool,
    /// Acknowledged with a new message for the presser alone (deferred), which shows the news,
    /// instead of the pressed message.
    pub private: bool,
}

impl<'a> Press<'a> {
    /// The response to `press`, not yet made.
    pub fn new(
        http: &'a serenity::Http,
        cache: &'a serenity::Cache,
        press: &'a serenity::ComponentInteraction,
    ) -> Press<'a> {
        Press {
            http,
            cache,
            press,
            acknowledged: false,
            private: false,
        }
    }

    /// A deferred update: the press is answered, the message stays as it is for now (or, when
    /// `private`, a deferred message for the presser alone).
    pub async fn acknowledge(&mut self) -> Result<(), Error> {
        let alone = serenity::CreateInteractionResponseMessage::new().ephemeral(true);
        let response = match self.private {
            true => serenity::CreateInteractionResponse::Defer(alone),
            false => serenity::CreateInteractionResponse::Acknowledge,
        };
        self.press.create_response(self.http, response).await?;
        self.acknowledged = true;
        Ok(())
    }

    /// The pressed message replaced by `text` with `buttons` (a page of a list), as the answer.
    pub async fn update_with(
        &self,
        text: String,
        buttons: Vec<serenity::CreateActionRow>,
    ) -> Result<(), Error> {
        let message = serenity::CreateInteractionResponseMessage::new()
            .content(text)
            .components(buttons)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        let update = serenity::CreateInteractionResponse::UpdateMessage(message);
        self.press.create_response(self.http, update).await?;
        Ok(())
    }

    /// One line for the presser alone: the answer; or, once acknowledged, a follow-up. After
    /// a deferred update (as after any public acknowledgement), Discord gives the first
    /// follow-up the acknowledgement's visibility whatever it asks for: a neutral one is sent
    /// and deleted at once, and the line follows it, private (not sent if that first one fails:
    /// it would show to everyone).
    pub async fn refuse(&self, text: String) -> Result<(), serenity::Error> {
        let text = messages::fit(text);
        let none = serenity::CreateAllowedMentions::new;
        if self.acknowledged {
            if !self.private {
                let first = serenity::CreateInteractionResponseFollowup::new()
                    .content(messages::NOTHING_CHANGED)
                    .allowed_mentions(none());
                let first = self.press.create_followup(self.http, first).await?;
                if let Err(e) = self.press.delete_followup(self.http, first.id).await {
                    tracing::warn!(error = %redact::error(&e), "cannot delete the first follow-up before a refusal");
                }
            }
            let followup = serenity::CreateInteractionResponseFollowup::new()
                .content(text)
                .ephemeral(true)
                .allowed_mentions(none());
            self.press.create_followup(self.http, followup).await?;
        } else {
            let reply = serenity::CreateInteractionResponse::Message(
                serenity::CreateInteractionResponseMessage::new()
                    .content(text)
                    .ephemeral(true)
                    .allowed_mentions(none()),
            );
            self.press.create_response(self.http, reply).await?;
        }
        Ok(())
    }

    /// Where the press's change is shown, as the notice of its change remembers it: the
    /// pressed message, the interaction's original response (edited into the news; edited by
    /// the dispatcher past the token's life).
    pub fn answer(&self) -> Answer {
        Answer::Pressed {
            answer: handle(self.press),
            message: self.press.message.id.get(),
        }
    }

    /// Makes the change the press asks for (checked by the caller, reading only, before),
    /// acknowledged first (a deferred update, so Discord's three seconds cannot run out), and
    /// shows its news (the notice `change` returns as its commit wrote it, with `png` of what
    /// it did as its board) by editing the pressed message; if that edit fails, the dispatcher
    /// sends it again. If the acknowledgement fails, the change
    /// goes on all the same (Discord may have taken it): the edit shows its news, or the
    /// dispatcher does in the channel. A refusal the commit finds (another answer landed first)
    /// is the presser's alone (see [`Press::refuse`]). A failure after the commit is only
    /// logged: the dispatcher shows the news. `held` is let go once the change is committed,
    /// before its news is shown.
    pub async fn change<T, H>(
        &mut self,
        data: &Data,
        (change, held): (
            impl std::future::Future<Output = Result<Answered<T>, ServiceError>>,
            H,
        ),
        png: impl FnOnce(T) -> Vec<u8>,
    ) -> Result<(), Error> {
        if !self.acknowledged {
            if let Err(e) = self.acknowledge().await {
                let custom_id = &self.press.data.custom_id;
                tracing::warn!(%custom_id, error = %redact::error(&e), "could not acknowledge a press: its change goes on");
            }
        }
        let changed = change.await;
        // The change is made: what was held for it may go.
        drop(held);
        let committed = super::committed(changed, &self.press.data.custom_id)?;
        if let Some(Answered {
            done,
            notice: Some(notice),
        }) = committed
        {
            super::show(data, &notice, png(done)).await;
        }
        Ok(())
    }
}

/// The handle on `press`'s response (the pressed message, or the message a private
/// acknowledgement made).
pub fn handle(press: &serenity::ComponentInteraction) -> AnswerRef {
    crate::bot::delivery::answer_ref(press.application_id.get(), &press.token)
}
