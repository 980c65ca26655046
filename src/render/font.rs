//! The bundled font and the number of ink levels text is drawn in: what every picture's text
//! shares ([`super::text`] draws with it; the boards, the graph and the standings use it).

use ab_glyph::FontRef;
use std::sync::LazyLock;

/// The bundled font (DejaVu Sans Bold; licence in `assets/fonts/DejaVu-LICENSE.txt`).
pub(crate) static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The font, parsed once.
pub static FONT: LazyLock<FontRef<'static>> =
    LazyLock::new(|| FontRef::try_from_slice(FONT_BYTES).expect("the bundled font parses"));

/// Palette entries `0..TEXT_LEVELS` run from [`super::theme::FRAME`] (0) to [`super::theme::TEXT`] (the last): text is
/// drawn straight into palette indices by its coverage.
pub const TEXT_LEVELS: u8 = 16;
