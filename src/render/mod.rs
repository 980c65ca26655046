//! Board images: a PNG of any position and an animated GIF replay of a whole game.
//!
//! Built the way the fastest chess-board renderers are: every square's picture (cloth,
//! highlight, piece and marks) and the frame with its labels are drawn once, anti-aliased, at
//! first use and kept as palette indices ([`assets`]); a board is then 81 sprite copies, an
//! optional caption, and an indexed-colour encode (the `png` crate's deflate after the `Up` row
//! filter; the `gif` crate's LZW, weezl). No I/O.
//!
//! - [`theme`]: colours and the square-to-pixel geometry;
//! - [`assets`]: the sprites, the frame, the palette and the font, drawn once;
//! - [`text`]: captions in the bundled font, with any Unicode handled;
//! - [`render`](self::render): which sprite each square shows, and the encoders.

pub mod assets;
pub mod graph;
#[allow(clippy::module_inception)]
pub mod render;
pub mod text;
pub mod theme;

use crate::tafl::{Game, Position, RecordedMove};

/// Draws the sprites, the frame and the palette and parses the font now, rather than at the
/// first board: the bot does this on a blocking thread as it starts, so that its first answer
/// does not wait for them (about 1.5 s of CPU in a debug build; the boards after them are
/// copies).
pub fn warm_up() {
    std::sync::LazyLock::force(&assets::ASSETS);
    std::sync::LazyLock::force(&assets::FONT);
}

/// The width and height of every board image and replay frame, in pixels: the board, its
/// file and rank labels, and the caption band under it.
pub const BOARD_SIZE_PX: u32 = theme::IMAGE_PX;

/// The board PNG of a position, with the last move highlighted (and its captures marked) and
/// an optional caption.
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
/// each captioned with its move, pausing on the last frame (which also gives the result).
pub fn replay_gif(game: &Game) -> Vec<u8> {
    render::encode_replay(game)
}
