//! How the bot answers an interaction that changes something, the same for a command
//! ([`command`]) and a button press ([`press`]):
//!
//! 1. **check**: the service reads whether the change would be refused; a refusal is the
//!    interaction's first response, private, before anything is acknowledged or written;
//! 2. **acknowledge**: a deferred response, so that Discord's three seconds cannot run out
//!    (a failed acknowledgement is logged: the change goes on);
//! 3. **commit**: the service writes the change with its news in the outbox, held for this
//!    interaction; a refusal the commit finds (another change landed first) is the caller's
//!    alone; a failure after the commit ([`committed`]) is only logged, as the news is in the
//!    outbox;
//! 4. **show**: the handler words the notice its commit wrote, as the service returned it
//!    ([`Answered`](crate::service::Answered)), and edits the deferred response into it
//!    ([`show`]); if that fails, the dispatcher sends the same edit.
//!
//! The words are `messages`'s, the requests `delivery`'s.

pub mod command;
pub mod press;

use super::Data;
use crate::service::{Notice, ServiceError};

/// A change's result as the handler of `interaction` (a command's name, a button's custom id)
/// takes it: done; or, when the change was committed but a step after it failed (drawing the
/// board), `None`, logged: its news is in the outbox, and the dispatcher shows it; or the
/// refusal, the caller's alone.
pub fn committed<T>(
    changed: Result<T, ServiceError>,
    interaction: &str,
) -> Result<Option<T>, ServiceError> {
    match changed {
        Ok(done) => Ok(Some(done)),
        Err(e @ ServiceError::Recorded { .. }) => {
            tracing::error!(interaction, error = %e, "a step after a change failed: the dispatcher shows its news");
            Ok(None)
        }
        Err(refusal) => Err(refusal),
    }
}

/// Shows the news of a change (`notice`, as its commit wrote it, with `png` as its board, if
/// drawn) by editing its interaction's deferred response; if that fails, the dispatcher sends
/// the same edit. False when the notice is not the response's to show (it is posted in the
/// channel).
pub async fn show(data: &Data, notice: &Notice, png: Vec<u8>) -> bool {
    super::delivery::show_notice(&data.service, &data.poster, notice, png).await
}
