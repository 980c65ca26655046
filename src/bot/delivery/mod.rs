//! Delivery of the outbox (see `service::outbox`): the bot's half. The service keeps the rows
//! and the domain's consequences; here are
//! - [`dispatcher`]: the task that claims the due notices and delivers them, each channel's in
//!   order, and the handlers' own edit of their interaction's response ([`show_notice`]);
//! - [`client`]: the requests to Discord that deliver a notice;
//! - `response`: Discord's response to one of them (its status, error code and rate limit);
//! - `buckets`: Discord's rate limits, as its responses' headers state them;
//! - [`policy`]: what Discord's response means for the notice, when it is tried again, when given
//!   up.

mod buckets;
mod client;
mod dispatcher;
pub mod policy;
mod response;

pub use client::{answer_ref, answer_webhook, Poster};
pub use dispatcher::{show_notice, start, Dispatcher};
pub use policy::{record, Consequence, Delivery, DeliveryPolicy};
