//! A notice's row decoded: read back into the notice to deliver, its payload's news taken out
//! (a notice is written by `Core::write_notice`, beside its `Payload`, in `notice.rs`).

use crate::service::notice::{Notice, Payload};
use crate::store::outbox::NoticeRow;

/// A stored notice (`claimed`: as claimed for an attempt, which its row counts already), or
/// why its payload cannot be read.
pub(crate) fn notice(row: NoticeRow, claimed: bool) -> Result<Notice, String> {
    let mut payload: Payload = serde_json::from_str(&row.payload)
        .map_err(|e| format!("the stored payload cannot be read: {e}"))?;
    let news = payload
        .news
        .take()
        .ok_or("the stored payload tells nothing")?;
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
