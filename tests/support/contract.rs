//! Discord's published contract, checked on every request the bot sends to the fake: the route
//! and method must exist in Discord's OpenAPI description of its HTTP API (v10), and the JSON
//! body, or the `payload_json` part of a multipart body, must satisfy the request body schema
//! the document gives for them.
//!
//! The document is the repository's copy, `tests/data/discord/openapi.json` (where it comes from:
//! the README beside it; `DISCORD_OPENAPI` names another file). It is read once per test binary, and each
//! route's validator is compiled once and shared by every test: those of the requests the bot
//! sends ahead, by [`warm_up`] when the first fake starts, any other on first use.
//!
//! Leniency, as Discord itself allows: a snowflake may be sent as a non-negative JSON integer
//! (serenity sends attachment ids so); `SnowflakeType` accepts that and nothing else.
//!
//! Beyond the schema: message `content` longer than 2 000 characters is refused, as Discord
//! does (the schema allows 4 000 for some routes; bot messages are held to 2 000).

use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};

/// Discord's documented limit on a message's content, in characters.
pub(crate) const CONTENT_LIMIT: usize = 2000;

/// How a request's body came.
pub(crate) enum Body<'a> {
    /// No body at all.
    Empty,
    /// A JSON body (`None` if it did not parse).
    Json(Option<&'a Value>),
    /// A multipart form: its `payload_json` (if any; `None` inside if it did not parse) and the
    /// names of its other parts.
    Multipart {
        payload: Option<Option<&'a Value>>,
        parts: Vec<String>,
    },
}

/// Why a request breaks the contract, and the status Discord would answer it with.
#[derive(Debug, Clone)]
pub(crate) struct Violation {
    pub status: u16,
    pub reason: String,
}

fn document_path() -> PathBuf {
    match std::env::var_os("DISCORD_OPENAPI") {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/discord/openapi.json"),
    }
}

/// The document's paths, split into segments (`None` for a `{parameter}`), and its components
/// with the snowflake leniency.
struct Contract {
    paths: Vec<(String, Vec<Option<String>>)>,
    operations: Value,
    components: Value,
}

static CONTRACT: LazyLock<Contract> = LazyLock::new(|| {
    let path = document_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut doc: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let snowflake = &mut doc["components"]["schemas"]["SnowflakeType"];
    assert!(
        snowflake.is_object(),
        "the document has no SnowflakeType schema"
    );
    *snowflake = json!({"anyOf": [
        snowflake.clone(),
        {"type": "integer", "minimum": 0},
    ]});
    let operations = doc["paths"].take();
    let paths = operations
        .as_object()
        .expect("the document has paths")
        .keys()
        .map(|template| {
            let segments = template
                .trim_start_matches('/')
                .split('/')
                .map(|s| (!(s.starts_with('{') && s.ends_with('}'))).then(|| s.to_string()))
                .collect();
            (template.clone(), segments)
        })
        .collect();
    Contract {
        paths,
        operations,
        components: doc["components"].take(),
    }
});

/// Compiled validators by (route, method, media type), shared by every test in the binary.
static VALIDATORS: LazyLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> =
    LazyLock::new(Default::default);

/// The route template a concrete path (after `/api/v10`) falls under: of the templates that
/// match segment by segment, the one with the most literal segments (`/messages/@original`
/// before `/messages/{message_id}`).
fn route(path: &str) -> Option<&'static str> {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    CONTRACT
        .paths
        .iter()
        .filter(|(_, template)| {
            template.len() == segments.len()
                && template
                    .iter()
                    .zip(&segments)
                    .all(|(t, s)| t.as_deref().is_none_or(|t| t == *s) && !s.is_empty())
        })
        .max_by_key(|(_, template)| template.iter().filter(|t| t.is_some()).count())
        .map(|(name, _)| name.as_str())
}

fn validator(route: &str, method: &str, media: &str, schema: &Value) -> Arc<jsonschema::Validator> {
    let key = format!("{method} {route} {media}");
    let mut cache = VALIDATORS.lock().unwrap();
    if let Some(v) = cache.get(&key) {
        return v.clone();
    }
    // The operation's schema as the root, with the document's components beside it so that
    // its `#/components/schemas/...` references resolve as they do in the document.
    let mut root = json!({"allOf": [schema]});
    root["components"] = CONTRACT.components.clone();
    let compiled = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&root)
        .unwrap_or_else(|e| panic!("the schema of {key} does not compile: {e}"));
    let compiled = Arc::new(compiled);
    cache.insert(key, compiled.clone());
    compiled
}

/// The bodies the bot sends (method, route, media type): their validators are compiled by
/// [`warm_up`].
const SENT: [(&str, &str, &str); 13] = [
    (
        "put",
        "/applications/{application_id}/guilds/{guild_id}/commands",
        "application/json",
    ),
    (
        "put",
        "/applications/{application_id}/commands",
        "application/json",
    ),
    (
        "post",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "application/json",
    ),
    (
        "post",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "multipart/form-data",
    ),
    (
        "post",
        "/channels/{channel_id}/messages",
        "application/json",
    ),
    (
        "post",
        "/channels/{channel_id}/messages",
        "multipart/form-data",
    ),
    (
        "patch",
        "/channels/{channel_id}/messages/{message_id}",
        "application/json",
    ),
    (
        "patch",
        "/channels/{channel_id}/messages/{message_id}",
        "multipart/form-data",
    ),
    ("post", "/channels/{channel_id}/threads", "application/json"),
    ("post", "/users/@me/channels", "application/json"),
    (
        "patch",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "application/json",
    ),
    (
        "post",
        "/webhooks/{webhook_id}/{webhook_token}",
        "application/json",
    ),
    (
        "post",
        "/webhooks/{webhook_id}/{webhook_token}",
        "multipart/form-data",
    ),
];

/// Reads the document and compiles the validators of the requests the bot sends, once per
/// test binary (later calls return at once, or wait for the first to finish). A debug build
/// takes about 0.2 s to read the document and 0.05 to 0.25 s for each validator on a quiet
/// machine, several times that on a busy one: done on a request's first arrival, that work
/// delayed the fake's answer past the short HTTP time-out some tests give the bot.
pub(crate) fn warm_up() {
    static WARM: LazyLock<()> = LazyLock::new(|| {
        for (method, route, media) in SENT {
            let schema =
                &CONTRACT.operations[route][method]["requestBody"]["content"][media]["schema"];
            assert!(
                schema.is_object(),
                "the document has no {media} body for {method} {route}"
            );
            validator(route, method, media, schema);
        }
    });
    LazyLock::force(&WARM);
}

/// One error, with the nearest failing branch of an `anyOf`/`oneOf` spelled out.
fn describe(error: &jsonschema::ValidationError<'_>) -> String {
    use jsonschema::error::ValidationErrorKind as K;
    let branches = match &error.kind {
        K::AnyOf { context } | K::OneOfNotValid { context } => Some(context),
        _ => None,
    };
    let nearest = branches.and_then(|b| b.iter().filter(|e| !e.is_empty()).min_by_key(|e| e.len()));
    match nearest {
        Some(errors) => {
            let inner: Vec<String> = errors.iter().map(describe).collect();
            format!(
                "at '{}': no variant fits; the nearest fails with: {}",
                error.instance_path,
                inner.join("; ")
            )
        }
        None => {
            let text: String = error.to_string().chars().take(300).collect();
            format!("at '{}': {text}", error.instance_path)
        }
    }
}

/// Message contents anywhere Discord takes them: `content` and an interaction callback's
/// `data.content`.
fn long_content(body: &Value) -> Option<String> {
    [&body["content"], &body["data"]["content"]]
        .into_iter()
        .filter_map(Value::as_str)
        .map(|c| c.chars().count())
        .find(|&n| n > CONTENT_LIMIT)
        .map(|n| format!("content is {n} characters, over Discord's limit of {CONTENT_LIMIT}"))
}

/// Checks one request: `path` is the URL path (with `/api/v10`).
pub(crate) fn check(method: &str, path: &str, body: &Body<'_>) -> Result<(), Violation> {
    let not_found = |reason: String| Violation {
        status: 404,
        reason,
    };
    let bad = |reason: String| Violation {
        status: 400,
        reason,
    };
    let Some(rest) = path.strip_prefix("/api/v10/") else {
        return Err(not_found("not under /api/v10".into()));
    };
    let Some(route) = route(rest) else {
        return Err(not_found("no such route in Discord's API".into()));
    };
    let method = method.to_ascii_lowercase();
    let Some(operation) = CONTRACT.operations[route].get(&method) else {
        return Err(Violation {
            status: 405,
            reason: format!("the route {route} has no method {method}"),
        });
    };
    let request_body = operation.get("requestBody");
    let (media, instance) = match body {
        Body::Empty => {
            return match request_body {
                Some(r) if r["required"] == json!(true) => {
                    Err(bad(format!("{route} requires a body")))
                }
                _ => Ok(()),
            }
        }
        Body::Json(None) => return Err(bad("the body is not JSON".into())),
        Body::Json(Some(v)) => ("application/json", (*v).clone()),
        Body::Multipart { payload, parts } => {
            if let Some(part) = parts.iter().find(|p| !is_file_part(p)) {
                return Err(bad(format!("unexpected multipart field '{part}'")));
            }
            match payload {
                Some(None) => return Err(bad("payload_json is not JSON".into())),
                Some(Some(v)) => ("multipart/form-data", (*v).clone()),
                None => ("multipart/form-data", json!({})),
            }
        }
    };
    let Some(schema) = request_body
        .and_then(|r| r["content"].get(media))
        .map(|c| &c["schema"])
    else {
        return Err(bad(format!("{method} {route} takes no {media} body")));
    };
    let compiled = validator(route, &method, media, schema);
    let errors: Vec<String> = compiled
        .iter_errors(&instance)
        .map(|e| describe(&e))
        .collect();
    if !errors.is_empty() {
        return Err(bad(format!("{method} {route}: {}", errors.join(" | "))));
    }
    if let Some(reason) = long_content(&instance) {
        return Err(bad(format!("{method} {route}: {reason}")));
    }
    Ok(())
}

/// `files[N]` with N below Discord's ten attachments.
fn is_file_part(name: &str) -> bool {
    name.strip_prefix("files[")
        .and_then(|n| n.strip_suffix(']'))
        .and_then(|n| n.parse::<u8>().ok())
        .is_some_and(|n| n < 10)
}
