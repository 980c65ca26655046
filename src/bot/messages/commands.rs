//! The slash commands' words in Discord's list: each command's description, each option's, and
//! the labels of an option's choices. Each is found by the command's full name (`"tablut puzzle
//! play"`, `"move"`) and the option's; `commands::all` sets them on the commands it registers.
//! Discord takes at most 100 characters for each.

/// Which game, for a new game: the variant's option of `/tablut challenge`, `ai` and
/// `tournament create`.
const NEW_GAME_VARIANT: &str = "The game: tablut (default), brandubh, copenhagen or copenhagen13";
/// A move typed: `/move`'s and `/tablut puzzle move`'s option.
const NOTATION: &str = "The move, like e1-e3 (a square lists its moves)";

/// The description of the command `command` (its full name), if it has one.
pub fn command_description(command: &str) -> Option<&'static str> {
    Some(match command {
        "tablut" => "Tablut, the Sámi game of the king's escape.",
        "tablut challenge" => {
            "Challenge someone to a game of Tablut, Brandubh or Copenhagen Hnefatafl."
        }
        "tablut ai" => "Play a game of Tablut, Brandubh or Copenhagen Hnefatafl against the bot.",
        "tablut board" => "Show the board of this channel's game.",
        "tablut resign" => "Resign the game in this channel.",
        "tablut draw" => "Offer your opponent a draw.",
        "tablut hint" => "Ask the bot for a move (only you see it).",
        "tablut history" => "The record of this channel's game, as text and as a file.",
        "tablut replay" => "An animated replay of this channel's game.",
        "tablut rules" => "The rules in brief (of this channel's game, or of the game you name).",
        "tablut abort" => {
            "Abort the game: its players before the second move, moderators at any time."
        }
        "tablut stats" => "A player's games, results and rating in this server.",
        "tablut leaderboard" => "This server's best players (each game has its own ratings).",
        "tablut games" => "The games running in this server, in the channels you can see.",
        "tablut puzzle" => {
            "Puzzles from real games: find the move that wins, or the only one that saves the game."
        }
        "tablut puzzle play" => {
            "Your puzzle: the one you are solving, or a new one near your puzzle rating."
        }
        "tablut puzzle today" => {
            "Today's puzzle of this server, for everyone: your try, seen by you alone (one a day)."
        }
        "tablut puzzle move" => "Answer your puzzle with a move, like e1-e3.",
        "tablut puzzle leaderboard" => "This server's best puzzle solvers.",
        "tablut puzzle daily" => {
            "Set the channel for the daily puzzle (Manage Server); leave it out to stop it."
        }
        "tablut analysis" => {
            "Review a finished game: each move judged, each side's accuracy, and the evaluation \
             graph."
        }
        "tablut privacy" => "What the bot stores about you, sent to you alone as a file.",
        "tablut forget-me" => {
            "Delete your ratings and puzzle data, and your name from finished games."
        }
        "tablut export" => {
            "Write this channel's game as a record file, in the archives' format or OpenTafl's."
        }
        "tablut import" => {
            "Read a game record (text or file): review it, or play on from its last position."
        }
        "tablut tournament" => "Round robins and Swiss events of two-game matches, sides swapped.",
        "tablut tournament create" => {
            "Create a tournament in this channel (Manage Server or the organisers' role)."
        }
        "tablut tournament organisers" => {
            "Name the role whose members may run tournaments here (Manage Server); none: only \
             Manage Server."
        }
        "tablut tournament join" => "Join a tournament signing up.",
        "tablut tournament leave" => "Leave a tournament before it starts.",
        "tablut tournament start" => {
            "Start a tournament: seats in the order they joined, round 1 paired (its organiser)."
        }
        "tablut tournament standings" => "A tournament's standings, with their image.",
        "tablut tournament pairings" => {
            "A tournament's pairings of its last round, with their results so far."
        }
        "tablut tournament withdraw" => {
            "Withdraw from a tournament: your games not finished are lost, and you are paired no \
             more."
        }
        "tablut tournament remove" => {
            "Remove a player from a tournament, as a withdrawal (its organiser)."
        }
        "tablut tournament pause" => {
            "Pause a tournament: games under way go on, the next round waits (its organiser)."
        }
        "tablut tournament resume" => "Resume a paused tournament (its organiser).",
        "tablut tournament cancel" => {
            "Cancel a tournament: its unfinished games are aborted, unrated (its organiser)."
        }
        "tablut vacation" => {
            "Stop your clocks in all your games while you are away, within a yearly allowance."
        }
        "tablut vacation start" => {
            "Go on vacation: your clocks stop in all your games, in every server, for up to this \
             many days."
        }
        "tablut vacation end" => {
            "Come back from vacation: your clocks run again with the time they had left."
        }
        "tablut vacation status" => {
            "Whether you are on vacation, and the days of your allowance left."
        }
        "tablut notify" => {
            "How you are told that it is your move, in every server (without a choice: your \
             setting)."
        }
        "move" => "Make a move: from-to, like e1-e3.",
        _ => return None,
    })
}

/// The description of the option `option` of the command `command` (its full name), if it has
/// one.
pub fn option_description(command: &str, option: &str) -> Option<&'static str> {
    Some(match (command, option) {
        ("tablut challenge", "opponent") => "Who you challenge",
        ("tablut challenge" | "tablut ai" | "tablut tournament create", "variant") => {
            NEW_GAME_VARIANT
        }
        ("tablut challenge", "side") => "The side you want (default random)",
        ("tablut challenge" | "tablut ai", "rules") => {
            "The rules preset (default: the game's own, linnaeus for tablut)"
        }
        ("tablut challenge", "time") => {
            "Time per move (none, 12h, 3d…; default 3d) or a bank and an increment (3d+6h)"
        }
        ("tablut challenge", "thread") => "Play in a new thread of this channel",
        ("tablut challenge", "rated") => {
            "Rated (default true); a casual game changes no ratings and allows hints"
        }
        ("tablut ai", "side") => "The side you play (default random)",
        ("tablut ai", "level") => "How strong the bot plays (default medium)",
        ("tablut ai", "time") => {
            "Your time per move (none, 12h, 3d…; default 3d) or bank and increment (3d+6h)"
        }
        ("tablut rules", "variant") => {
            "Which game's rules (default: this channel's game's, or Tablut's)"
        }
        ("tablut stats", "player") => "Whose stats (default yours)",
        ("tablut leaderboard", "variant") => "Which game's ratings (default tablut)",
        ("move" | "tablut puzzle move", "notation") => NOTATION,
        ("tablut puzzle daily", "channel") => {
            "Where to post a puzzle every day (leave out to stop)"
        }
        ("tablut analysis", "game") => "Which game (default: this channel's last finished one)",
        ("tablut export", "format") => "The format: tafl (default, the archives') or opentafl",
        ("tablut import", "record") => {
            "The record as text: moves (1. e2-c2 e4-d4 …), with or without its tags"
        }
        ("tablut import", "file") => "The record as a file (.txt or OpenTafl's .otg)",
        ("tablut import", "then") => {
            "analysis (default): review the finished game; ai or challenge: play on"
        }
        ("tablut import", "opponent") => "Who you challenge (with then: challenge)",
        ("tablut import", "side") => "The side you play on with (default random)",
        ("tablut import", "level") => "How strong the bot plays (with then: ai; default medium)",
        ("tablut import", "time") => "Time per move: none, 12h, 3d… (default 3d)",
        ("tablut tournament create", "name") => {
            "Its name (letters, digits, spaces; up to 40 characters)"
        }
        ("tablut tournament create", "format") => "round-robin (every pair once) or swiss",
        ("tablut tournament create", "seats") => {
            "Seats: 2 to 32 for a round robin, up to 256 for Swiss"
        }
        ("tablut tournament create", "rounds") => "Swiss: the number of rounds",
        ("tablut tournament create", "rules") => "The rules preset (default: the game's own)",
        ("tablut tournament create", "time") => {
            "Time per move (3d…) or a bank and an increment (3d+6h); default 3d"
        }
        ("tablut tournament create", "rated") => "Rated (default true)",
        ("tablut tournament create", "signup") => {
            "Sign-up ends after a span (2d, 12h) or at a UTC time (2027-01-20 18:00); default: \
             when started"
        }
        ("tablut tournament organisers", "role") => "The organisers' role (leave out to forget it)",
        ("tablut tournament remove", "player") => "The player to remove",
        // Every tournament's command but create and organisers.
        (command, "tournament") if command.starts_with("tablut tournament ") => {
            "Which tournament (default: the newest)"
        }
        ("tablut vacation start", "days") => {
            "For how many days at most (your allowance left: /tablut vacation status)"
        }
        ("tablut notify", "mode") => "A message each move, a daily digest, or none",
        _ => return None,
    })
}

/// The label Discord shows for the choice `choice` (its name in the command's list) of an
/// option named `option`, if it has one: a choice reads alike in every option of that name
/// (`variant`'s in each command that has one).
pub fn choice_label(option: &str, choice: &str) -> Option<&'static str> {
    Some(match (option, choice) {
        ("variant", "tablut") => "tablut (9×9)",
        ("variant", "brandubh") => "brandubh (7×7)",
        ("variant", "copenhagen") => "copenhagen (11×11)",
        ("variant", "copenhagen13") => "copenhagen13 (13×13)",
        ("side", "attackers") => "attackers",
        ("side", "defenders") => "defenders",
        ("side", "random") => "random",
        ("level", "easy") => "easy",
        ("level", "medium") => "medium",
        ("level", "hard") => "hard",
        ("rules", "linnaeus") => "linnaeus (tablut, brandubh)",
        ("rules", "walker") => "walker (tablut)",
        ("rules", "salmi") => "salmi (tablut)",
        ("rules", "corner") => "corner (tablut)",
        ("rules", "aagenielsen") => "aagenielsen (brandubh, copenhagen, copenhagen13)",
        ("rules", "opentafl") => "opentafl (brandubh)",
        ("rules", "hnefatafl_org") => "hnefatafl_org (copenhagen, copenhagen13)",
        // A record's format (`/tablut export`) or a tournament's (`/tablut tournament create`).
        ("format", "tafl") => "tafl (the archives' record)",
        ("format", "opentafl") => "opentafl (OpenTafl's game record)",
        ("format", "round-robin") => "round-robin",
        ("format", "swiss") => "swiss",
        ("then", "analysis") => "analysis (keep the finished game and review it)",
        ("then", "ai") => "ai (play on from its last position against the bot)",
        ("then", "challenge") => "challenge (play on from its last position against someone)",
        ("mode", "move") => "move: a direct message when it is your move",
        ("mode", "digest") => "digest: one direct message a day listing your games",
        ("mode", "off") => "off: no direct messages",
        _ => return None,
    })
}
