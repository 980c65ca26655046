//! From a position to pixels: which sprite each square shows, the frame put together from the
//! drawn-once assets, and the PNG and GIF encoders.

use super::assets::{assets, Assets, Captive, Cloth, Content, Highlight, SpriteId, TRANSPARENT};
use super::text::{draw_text, Align};
use super::theme::*;
use crate::tafl::square::SQUARES;
use crate::tafl::{Bitboard, Escape, Game, Position, RecordedMove, Side, Square, Variant};

/// What every square of a board shows (indexed by [`Square::index`]; only the squares of the
/// variant's board are drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scene {
    pub variant: Variant,
    pub squares: [SpriteId; SQUARES],
}

/// The square the king stood on when the last move captured him, worked out by putting him
/// back beside the square the capturing attacker reached and replaying the move.
pub fn captured_king_square(position: &Position, last: &RecordedMove) -> Option<Square> {
    if !last.king_captured || position.king().is_some() || last.side != Side::Attackers {
        return None;
    }
    let mv = last.mv;
    if !position.attackers().contains(mv.to) {
        return None;
    }
    let attackers = position.attackers().without(mv.to).with(mv.from);
    let defenders = position.defenders() | last.captured;
    neighbours(mv.to, position.variant().size()).find(|&k| {
        if position.occupied().contains(k) || last.captured.contains(k) {
            return false;
        }
        Position::new(
            attackers,
            defenders,
            Some(k),
            Side::Attackers,
            *position.rules(),
        )
        .map(|before| before.is_legal(mv) && before.make(mv).1.king_captured)
        .unwrap_or(false)
    })
}

/// The squares beside `sq` on a `size` × `size` board.
fn neighbours(sq: Square, size: u8) -> impl Iterator<Item = Square> {
    let (f, r) = (sq.file() as i8, sq.rank() as i8);
    let on = 0..size as i8;
    [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            let (nf, nr) = (f + df, r + dr);
            if on.contains(&nf) && on.contains(&nr) {
                Square::from_coords(nf as u8, nr as u8)
            } else {
                None
            }
        })
}

/// The scene of a position after `last` (the move that led to it, if any).
pub fn scene(position: &Position, last: Option<&RecordedMove>) -> Scene {
    let variant = position.variant();
    let size = variant.size();
    let castle = variant.castle();
    let corners = position.rules().escape == Escape::Corner;
    let mut contents = [Content::Empty; SQUARES];
    let mut highlights = [Highlight::None; SQUARES];
    for sq in position.attackers() {
        contents[sq.index()] = Content::Attacker;
    }
    for sq in position.defenders() {
        contents[sq.index()] = Content::Defender;
    }
    if let Some(k) = position.king() {
        let lines = king_lines(position, k);
        for sq in lines.path {
            contents[sq.index()] = Content::FreeLine;
        }
        for sq in lines.goals {
            contents[sq.index()] = Content::Goal;
        }
        let escaped = (position.escape_squares() & Bitboard::from_square(k)).any();
        contents[k.index()] = Content::King {
            danger: position.king_capturable(),
            free: lines.goals.any() || escaped,
        };
    }
    if let Some(last) = last {
        let captive = match last.side {
            Side::Attackers => Captive::Defender,
            Side::Defenders => Captive::Attacker,
        };
        for sq in last.captured {
            if position.piece_at(sq).is_none() {
                contents[sq.index()] = Content::Captured(captive);
            }
        }
        if let Some(k) = captured_king_square(position, last) {
            contents[k.index()] = Content::Captured(Captive::King);
        }
        highlights[last.mv.from.index()] = Highlight::From;
        highlights[last.mv.to.index()] = Highlight::To;
    }
    let mut squares = [SpriteId(0); SQUARES];
    for sq in variant.squares() {
        let ground = if sq == castle {
            Cloth::Castle
        } else if corners && sq.is_corner_on(size) {
            Cloth::Refuge
        } else {
            Cloth::Plain
        };
        squares[sq.index()] = SpriteId::of(ground, highlights[sq.index()], contents[sq.index()]);
    }
    Scene { variant, squares }
}

/// The king's free lines: the winning squares he could reach next move, and the squares on
/// the way to them.
struct KingLines {
    goals: Bitboard,
    path: Bitboard,
}

fn king_lines(position: &Position, king: Square) -> KingLines {
    let mut lines = KingLines {
        goals: Bitboard::EMPTY,
        path: Bitboard::EMPTY,
    };
    if position.king_free_lines() == 0 {
        return lines;
    }
    let as_defenders = position.with_turn(Side::Defenders);
    lines.goals = as_defenders.destinations(king) & position.escape_squares();
    for goal in lines.goals {
        if let Some(between) = king.line_between(goal) {
            for sq in between {
                lines.path = lines.path.with(sq);
            }
        }
    }
    lines
}

/// A picture as palette indices, `IMAGE_PX` square, in the palette of its board's assets.
pub struct Canvas {
    pub px: Vec<u8>,
    pub assets: &'static Assets,
}

impl Canvas {
    /// The frame and an empty board of a variant.
    pub fn new(variant: Variant) -> Canvas {
        let assets = assets(variant);
        Canvas {
            px: assets.background.clone(),
            assets,
        }
    }

    /// Draws one square.
    pub fn square(&mut self, sq: Square, id: SpriteId) {
        let layout = &self.assets.layout;
        let (x, y) = layout.square_origin(sq);
        let sprite = self.assets.sprite(id);
        let n = layout.square_px as usize;
        for row in 0..n {
            let start = (y as usize + row) * IMAGE_PX as usize + x as usize;
            self.px[start..start + n].copy_from_slice(&sprite[row * n..(row + 1) * n]);
        }
    }

    /// Draws every square of a scene (of this canvas's board size).
    pub fn scene(&mut self, scene: &Scene) {
        debug_assert_eq!(scene.variant.size(), self.assets.layout.size);
        for sq in scene.variant.squares() {
            self.square(sq, scene.squares[sq.index()]);
        }
    }

    /// Writes a caption in the band under the board (clearing what was there).
    pub fn caption(&mut self, caption: &str) {
        let layout = &self.assets.layout;
        let start = (layout.caption_top * IMAGE_PX) as usize;
        self.px[start..].copy_from_slice(&self.assets.background[start..]);
        let margin = 16;
        let area = (
            margin,
            layout.caption_top,
            IMAGE_PX - 2 * margin,
            layout.caption_px,
        );
        draw_text(
            &mut self.px,
            IMAGE_PX,
            area,
            caption,
            24.0,
            15.0,
            Align::Centre,
        );
    }
}

/// A board as palette indices.
pub fn board_canvas(
    position: &Position,
    last: Option<&RecordedMove>,
    caption: Option<&str>,
) -> Canvas {
    let mut canvas = Canvas::new(position.variant());
    canvas.scene(&scene(position, last));
    if let Some(caption) = caption {
        canvas.caption(caption);
    }
    canvas
}

/// How the board PNG is compressed: the rows unfiltered, then zlib-rs's deflate at this level
/// (its `deflate_fast`, hash chains of four). At level 2 it makes the busiest sample boards
/// about a fifth smaller than flate2's miniz_oxide at level 1 (one probe, after the `Up` row
/// filter) did, for no more instructions; `cargo bench --bench render` measures the other
/// choices beside it.
pub const PNG_LEVEL: i32 = 2;

/// Encodes palette indices as an 8-bit indexed PNG: the rows unfiltered, compressed in one
/// call (zlib-rs), and written as one `IDAT` chunk. Unfiltered because deflate's matches find
/// the row above by themselves: a board repeats whole rows and whole squares, which the `Up`
/// filter's differences of palette indices only hid from the hash chains.
pub fn encode_png(canvas: &Canvas) -> Vec<u8> {
    encode_png_level(canvas, PNG_LEVEL)
}

/// Each row of `px` (`width` pixels a row) after its filter byte, 0 (none).
fn unfiltered_rows(px: &[u8], width: u32) -> Vec<u8> {
    let w = width as usize;
    let mut rows = Vec::with_capacity(px.len() + px.len() / w.max(1));
    for row in px.chunks_exact(w) {
        rows.push(0);
        rows.extend_from_slice(row);
    }
    rows
}

/// [`encode_png`] at another zlib-rs level (for the benchmark).
pub fn encode_png_level(canvas: &Canvas, level: i32) -> Vec<u8> {
    indexed_png(
        IMAGE_PX,
        IMAGE_PX,
        &canvas.assets.palette,
        &canvas.px,
        level,
    )
}

/// An 8-bit indexed PNG of `width` × `height` palette indices in `palette` (RGB triples): the
/// rows unfiltered, compressed in one call by zlib-rs at `level`, in one `IDAT` chunk. Every
/// indexed image of the renderer is written by this.
pub fn indexed_png(width: u32, height: u32, palette: &[u8], px: &[u8], level: i32) -> Vec<u8> {
    let rows = unfiltered_rows(px, width);
    let mut zlib = zlib_rs::Deflate::new(level, true, 15);
    // A board takes 25 to 35 KB; the buffer grows if an image ever takes more.
    let mut idat = vec![0; 64 * 1024];
    loop {
        let (read, written) = (zlib.total_in() as usize, zlib.total_out() as usize);
        let status = zlib
            .compress(
                &rows[read..],
                &mut idat[written..],
                zlib_rs::DeflateFlush::Finish,
            )
            .expect("deflate into memory cannot fail");
        if status == zlib_rs::Status::StreamEnd {
            break;
        }
        idat.resize(idat.len() * 2, 0);
    }
    idat.truncate(zlib.total_out() as usize);
    indexed_png_file(width, height, palette, &idat)
}

/// The PNG file of an 8-bit indexed image in the canvas's palette, its pixels compressed into
/// `idat` (a zlib stream of the filtered rows).
pub fn png_file(canvas: &Canvas, idat: &[u8]) -> Vec<u8> {
    indexed_png_file(IMAGE_PX, IMAGE_PX, &canvas.assets.palette, idat)
}

/// The PNG file of an 8-bit indexed image: the header, the palette and one `IDAT` chunk.
fn indexed_png_file(width: u32, height: u32, palette: &[u8], idat: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(idat.len() + 1024);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette);
    let mut writer = encoder
        .write_header()
        .expect("writing to a Vec cannot fail");
    writer
        .write_chunk(png::chunk::IDAT, idat)
        .expect("writing to a Vec cannot fail");
    writer.finish().expect("writing to a Vec cannot fail");
    out
}

/// The same image encoded by the `png` crate's own writer, at a compression and row filter
/// (for the benchmark, beside [`encode_png`]).
pub fn encode_png_with(
    canvas: &Canvas,
    compression: png::DeflateCompression,
    filter: png::Filter,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(48 * 1024);
    let mut encoder = png::Encoder::new(&mut out, IMAGE_PX, IMAGE_PX);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(&canvas.assets.palette[..]);
    encoder.set_deflate_compression(compression);
    encoder.set_filter(filter);
    let mut writer = encoder
        .write_header()
        .expect("writing to a Vec cannot fail");
    writer
        .write_image_data(&canvas.px)
        .expect("the canvas holds IMAGE_PX² indices");
    writer.finish().expect("writing to a Vec cannot fail");
    out
}

/// One delay of the replay, in hundredths of a second.
const PLY_DELAY: u16 = 80;
const LAST_DELAY: u16 = 400;

/// An animated GIF of a game: the start and one frame per ply, each after the first holding
/// only the rectangle that changed, with unchanged pixels transparent, compressed by the `gif`
/// crate (weezl). `cargo bench --bench render` measures it beside the hand-written LZW encoder
/// it replaced: about three times slower, within the 150 ms target.
///
/// Each frame is compressed as soon as it is drawn and then dropped: what a replay holds at
/// once is the canvas, the previous frame's pixels and the GIF written so far, whatever the
/// game's length (docs/BENCHMARKS.md, "Replay memory").
pub fn encode_replay(game: &Game, caption: &dyn Fn(usize) -> String) -> Vec<u8> {
    let palette = &assets(game.start().variant()).palette;
    write_gif(palette, replay_frames(game, caption), |frame, encoder| {
        encoder.write_frame(frame)
    })
}

/// The frames of a game's replay, as palette indices (not yet compressed), drawn one at a
/// time as they are asked for, each with the caption `caption` gives for its ply (none when
/// it is empty).
pub fn replay_frames<'a>(game: &'a Game, caption: &'a dyn Fn(usize) -> String) -> ReplayFrames<'a> {
    let variant = game.start().variant();
    ReplayFrames {
        game,
        caption,
        ply: 0,
        canvas: Canvas::new(variant),
        previous: Vec::new(),
    }
}

/// The frames of a replay ([`replay_frames`]): each drawn on one canvas over the one before,
/// the previous frame's pixels kept to find what changed.
pub struct ReplayFrames<'a> {
    game: &'a Game,
    /// A frame's caption, by its ply.
    caption: &'a dyn Fn(usize) -> String,
    ply: usize,
    canvas: Canvas,
    /// The pixels of the frame before (empty before the first).
    previous: Vec<u8>,
}

impl Iterator for ReplayFrames<'_> {
    type Item = gif::Frame<'static>;

    fn next(&mut self) -> Option<gif::Frame<'static>> {
        let positions = self.game.positions();
        let ply = self.ply;
        let position = positions.get(ply)?;
        self.ply += 1;
        let last = if ply == 0 {
            None
        } else {
            self.game.moves().get(ply - 1)
        };
        self.canvas.scene(&scene(position, last));
        // Drawn over the frame before's: an empty caption clears it.
        self.canvas.caption(&(self.caption)(ply));
        let delay = if ply + 1 == positions.len() {
            LAST_DELAY
        } else {
            PLY_DELAY
        };
        let frame = if ply == 0 {
            gif::Frame {
                width: IMAGE_PX as u16,
                height: IMAGE_PX as u16,
                buffer: std::borrow::Cow::Owned(self.canvas.px.clone()),
                delay,
                ..gif::Frame::default()
            }
        } else {
            delta_frame(&self.previous, &self.canvas.px, delay)
        };
        self.previous.clear();
        self.previous.extend_from_slice(&self.canvas.px);
        Some(frame)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.game.positions().len() - self.ply.min(self.game.positions().len());
        (left, Some(left))
    }
}

/// A GIF of `frames` in `palette` (the board's: [`Assets::palette`]), looping, each written by
/// `write` as it comes (the `gif` crate's encoder for the replay; the benchmark passes the
/// hand-written baseline too), so that only one frame is held uncompressed at a time.
pub fn write_gif<'f>(
    palette: &[u8],
    frames: impl IntoIterator<Item = gif::Frame<'f>>,
    write: impl Fn(&gif::Frame<'_>, &mut gif::Encoder<&mut Vec<u8>>) -> Result<(), gif::EncodingError>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 * 1024);
    {
        let size = IMAGE_PX as u16;
        let mut encoder =
            gif::Encoder::new(&mut out, size, size, palette).expect("writing to a Vec cannot fail");
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .expect("writing to a Vec cannot fail");
        for frame in frames {
            write(&frame, &mut encoder).expect("writing to a Vec cannot fail");
        }
    }
    out
}

/// The pixels that changed between two pictures, cropped to the rectangle that holds them,
/// with every unchanged pixel transparent.
fn delta_frame(before: &[u8], after: &[u8], delay: u16) -> gif::Frame<'static> {
    let w = IMAGE_PX as usize;
    let (mut x0, mut y0, mut x1, mut y1) = (w, w, 0, 0);
    for (y, (a, b)) in before.chunks(w).zip(after.chunks(w)).enumerate() {
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = w - a.iter().zip(b).rev().position(|(p, q)| p != q).unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last);
        y0 = y0.min(y);
        y1 = y1.max(y + 1);
    }
    if x0 >= x1 {
        // Nothing changed: one transparent pixel.
        return gif::Frame {
            width: 1,
            height: 1,
            buffer: std::borrow::Cow::Owned(vec![TRANSPARENT]),
            transparent: Some(TRANSPARENT),
            delay,
            ..gif::Frame::default()
        };
    }
    let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        let a = &before[y * w + x0..y * w + x1];
        let b = &after[y * w + x0..y * w + x1];
        buffer.extend(
            a.iter()
                .zip(b)
                .map(|(&p, &q)| if p == q { TRANSPARENT } else { q }),
        );
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0) as u16,
        height: (y1 - y0) as u16,
        buffer: std::borrow::Cow::Owned(buffer),
        transparent: Some(TRANSPARENT),
        dispose: gif::DisposalMethod::Keep,
        delay,
        ..gif::Frame::default()
    }
}
