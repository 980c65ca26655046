//! The bot's settings, from the environment (and a `.env` file, loaded by the command line).

use crate::service::{self, TimeControl};
use std::fmt;
use std::time::Duration;

/// Everything the bot is configured with.
#[derive(Clone)]
pub struct BotConfig {
    /// The bot's token. Never logged: `Debug` leaves it out.
    pub token: String,
    /// The SQLite database (`DATABASE_URL`).
    pub database_url: String,
    /// Register the commands in this server only, where they appear at once (`DEV_GUILD_ID`).
    pub dev_guild: Option<u64>,
    /// A base URL every Discord REST call goes through (`DISCORD_PROXY`).
    pub proxy: Option<String>,
    /// AI and hint times, challenge lifetime.
    pub service: service::Config,
    /// The time control of a challenge that names none (`DEFAULT_TIME_CONTROL`).
    pub default_time_control: TimeControl,
    /// How often the clock looks for reminders, time-outs and expired challenges
    /// (`CLOCK_INTERVAL_SECS`).
    pub clock_interval: Duration,
}

impl fmt::Debug for BotConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotConfig")
            .field("token", &"<hidden>")
            .field("database_url", &self.database_url)
            .field("dev_guild", &self.dev_guild)
            .field("proxy", &self.proxy)
            .field("service", &self.service)
            .field(
                "default_time_control",
                &self.default_time_control.to_string(),
            )
            .field("clock_interval", &self.clock_interval)
            .finish()
    }
}

/// A setting that is missing or wrong.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("DISCORD_TOKEN is not set: put the bot's token in .env (see .env.example) or in the environment")]
    MissingToken,
    #[error("DISCORD_TOKEN does not look like a bot token (three parts separated by dots): copy it again from the Bot page of the Discord developer portal")]
    MalformedToken,
    #[error("{name}='{value}' is not valid: {hint}")]
    Invalid {
        name: &'static str,
        value: String,
        hint: &'static str,
    },
}

impl BotConfig {
    /// Reads the settings from the process environment.
    pub fn from_env() -> Result<BotConfig, ConfigError> {
        BotConfig::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the settings through `get` (a test passes its own variables).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<BotConfig, ConfigError> {
        let var = |name: &str| {
            get(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let token = var("DISCORD_TOKEN").ok_or(ConfigError::MissingToken)?;
        if serenity::utils::token::validate(&token).is_err() || token.contains(char::is_whitespace)
        {
            return Err(ConfigError::MalformedToken);
        }
        let number = |name: &'static str, hint: &'static str| -> Result<Option<u64>, ConfigError> {
            var(name)
                .map(|v| {
                    v.parse::<u64>().map_err(|_| ConfigError::Invalid {
                        name,
                        value: v.clone(),
                        hint,
                    })
                })
                .transpose()
        };
        let ms = |name: &'static str, default: Duration| -> Result<Duration, ConfigError> {
            Ok(
                number(name, "write a whole number of milliseconds, like 2000")?
                    .map(Duration::from_millis)
                    .unwrap_or(default),
            )
        };
        let defaults = service::Config::default();
        let hard = ms("AI_HARD_TIME_MS", defaults.ai_time[2])?;
        let service = service::Config {
            ai_time: [
                ms("AI_EASY_TIME_MS", defaults.ai_time[0])?,
                ms("AI_MEDIUM_TIME_MS", defaults.ai_time[1])?,
                hard,
            ],
            hint_time: ms("AI_HINT_TIME_MS", defaults.hint_time)?,
            hint_cooldown: Duration::from_secs(
                number(
                    "HINT_COOLDOWN_SECS",
                    "write a whole number of seconds, like 30",
                )?
                .unwrap_or(defaults.hint_cooldown.as_secs()),
            ),
            challenge_ttl: Duration::from_secs(
                number(
                    "CHALLENGE_TTL_SECS",
                    "write a whole number of seconds, like 86400",
                )?
                .unwrap_or(defaults.challenge_ttl.as_secs()),
            ),
            images: true,
        };
        let default_time_control = match var("DEFAULT_TIME_CONTROL") {
            Some(v) => v.parse().map_err(|_| ConfigError::Invalid {
                name: "DEFAULT_TIME_CONTROL",
                value: v.clone(),
                hint: "write none, or a time per move like 12h or 3d",
            })?,
            None => TimeControl::DEFAULT,
        };
        let proxy = var("DISCORD_PROXY");
        if let Some(p) = &proxy {
            if !(p.starts_with("http://") || p.starts_with("https://")) {
                return Err(ConfigError::Invalid {
                    name: "DISCORD_PROXY",
                    value: p.clone(),
                    hint: "write a base URL like http://127.0.0.1:3000",
                });
            }
        }
        Ok(BotConfig {
            token,
            database_url: var("DATABASE_URL")
                .unwrap_or_else(|| crate::store::DEFAULT_DATABASE_URL.to_string()),
            dev_guild: number("DEV_GUILD_ID", "write the server's numeric id")?,
            proxy: proxy.map(|p| p.trim_end_matches('/').to_string()),
            service,
            default_time_control,
            clock_interval: Duration::from_secs(
                number(
                    "CLOCK_INTERVAL_SECS",
                    "write a whole number of seconds, like 60",
                )?
                .unwrap_or(60)
                .max(1),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const TOKEN: &str = "Mjg4NzYwMjQxMzYzODc3ODg4.C_ikow.j3VupLBuE1QWZng3TMGH0z_UAwg";

    fn read(vars: &[(&str, &str)]) -> Result<BotConfig, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        BotConfig::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_and_overrides() {
        let c = read(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert_eq!(c.database_url, "sqlite://tablut.db");
        assert_eq!(c.default_time_control, TimeControl::DEFAULT);
        assert_eq!(c.service.ai_time[2], Duration::from_secs(2));
        let c = read(&[
            ("DISCORD_TOKEN", TOKEN),
            ("DEV_GUILD_ID", "123"),
            ("AI_HARD_TIME_MS", "1500"),
            ("DEFAULT_TIME_CONTROL", "12h"),
            ("DISCORD_PROXY", "http://127.0.0.1:9/"),
        ])
        .unwrap();
        assert_eq!(c.dev_guild, Some(123));
        assert_eq!(c.service.ai_time[2], Duration::from_millis(1500));
        assert_eq!(c.default_time_control.to_string(), "12h");
        assert_eq!(c.proxy.as_deref(), Some("http://127.0.0.1:9"));
        assert!(
            !format!("{c:?}").contains(TOKEN),
            "the token is never printed"
        );
    }

    #[test]
    fn bad_settings_are_refused_with_the_reason() {
        assert!(matches!(read(&[]), Err(ConfigError::MissingToken)));
        assert!(matches!(
            read(&[("DISCORD_TOKEN", "  ")]),
            Err(ConfigError::MissingToken)
        ));
        assert!(matches!(
            read(&[("DISCORD_TOKEN", "not-a-token")]),
            Err(ConfigError::MalformedToken)
        ));
        let e = read(&[("DISCORD_TOKEN", TOKEN), ("DEV_GUILD_ID", "abc")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "DEV_GUILD_ID='abc' is not valid: write the server's numeric id"
        );
        assert!(read(&[("DISCORD_TOKEN", TOKEN), ("DEFAULT_TIME_CONTROL", "soon")]).is_err());
        assert!(read(&[("DISCORD_TOKEN", TOKEN), ("DISCORD_PROXY", "localhost")]).is_err());
    }
}
