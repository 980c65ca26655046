//! Images: a PNG of any position, an animated GIF replay of a whole game, a tournament's
//! standings and a game's evaluation graph.
//!
//! Built the way the fastest chess-board renderers are: every square's picture (cloth,
//! highlight, piece and marks) and the frame with its labels are drawn once, anti-aliased, at
//! first use and kept as palette indices ([`assets`]); a board is then one sprite copy a square
//! (49, 81 or 121), an optional caption, and an indexed-colour encode (zlib-rs's deflate of
//! the unfiltered rows, in the `png` crate's chunks; the `gif` crate's LZW, weezl). No I/O.
//!
//! Every variant's image is the same size: Brandubh's 7×7, Tablut's 9×9 and Copenhagen's 11×11
//! boards fill the same area, with squares of 87, 68 and 56 pixels ([`theme::Layout`]).
//!
//! - [`theme`]: colours and the square-to-pixel geometry of each board size;
//! - [`assets`]: the sprites, the frame and the palette, drawn once per board size;
//! - [`font`]: the bundled font and the ink levels all text is drawn in;
//! - [`text`]: captions in the bundled font, with any Unicode handled;
//! - [`render`](self::render): which sprite each square shows, and the encoders;
//! - [`standings`]: a tournament's standings as a PNG, with a round robin's crosstable;
//! - [`graph`]: the evaluation graph of an analysed game.

pub mod assets;
pub mod font;
pub mod graph;
#[allow(clippy::module_inception)]
pub mod render;
pub mod standings;
pub mod text;
pub mod theme;

use crate::tafl::{Game, Position, RecordedMove, Variant};

/// Draws the sprites, the frames and the palettes of every board size and parses the font now,
/// rather than at the first board: the bot does this on a blocking thread as it starts, so that
/// its first answer does not wait for them (Tablut's first, then Brandubh's and Copenhagen's;
/// each is independent, so a Tablut board never waits for the others; the boards after them
/// are copies).
pub fn warm_up() {
    std::sync::LazyLock::force(&font::FONT);
    for variant in Variant::ALL {
        assets::assets(variant);
    }
}

/// The width and height of every board image and replay frame, in pixels, for every variant:
/// the board, its file and rank labels, and the caption band under it.
pub const BOARD_SIZE_PX: u32 = theme::IMAGE_PX;

/// The board PNG of a position (of any variant: its board size comes from the position's
/// rules), with the last move highlighted (and its captures marked) and an optional caption.
///
/// `last` is the move that led to `position` (as [`Game::moves`] records it). The king is
/// ringed in red when the attackers could capture him next move, and in green with his free
/// lines stitched out to the winning squares he can reach (one line: *raichi*; two: *tuichu*).
pub fn board_png(
    position: &Position,
    last: Option<&RecordedMove>,
    caption: Option<&str>,
) -> Vec<u8> {
    render::encode_png(&render::board_canvas(position, last, caption))
}

/// An animated replay of a whole game as a GIF: the start position plus one frame per ply,
/// each with the caption `caption` gives for its ply (the bot's: its move, and the result on
/// the last), pausing on the last frame.
pub fn replay_gif(game: &Game, caption: &dyn Fn(usize) -> String) -> Vec<u8> {
    render::encode_replay(game, caption)
}
