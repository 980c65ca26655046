//! Shared support for the integration tests.
#![allow(dead_code)]

pub mod fake_discord;
