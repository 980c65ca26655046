//! Every reference in the README and the manual (`docs/*.md`) is true: each relative link leads
//! to a file of the repository (and, with an anchor, to a heading of that file), and each
//! repository path named in backticks (`src/bot/delivery.rs`, `migrations/sqlite/0006_outbox.sql`,
//! `src/render/`, `tests/crash.rs::a_test`) or in the prose itself (src/bot/delivery.rs) exists;
//! with `::name`, the file names `name`. Fenced code blocks are examples (commands, output), not
//! references, and are not checked.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What a repository path in backticks starts with: the repository's top-level folders and files.
const ROOTS: [&str; 13] = [
    "src/",
    "tests/",
    "benches/",
    "migrations/",
    "docs/",
    "assets/",
    "vendor/",
    ".ci/",
    "Cargo.toml",
    "Cargo.lock",
    ".env.example",
    "deploy/",
    "LICENSE",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file in docs/.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root().join("README.md"));
    docs
}

/// The lines outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push(line);
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, spaces as hyphens, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .into_iter()
        .filter(|l| l.starts_with('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of `[text](target)` and `![alt](target)` links.
fn links(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            let target = &rest[..end];
            if !target.is_empty() && !target.contains(char::is_whitespace) {
                out.push(target);
            }
        }
    }
    out
}

/// The contents of inline code spans: `like this`.
fn code_spans(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut parts = body.split('`');
    parts.next();
    while let Some(span) = parts.next() {
        out.push(span);
        parts.next();
    }
    out
}

/// The folders a repository path written in the prose, outside backticks, starts with.
const FOLDERS: [&str; 7] = [
    "src/",
    "tests/",
    "benches/",
    "migrations/",
    "docs/",
    "assets/",
    "vendor/",
];

/// The repository paths named in the prose itself: outside code spans and link targets, a word
/// that starts with one of [`FOLDERS`] (not inside a longer path or a URL), up to the first
/// character a path does not hold, without a sentence's last full stop. A glob or a
/// placeholder (`docs/*.md`, `crates/{a,b}`) names no one file and is left out.
fn bare_paths(body: &str) -> Vec<String> {
    let text = body.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let path_char = |c: char| c.is_alphanumeric() || "/._-".contains(c);
    let mut out = Vec::new();
    let mut from = 0;
    for (i, _) in text.char_indices() {
        if i < from || !FOLDERS.iter().any(|f| text[i..].starts_with(f)) {
            continue;
        }
        let len = text[i..]
            .find(|c: char| !path_char(c))
            .unwrap_or(text.len() - i);
        from = i + len;
        let before = text[..i].chars().next_back();
        let after = text[from..].chars().next();
        if before.is_some_and(|b| path_char(b) || b == ':')
            || text[..i].ends_with("](")
            || after.is_some_and(|a| "*{<…".contains(a))
        {
            continue;
        }
        out.push(
            text[i..from]
                .trim_end_matches(['.', ',', ':', ';'])
                .to_string(),
        );
    }
    out
}

/// Whether `name` occurs in `text` as a whole identifier.
fn names(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// Every broken reference in one document, described. Links resolve from the document's folder;
/// repository paths from the repository's top, wherever the document is.
fn broken(doc: &Path, repo: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(doc).expect("the document is readable");
    let dir = doc.parent().expect("a document is in a folder");
    let name = doc.strip_prefix(repo).unwrap_or(doc).display().to_string();
    let body = prose(&text).join("\n");
    let mut out = Vec::new();
    for target in links(&body) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, fragment) = match target.split_once('#') {
            Some((f, a)) => (f, Some(a)),
            None => (target, None),
        };
        let path = if file.is_empty() {
            doc.to_path_buf()
        } else {
            dir.join(file)
        };
        if !path.exists() {
            out.push(format!("{name}: link to {target}: no such file"));
        } else if let Some(fragment) = fragment {
            if path.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&path).unwrap());
                if !headings.contains(fragment) {
                    out.push(format!("{name}: link to {target}: no such heading"));
                }
            }
        }
    }
    for path in bare_paths(&body) {
        if !repo.join(&path).exists() {
            out.push(format!("{name}: {path}: no such path in the repository"));
        }
    }
    for span in code_spans(&body) {
        if span.contains(char::is_whitespace) || !ROOTS.iter().any(|r| span.starts_with(r)) {
            continue;
        }
        let (path, item) = match span.split_once("::") {
            Some((p, i)) => (p, Some(i)),
            None => (span, None),
        };
        let path = path.trim_end_matches([',', '.', ':', ';']);
        // A glob or a placeholder names no one file.
        if path.contains(['*', '{', '<', '…']) {
            continue;
        }
        let full = repo.join(path);
        if !full.exists() {
            out.push(format!("{name}: `{span}`: no such path in the repository"));
        } else if let Some(item) = item {
            let source = std::fs::read_to_string(&full).unwrap_or_default();
            if !names(&source, item) {
                out.push(format!("{name}: `{span}`: {path} has no `{item}`"));
            }
        }
    }
    out
}

#[test]
fn every_link_and_repository_path_in_the_readme_and_docs_exists() {
    let docs = documents();
    assert!(docs.len() >= 9, "README.md and docs/*.md: {docs:?}");
    let problems: Vec<String> = docs.iter().flat_map(|d| broken(d, &root())).collect();
    assert!(
        problems.is_empty(),
        "{} broken references in README.md and docs/:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_check_finds_a_missing_file_heading_path_and_test() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join("docs")).unwrap();
    std::fs::create_dir_all(repo.path().join("src")).unwrap();
    std::fs::create_dir_all(repo.path().join("tests")).unwrap();
    std::fs::write(repo.path().join("src/lib.rs"), "").unwrap();
    std::fs::write(repo.path().join("tests/crash.rs"), "fn a_test() {}\n").unwrap();
    let doc = repo.path().join("docs/doc.md");
    std::fs::write(
        &doc,
        "# A title\n\nSee [there](nowhere.md), [here](#no-such-heading), [fine](#a-title), \
         [up](../src/lib.rs) and `migrations/0008_analyses.sql`, but not `src/lib.rs`,\n\
         `tests/crash.rs::a_test` nor `https://example.com/src/x.rs`; `tests/crash.rs::gone`.\n\
         In prose src/lib.rs is fine, src/gone.rs is not, nor https://example.com/src/x.rs.\n\n\
         ```console\n$ cat `src/not/checked.rs` [x](not/checked.md)\n```\n",
    )
    .unwrap();
    let found = broken(&doc, repo.path());
    assert_eq!(found.len(), 5, "{found:#?}");
    assert!(found[0].contains("nowhere.md: no such file"), "{found:#?}");
    assert!(
        found[1].contains("#no-such-heading: no such heading"),
        "{found:#?}"
    );
    assert!(
        found[2].contains("docs/doc.md: src/gone.rs: no such path"),
        "{found:#?}"
    );
    assert!(
        found[3].contains("`migrations/0008_analyses.sql`"),
        "{found:#?}"
    );
    assert!(found[4].contains("has no `gone`"), "{found:#?}");
}

#[test]
fn the_readme_is_a_front_page_with_the_two_commands_and_the_pictures() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 220,
        "README.md has {lines} lines: the manual belongs in docs/"
    );
    for needed in [
        "cargo run --release",
        "cargo test",
        "(docs/board.png)",
        "(docs/graph.png)",
        "/tablut ai",
    ] {
        assert!(readme.contains(needed), "README.md does not show {needed}");
    }
    for doc in documents().iter().skip(1) {
        let file = doc.file_name().unwrap().to_string_lossy();
        assert!(
            readme.contains(&format!("(docs/{file})")),
            "README.md's map of docs/ does not link docs/{file}"
        );
    }
}

/// The lines of Rust source `text` that name a slash command (`/tablut`, `/move`) outside a
/// comment: words for players, which belong in src/bot/messages/.
fn command_names(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let code = line.trim_start();
            let code = match code.find("//") {
                Some(at) if !code[..at].contains('"') => &code[..at],
                _ => code,
            };
            ["/tablut", "/move"].iter().any(|c| code.contains(c))
        })
        .map(|(n, line)| (n + 1, line.trim().to_string()))
        .collect()
}

/// `file`'s path from the repository's top, as the lists of files here name it
/// (`src/bot/mod.rs`).
fn relative(file: &Path) -> String {
    file.strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// Every `.rs` file under `dir`.
pub(super) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The service speaks in data: no string of src/service names a slash command (the bot words
/// refusals and news, in src/bot/messages/).
#[test]
fn no_service_string_names_a_command() {
    let planted =
        "// /tablut in a comment\nlet s = \"try /tablut ai\"; // said\n#[error(\"use /move\")]";
    assert_eq!(
        command_names(planted)
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>(),
        [2, 3]
    );
    let mut found = Vec::new();
    for file in rust_files(&root().join("src/service")) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in command_names(&text) {
            found.push(format!("{}:{n}: {line}", file.display()));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Whether `s` opens a sentence: a capital's word, a space, then a word or a value.
fn opens_a_sentence(s: &str) -> bool {
    let mut chars = s.chars();
    let first = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    let word: String = chars.by_ref().take_while(|c| *c != ' ').collect();
    let next = chars.next();
    first
        && !word.is_empty()
        && word.chars().all(|c| c.is_ascii_lowercase())
        && next.is_some_and(|c| c.is_alphabetic() || c == '{')
}

/// The lines of Rust source `text` holding a string that opens a sentence (a capital's word,
/// a space, then a word or a value: `"The answer was {solution}."`, `"Move {} · {}"`) outside a
/// comment: words for players.
fn sentences(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let code = line.trim_start();
            let code = match code.find("//") {
                Some(at) if !code[..at].contains('"') => &code[..at],
                _ => code,
            };
            code.match_indices('"')
                .any(|(at, _)| opens_a_sentence(&code[at + 1..]))
        })
        .map(|(n, line)| (n + 1, line.trim().to_string()))
        .collect()
}

/// The service and the renderer speak in data: no string of src/service or src/render opens
/// a sentence (the bot words what they hand it, in src/bot/messages/, captions included).
#[test]
fn no_service_or_render_string_is_a_sentence() {
    let planted = "// The answer in a comment\nlet a = \"The answer was {s}.\";\nlet b = \
                   format!(\"Move {} · {}\", 1, 2);\nlet c = \"the king escaped\";\nlet d = \
                   \"Discord\";\nlet e = \"Game #{}\";";
    assert_eq!(
        sentences(planted)
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>(),
        [2, 3]
    );
    let mut found = Vec::new();
    for dir in ["src/service", "src/render"] {
        for file in rust_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in sentences(&text) {
                found.push(format!("{}:{n}: {line}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The `#[error]` lines of `text` (an attribute over several lines joined), each with its line.
fn error_attributes(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some((_, attribute)) = open.as_mut() {
            attribute.push(' ');
            attribute.push_str(line);
        } else if line.starts_with("#[error(") {
            open = Some((n + 1, line.to_string()));
        }
        if open.as_ref().is_some_and(|(_, a)| a.ends_with(")]")) {
            out.extend(open.take());
        }
    }
    out
}

/// The rules engine's and the AI's errors are data, worded for players in `src/bot/messages/`:
/// their `#[error]` lines are plain, for logs and the command-line tools, and speak to nobody
/// (no "you", no advice such as "write it as", "choose", "say which").
#[test]
fn no_rules_engine_or_ai_error_speaks_to_a_player() {
    const SPEAKING: [&str; 7] = ["you", "your", "write", "choose", "say", "use", "try"];
    let speaks = |attribute: &str| {
        attribute
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|w| SPEAKING.contains(&w.to_ascii_lowercase().as_str()))
    };
    let planted = "#[error(\"no piece on {0}\")]\n#[error(\n    \"'{}' is not a move: write it \\\n as e1-e3\",\n    .0\n)]";
    let planted: Vec<usize> = error_attributes(planted)
        .into_iter()
        .filter(|(_, a)| speaks(a))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(planted, [2]);
    let mut found = Vec::new();
    for dir in ["src/tafl", "src/ai"] {
        for file in rust_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, attribute) in error_attributes(&text) {
                if speaks(&attribute) {
                    found.push(format!("{}:{n}: {attribute}", file.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Calls whose strings are said to the operator, not to players: failures (`expect`, `panic!`,
/// assertions, internal errors and the errors mapped or made from an absence), log lines, and
/// the paths of `include_bytes!`.
const FOR_THE_OPERATOR: [&str; 17] = [
    "expect",
    "panic",
    "unreachable",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "info",
    "warn",
    "error",
    "debug",
    "trace",
    "Internal",
    "injected",
    "map_err",
    "ok_or",
    "include_bytes",
];

/// The attributes whose strings name code (a type, a field, a function: `#[serde(from =
/// "StoredAnswer")]`), words for nobody: taken as the operator's.
const NAMING_CODE: [&str; 1] = ["serde"];

/// The calls whose strings are the players' wherever they are: the bot's answer to a player
/// (`Error::User("…")`), inside a call of [`FOR_THE_OPERATOR`] or not
/// (`.map_err(|_| Error::User("…"))`).
const FOR_PLAYERS: [&str; 1] = ["User"];

/// The string literals of Rust source `text` before its test module (`#[cfg(test)]`), outside
/// comments, each with its line and whether it is said to the operator (inside a call of
/// [`FOR_THE_OPERATOR`], however deep, or an `#[error]`, but not of [`FOR_PLAYERS`]) or names
/// code ([`NAMING_CODE`]).
fn strings(text: &str) -> Vec<(usize, String, bool)> {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    // The name each open bracket follows (a call's, a macro's; empty for `[`, `{`).
    let mut open: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let operator = |open: &[&str]| {
        !(open.iter()).any(|o| FOR_PLAYERS.contains(o))
            && (open.iter()).any(|o| FOR_THE_OPERATOR.contains(o) || NAMING_CODE.contains(o))
    };
    while i < b.len() {
        let rest = &text[i..];
        match b[i] {
            b'\n' => line += 1,
            b'/' if rest.starts_with("//") => {
                i += rest.find('\n').unwrap_or(rest.len());
                continue;
            }
            b'/' if rest.starts_with("/*") => {
                let end = rest.find("*/").expect("a closed comment") + 2;
                line += rest[..end].matches('\n').count();
                i += end;
                continue;
            }
            b'r' if (i == 0 || !ident(b[i - 1]))
                && rest[1..].trim_start_matches('#').starts_with('"') =>
            {
                let hashes = rest[1..].len() - rest[1..].trim_start_matches('#').len();
                let start = 2 + hashes;
                let close = format!("\"{}", "#".repeat(hashes));
                let len = rest[start..].find(&close).expect("a closed raw string");
                out.push((line, rest[start..start + len].to_string(), operator(&open)));
                line += rest[..start + len].matches('\n').count();
                i += start + len + close.len();
                continue;
            }
            b'"' => {
                let mut j = i + 1;
                while b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                out.push((line, text[i + 1..j].to_string(), operator(&open)));
                line += text[i..j].matches('\n').count();
                i = j + 1;
                continue;
            }
            // A character ('"', '\''), or a lifetime.
            b'\'' if b.get(i + 1) == Some(&b'\\') => {
                i += 3 + rest[3..].find('\'').expect("a closed character") + 1;
                continue;
            }
            b'\'' if rest.chars().nth(2) == Some('\'') => {
                i += rest.chars().take(3).map(char::len_utf8).sum::<usize>();
                continue;
            }
            b'(' => {
                let before = text[..i].trim_end_matches([' ', '\n', '!']);
                let name = before.len() - before.bytes().rev().take_while(|&c| ident(c)).count();
                open.push(&before[name..]);
            }
            b'[' | b'{' => open.push(""),
            b')' | b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A string that holds words for players though it does not open a sentence: a phrase opening
/// with an article ("a former player", "the AI ({level})") or one capitalised word (a heading:
/// "MP").
fn players_phrase(s: &str) -> bool {
    let article = ["a ", "an ", "the "].iter().any(|a| {
        s.strip_prefix(a)
            .and_then(|r| r.chars().next())
            .is_some_and(|c| c.is_alphabetic() || c == '{')
    });
    let heading = s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphabetic());
    article || heading
}

/// Words src/service and src/render keep that are not for players, each with who reads them.
const NOT_FOR_PLAYERS: [(&str, &str); 5] = [
    // The outbox's `failure` column, for the operator.
    ("src/service/gone.rs", "the channel was deleted"),
    ("src/service/gone.rs", "the bot left the server"),
    // The name an imported record's side without one is stored under.
    ("src/service/records.rs", "the {side}"),
    // The font family plotters draws with, and what drawing the graph fails with.
    ("src/render/graph.rs", "sans-serif"),
    ("src/render/graph.rs", "drawing into a buffer"),
];

/// Nor do they keep words for players in another form: no string of src/service is a phrase
/// for players ([`players_phrase`]: a stored label such as "a former player" or "the AI
/// (hard)", a heading), and src/render holds no word at all, the words it draws being its
/// caller's; only what they say to the operator ([`FOR_THE_OPERATOR`], [`NOT_FOR_PLAYERS`]).
#[test]
fn no_service_or_render_string_holds_words_for_players() {
    let planted = "let a = \"a former player\"; // \"the AI\"\n/* \"the king\" */ let c = '\"';\n\
                   let b = format!(\"the AI ({level})\");\nlet h = \"MP\";\nlet r = r#\"ply\"#;\n\
                   x.expect(\"the canvas holds it\");\ntracing::warn!(\n    id,\n    \"a notice \
                   is late\"\n);\nlet s = \"SELECT name FROM games\";\n#[error(\"the game is \
                   over\")]\n#[serde(from = \"Stored\")]\ny.map_err(|_| Error::User(\"the king \
                   is gone\".into()));\n#[cfg(test)]\nlet t = \"the test\";";
    let found: Vec<(usize, String, bool)> = strings(planted)
        .into_iter()
        .map(|(n, s, o)| {
            (
                n,
                if players_phrase(&s) {
                    "phrase".into()
                } else {
                    s
                },
                o,
            )
        })
        .collect();
    let expected = [
        (1, "phrase", false),
        (3, "phrase", false),
        (4, "phrase", false),
        (5, "ply", false),
        (6, "phrase", true),
        (9, "phrase", true),
        (11, "SELECT name FROM games", false),
        (12, "phrase", true),
        (13, "phrase", true),
        (14, "phrase", false),
    ];
    assert_eq!(found, expected.map(|(n, s, o)| (n, s.to_string(), o)));
    let mut found = Vec::new();
    for (dir, holds_words) in [
        ("src/service", players_phrase as fn(&str) -> bool),
        ("src/render", |s: &str| {
            s.as_bytes()
                .windows(2)
                .any(|w| w.iter().all(u8::is_ascii_alphabetic))
        }),
    ] {
        for file in rust_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            let name = relative(&file);
            for (n, s, for_the_operator) in strings(&text) {
                if !for_the_operator
                    && holds_words(&s)
                    && !NOT_FOR_PLAYERS.contains(&(name.as_str(), s.as_str()))
                {
                    found.push(format!("{name}:{n}: {s:?}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// Strings of src/bot outside src/bot/messages/ that open a sentence but are not for players,
/// by their file and opening, with who reads them.
const BOT_NOT_FOR_PLAYERS: [(&str, &str); 2] = [
    // The Authorization header's scheme.
    ("src/bot/delivery/client.rs", "Bot {}"),
    // The line the process exits with when Discord refuses its shards, for the operator.
    ("src/bot/mod.rs", "Discord refused {which}"),
];

/// In src/bot, the words a player reads are made in src/bot/messages/: no other file of
/// src/bot holds a string that opens a sentence, but what it says to the operator
/// ([`FOR_THE_OPERATOR`], [`BOT_NOT_FOR_PLAYERS`]). The slash commands' words are there too:
/// no command or option has a `#[description = "…"]`, and a choice's `#[name = "…"]` is a
/// name (lowercase letters, digits, `-`, `_`), labelled in src/bot/messages/commands.rs.
#[test]
fn no_bot_string_outside_messages_is_a_sentence() {
    let a_name = |s: &str| {
        (s.chars()).all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_".contains(c))
    };
    let mut found = Vec::new();
    for file in rust_files(&root().join("src/bot")) {
        if file.starts_with(root().join("src/bot/messages")) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let name = relative(&file);
        let lines: Vec<&str> = text.lines().collect();
        for (n, s, for_the_operator) in strings(&text) {
            let attribute = lines[n - 1].trim_start();
            let worded_attribute = attribute.starts_with("#[description")
                || (attribute.starts_with("#[name") && !a_name(&s));
            let operator = (BOT_NOT_FOR_PLAYERS.iter())
                .any(|(f, opening)| *f == name && s.starts_with(opening));
            if worded_attribute || (!for_the_operator && !operator && opens_a_sentence(&s)) {
                found.push(format!("{}:{n}: {s:?}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
