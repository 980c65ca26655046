//! Shared support for the integration tests.
#![allow(dead_code)]

pub mod bot_harness;
pub mod fake_discord;
