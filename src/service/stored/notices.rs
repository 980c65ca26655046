//! A notice's row decoded: read back into the notice to deliver, its payload's news taken out
//! (a notice is written by `Core::notice`, beside its `Payload`, in `notice.rs`), or as
//! the person it names reads it in the read-out of their data; the message a delivered notice
//! became.

use crate::service::notice::{Notice, Payload};
use crate::service::types::{ChannelId, NoticeId};
use crate::store::outbox::{self as rows, NoticeRow};
use crate::store::{AnyExecutor, StoreError};
use serde_json::{Map, Value};

/// A stored notice whose payload cannot be read: which, in which channel, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreadable {
    pub(crate) id: NoticeId,
    pub(crate) channel: ChannelId,
    pub(crate) why: String,
}

/// A stored notice (`claimed`: as claimed for an attempt, which its row counts already), or
/// why its payload cannot be read.
pub(crate) fn notice(row: NoticeRow, claimed: bool) -> Result<Notice, Unreadable> {
    let unreadable = |why: String| Unreadable {
        id: row.id,
        channel: row.channel_id,
        why,
    };
    let mut payload: Payload = serde_json::from_str(&row.payload)
        .map_err(|e| unreadable(format!("the stored payload cannot be read: {e}")))?;
    let news = payload
        .news
        .take()
        .ok_or("the stored payload tells nothing")
        .map_err(|why| unreadable(why.into()))?;
    Ok(Notice {
        id: row.id,
        channel: row.channel_id,
        kind: row.kind,
        nonce: row.nonce,
        attempts: row.attempts.saturating_sub(u32::from(claimed)),
        claim: claimed.then_some(row.attempts),
        created_at: row.created_at,
        failure: row.failure,
        news,
        payload,
    })
}

/// The message notice `id` became, once delivered.
pub(crate) async fn message_of<'e>(
    ex: impl AnyExecutor<'e>,
    id: NoticeId,
) -> Result<Option<u64>, StoreError> {
    Ok(rows::by_id(ex, id).await?.and_then(|n| n.message_id))
}

/// The outbox's row as the person reads it: its payload as JSON, without the interaction's
/// handle.
pub(crate) fn readable(mut row: Map<String, Value>) -> Map<String, Value> {
    if let Some(Value::String(text)) = row.get("payload") {
        if let Ok(Value::Object(mut payload)) = serde_json::from_str::<Value>(text) {
            payload.remove("answer");
            row.insert("payload".into(), Value::Object(payload));
        }
    }
    row
}
