//! Challenges: the challenge, its thread's name, and its acceptance, refusal or withdrawal.

use super::*;
use crate::service::ChallengeInfo;
use crate::tafl::Variant;

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
                variant_title(v),
                other_preset(&c.rules),
                n = v.size()
            ),
        },
        time_words(c.time_control),
        if c.thread { ", in a thread" } else { "" },
        relative_time(c.expires_at)
    )
}
