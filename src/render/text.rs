//! Text in the bundled font, drawn straight into palette indices over the frame's wool.
//!
//! Any Unicode string is drawn sensibly: control characters become spaces, invisible joiners
//! and emoji the font lacks are left out, any other character the font lacks becomes `?`, and
//! text too wide for its place is set smaller and then cut short with `…`.

use super::font::{FONT, TEXT_LEVELS};
use ab_glyph::{point, Font, GlyphId, PxScale, ScaleFont};

/// Where text sits in its area, across.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Centre,
    Right,
}

/// The glyphs to draw for `text`, after the substitutions above.
pub fn glyphs(text: &str) -> Vec<GlyphId> {
    let font = &*FONT;
    let question = font.glyph_id('?');
    let mut out = Vec::with_capacity(text.len());
    let mut last_space = true;
    for c in text.chars() {
        let c = if c.is_control() || c.is_whitespace() {
            ' '
        } else {
            c
        };
        if c == ' ' {
            if !last_space {
                out.push(font.glyph_id(' '));
            }
            last_space = true;
            continue;
        }
        if invisible(c) {
            continue;
        }
        let id = font.glyph_id(c);
        if id.0 != 0 {
            out.push(id);
        } else if !pictograph(c) {
            out.push(question);
        } else {
            continue;
        }
        last_space = false;
    }
    while out.last() == Some(&font.glyph_id(' ')) {
        out.pop();
    }
    out
}

/// Format characters that draw nothing: joiners, marks of direction, variation selectors.
fn invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{E0000}'..='\u{E007F}' | '\u{1F3FB}'..='\u{1F3FF}')
}

/// Emoji and pictographs: left out when the font lacks them, rather than shown as `?`.
fn pictograph(c: char) -> bool {
    matches!(c, '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{2B00}'..='\u{2BFF}')
}

/// The advance of a run of glyphs at a size, kerning included.
fn width(ids: &[GlyphId], size: f32) -> f32 {
    let font = FONT.as_scaled(PxScale::from(size));
    let mut w = 0.0;
    for (i, &id) in ids.iter().enumerate() {
        if i > 0 {
            w += font.kern(ids[i - 1], id);
        }
        w += font.h_advance(id);
    }
    w
}

/// Draws `text` into `buf` (palette indices, `stride` pixels a row) within `area` = (x, y, w,
/// h), centred both ways, at `size` pixels or as small as `min_size` to fit, cut short with `…`
/// if it still does not. The area must be the frame's wool (index 0); each pixel becomes the
/// text ramp's index for its coverage. Returns the width drawn, in pixels.
pub fn draw_text(
    buf: &mut [u8],
    stride: u32,
    area: (u32, u32, u32, u32),
    text: &str,
    size: f32,
    min_size: f32,
    align: Align,
) -> u32 {
    draw_text_on(buf, stride, area, text, (size, min_size), align, 0)
}

/// [`draw_text`] over any ground with a ramp of its own: the area holds index `ramp` (the
/// ground) and `ramp + 1 .. ramp + TEXT_LEVELS` run to the ink, as the text's coverage grows.
/// `sizes` is the size wanted and the smallest allowed; `align` places it across (down, it is
/// centred).
pub fn draw_text_on(
    buf: &mut [u8],
    stride: u32,
    area: (u32, u32, u32, u32),
    text: &str,
    sizes: (f32, f32),
    align: Align,
    ramp: u8,
) -> u32 {
    let (size, min_size) = sizes;
    let (ax, ay, aw, ah) = area;
    let mut ids = glyphs(text);
    if ids.is_empty() {
        return 0;
    }
    let room = aw as f32;
    let mut size = size;
    while size > min_size && width(&ids, size) > room {
        size = (size - 1.0).max(min_size);
    }
    if width(&ids, size) > room {
        let ellipsis = FONT.glyph_id('…');
        while !ids.is_empty() && width(&ids, size) + width(&[ellipsis], size) > room {
            ids.pop();
        }
        while ids.last() == Some(&FONT.glyph_id(' ')) {
            ids.pop();
        }
        ids.push(ellipsis);
    }
    let font = FONT.as_scaled(PxScale::from(size));
    let w = width(&ids, size);
    let x0 = match align {
        Align::Left => ax as f32,
        Align::Centre => ax as f32 + (room - w) / 2.0,
        Align::Right => ax as f32 + room - w,
    };
    // Centre the caps and x-height rather than the full ascent and descent.
    let baseline = ay as f32 + (ah as f32 + font.ascent() * 0.72) / 2.0;
    let top_limit = ay;
    let bottom_limit = ay + ah;
    let max_level = (TEXT_LEVELS - 1) as f32;
    let mut x = x0;
    for (i, &id) in ids.iter().enumerate() {
        if i > 0 {
            x += font.kern(ids[i - 1], id);
        }
        let glyph = id.with_scale_and_position(font.scale(), point(x, baseline));
        x += font.h_advance(id);
        let Some(outlined) = FONT.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outlined.px_bounds();
        outlined.draw(|gx, gy, coverage| {
            let px = bounds.min.x as i32 + gx as i32;
            let py = bounds.min.y as i32 + gy as i32;
            if px < ax as i32
                || px >= (ax + aw) as i32
                || py < top_limit as i32
                || py >= bottom_limit as i32
            {
                return;
            }
            let level = (coverage.clamp(0.0, 1.0) * max_level).round() as u8;
            let i = py as usize * stride as usize + px as usize;
            let held = buf[i].wrapping_sub(ramp);
            if held < TEXT_LEVELS && level > held {
                buf[i] = ramp + level;
            }
        });
    }
    w.round() as u32
}
