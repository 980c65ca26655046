//! The look of the board: its colours and its geometry. Every square-to-pixel calculation of
//! the renderer is here.
//!
//! The theme follows Damian Walker's print-and-play tablut: an embroidered cloth board, red
//! shields for the king and his defenders, blue for the attackers, set in a frame of the dark
//! blue wool and red and yellow bands of Sámi dress. Shape tells the pieces apart as well as
//! colour: the attackers carry round shields, the defenders pointed (heater) shields, and the
//! king a larger pointed shield under a crown.

use crate::tafl::{Square, Variant};

/// An opaque colour.
pub type Rgb = [u8; 3];

/// The width and height of every image, in pixels, whatever the board: the board, its labels
/// and the caption band. Every variant's board fills the same area, so a 7×7, 9×9, 11×11 or 13×13
/// board shows at the same size in a channel and costs about the same to draw and to send.
pub const IMAGE_PX: u32 = 720;
/// The area the board's squares fill (Tablut's nine squares of 68 pixels); other sizes take
/// the nearest whole number of pixels a square (87 for 7×7, 56 for 11×11, 47 for 13×13).
const BOARD_AREA_PX: u32 = 612;
/// The top edge of the board: the band above it holds the file letters.
const BOARD_TOP: u32 = 30;
/// The height of the band under the board that holds the file letters.
const FILES_BAND_PX: u32 = 30;

/// Where everything of one board size sits in the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Squares per side: 7, 9, 11 or 13.
    pub size: u8,
    /// The side of one square, in pixels.
    pub square_px: u32,
    /// The board's side, in pixels.
    pub board_px: u32,
    /// The left edge of the board.
    pub board_left: u32,
    /// The top edge of the board.
    pub board_top: u32,
    /// The height of the band under the board that holds the file letters.
    pub files_band_px: u32,
    /// The top of the caption band, which runs to the bottom of the image.
    pub caption_top: u32,
    /// The caption band's height.
    pub caption_px: u32,
}

impl Layout {
    /// The layout of a `size` × `size` board.
    pub const fn of_size(size: u8) -> Layout {
        let n = size as u32;
        let square_px = (BOARD_AREA_PX + n / 2) / n;
        let board_px = n * square_px;
        let caption_top = BOARD_TOP + board_px + FILES_BAND_PX;
        Layout {
            size,
            square_px,
            board_px,
            board_left: (IMAGE_PX - board_px) / 2,
            board_top: BOARD_TOP,
            files_band_px: FILES_BAND_PX,
            caption_top,
            caption_px: IMAGE_PX - caption_top,
        }
    }

    /// The layout of a variant's board.
    pub const fn of(variant: Variant) -> Layout {
        Layout::of_size(variant.size())
    }

    /// The top-left pixel of a square: `a1` is the bottom-left square.
    pub const fn square_origin(&self, sq: Square) -> (u32, u32) {
        let x = self.board_left + sq.file() as u32 * self.square_px;
        let y = self.board_top + (self.size as u32 - 1 - sq.rank() as u32) * self.square_px;
        (x, y)
    }

    /// The centre pixel of a square.
    pub const fn square_centre(&self, sq: Square) -> (u32, u32) {
        let (x, y) = self.square_origin(sq);
        (x + self.square_px / 2, y + self.square_px / 2)
    }
}

/// Tablut's 9×9 layout: squares of 68 pixels, the board at (54, 30).
pub const TABLUT: Layout = Layout::of(Variant::Tablut);
/// Brandubh's 7×7 layout: squares of 87 pixels.
pub const BRANDUBH: Layout = Layout::of(Variant::Brandubh);
/// Copenhagen's 11×11 layout: squares of 56 pixels.
pub const COPENHAGEN: Layout = Layout::of(Variant::Copenhagen);
/// Copenhagen's 13×13 layout: squares of 47 pixels.
pub const COPENHAGEN13: Layout = Layout::of(Variant::Copenhagen13);

/// The dark blue wool of the frame and the caption band.
pub const FRAME: Rgb = [0x1f, 0x2a, 0x4d];
/// Labels and caption text.
pub const TEXT: Rgb = [0xf3, 0xe7, 0xc9];
/// The embroidered bands round the board.
pub const BAND_RED: Rgb = [0xb8, 0x2e, 0x2a];
pub const BAND_YELLOW: Rgb = [0xe9, 0xb8, 0x3c];
pub const BAND_GREEN: Rgb = [0x3f, 0x7d, 0x4e];

/// The linen of the squares and the running stitch between them.
pub const LINEN: Rgb = [0xee, 0xe0, 0xbf];
pub const STITCH: Rgb = [0x8c, 0x6a, 0x4a];

/// The king's fort on the castle, and the refuges in the corners under corner rules.
pub const FORT_CLOTH: Rgb = [0xd9, 0xb9, 0x86];
pub const FORT_WALL: Rgb = [0x9c, 0x2f, 0x25];
pub const REFUGE_CLOTH: Rgb = [0xc9, 0xd3, 0xa4];
pub const REFUGE_WALL: Rgb = [0x3f, 0x6e, 0x45];

/// The last move: the square it left and the square it reached.
pub const MOVE_FROM: Rgb = [0xf2, 0xd7, 0x78];
pub const MOVE_TO: Rgb = [0xe8, 0xb9, 0x3a];

/// Attackers: round blue shields, quartered, with a steel boss.
pub const ATTACKER: Rgb = [0x2d, 0x5b, 0xb5];
pub const ATTACKER_DARK: Rgb = [0x16, 0x27, 0x52];
pub const ATTACKER_LIGHT: Rgb = [0x5b, 0x8f, 0xe0];
pub const ATTACKER_BOSS: Rgb = [0x9c, 0xa9, 0xb9];

/// Defenders: pointed red shields with a cream cross.
pub const DEFENDER: Rgb = [0xc6, 0x2f, 0x2a];
pub const DEFENDER_DARK: Rgb = [0x4d, 0x0f, 0x0c];
pub const DEFENDER_CROSS: Rgb = [0xf6, 0xea, 0xcf];

/// The king: a larger red shield under a gold crown.
pub const KING: Rgb = [0xb3, 0x1d, 0x22];
pub const GOLD: Rgb = [0xf2, 0xc1, 0x3a];
pub const GOLD_DARK: Rgb = [0x7a, 0x52, 0x0c];

/// A captured piece: its ghost struck through with a cross stitch.
pub const CAPTURE_MARK: Rgb = [0x2b, 0x12, 0x10];
/// The king in danger of capture next move.
pub const DANGER: Rgb = [0xe0, 0x1b, 0x1b];
/// The king's free lines to a winning square, and the squares they reach.
pub const FREE_LINE: Rgb = [0x1f, 0x8a, 0x4c];
