//! Everything drawn once, at first use: the palette, one sprite for every kind of square
//! (background × highlight × content) and the frame with its labels.
//!
//! Sprites are drawn anti-aliased at four times their size with imageproc, shrunk with a box
//! filter, laid over their square's cloth and then mapped to a shared 256-colour palette, so a
//! board is afterwards only copies of palette indices.

use super::font::TEXT_LEVELS;
use super::text::{draw_text, Align};
use super::theme::*;
use crate::tafl::{Square, Variant};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_polygon_mut};
use imageproc::point::Point;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The palette index never used by a picture: transparent in replay frames.
pub const TRANSPARENT: u8 = 255;

/// What stands on a square, as drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    Empty,
    Attacker,
    Defender,
    King {
        danger: bool,
        free: bool,
    },
    /// A piece the last move captured: its ghost, struck through.
    Captured(Captive),
    /// A square on the king's free line to a winning square.
    FreeLine,
    /// A winning square the king can reach next move.
    Goal,
}

/// The kind of a captured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Captive {
    Attacker,
    Defender,
    King,
}

impl Content {
    pub const COUNT: usize = 12;

    pub const fn index(self) -> usize {
        match self {
            Content::Empty => 0,
            Content::Attacker => 1,
            Content::Defender => 2,
            Content::King { danger, free } => 3 + danger as usize * 2 + free as usize,
            Content::Captured(Captive::Attacker) => 7,
            Content::Captured(Captive::Defender) => 8,
            Content::Captured(Captive::King) => 9,
            Content::FreeLine => 10,
            Content::Goal => 11,
        }
    }

    const ALL: [Content; Content::COUNT] = [
        Content::Empty,
        Content::Attacker,
        Content::Defender,
        Content::King {
            danger: false,
            free: false,
        },
        Content::King {
            danger: false,
            free: true,
        },
        Content::King {
            danger: true,
            free: false,
        },
        Content::King {
            danger: true,
            free: true,
        },
        Content::Captured(Captive::Attacker),
        Content::Captured(Captive::Defender),
        Content::Captured(Captive::King),
        Content::FreeLine,
        Content::Goal,
    ];
}

/// The cloth of a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cloth {
    Plain,
    /// The castle, drawn as the king's fort.
    Castle,
    /// A corner under corner rules: a refuge only the king may enter.
    Refuge,
}

impl Cloth {
    pub const COUNT: usize = 3;
    const ALL: [Cloth; Cloth::COUNT] = [Cloth::Plain, Cloth::Castle, Cloth::Refuge];
}

/// Whether the last move touched a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Highlight {
    None,
    From,
    To,
}

impl Highlight {
    pub const COUNT: usize = 3;
    const ALL: [Highlight; Highlight::COUNT] = [Highlight::None, Highlight::From, Highlight::To];
}

/// A square as drawn: an index into [`Assets::sprites`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpriteId(pub u16);

impl SpriteId {
    pub const fn of(ground: Cloth, highlight: Highlight, content: Content) -> SpriteId {
        let g = ground as usize;
        let h = highlight as usize;
        SpriteId(((g * Highlight::COUNT + h) * Content::COUNT + content.index()) as u16)
    }
}

/// The drawn-once parts of every image of one board size.
pub struct Assets {
    /// Where the board, its squares and its labels sit.
    pub layout: Layout,
    /// 256 RGB entries.
    pub palette: Vec<u8>,
    /// Every square's sprite, `layout.square_px`² palette indices each, in [`SpriteId`] order.
    pub sprites: Vec<u8>,
    /// The image with its frame, labels and an empty plain board, as palette indices.
    pub background: Vec<u8>,
}

impl Assets {
    /// The palette indices of one sprite, row by row.
    pub fn sprite(&self, id: SpriteId) -> &[u8] {
        let n = (self.layout.square_px * self.layout.square_px) as usize;
        &self.sprites[id.0 as usize * n..(id.0 as usize + 1) * n]
    }
}

static TABLUT_ASSETS: LazyLock<Assets> = LazyLock::new(|| build(TABLUT));
static BRANDUBH_ASSETS: LazyLock<Assets> = LazyLock::new(|| build(BRANDUBH));
static COPENHAGEN_ASSETS: LazyLock<Assets> = LazyLock::new(|| build(COPENHAGEN));
static COPENHAGEN13_ASSETS: LazyLock<Assets> = LazyLock::new(|| build(COPENHAGEN13));

/// The assets of a variant's board, drawn at the first call for that board size. Each size has
/// its own sprites, frame and palette (so Tablut's image is the same whatever other boards
/// are drawn).
pub fn assets(variant: Variant) -> &'static Assets {
    match variant {
        Variant::Tablut => &TABLUT_ASSETS,
        Variant::Brandubh => &BRANDUBH_ASSETS,
        Variant::Copenhagen => &COPENHAGEN_ASSETS,
        Variant::Copenhagen13 => &COPENHAGEN13_ASSETS,
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing at four times the size.

/// Supersampling factor.
const SS: u32 = 4;

/// A transparent layer at four times the sprite size, drawn in sprite coordinates (pixels of
/// the final sprite, fractions allowed).
struct Layer {
    img: RgbaImage,
}

fn rgba(c: Rgb, a: u8) -> Rgba<u8> {
    Rgba([c[0], c[1], c[2], a])
}

impl Layer {
    fn new(size: u32) -> Layer {
        Layer {
            img: RgbaImage::new(size * SS, size * SS),
        }
    }

    fn circle(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        let s = SS as f32;
        draw_filled_circle_mut(
            &mut self.img,
            ((cx * s).round() as i32, (cy * s).round() as i32),
            (r * s).round() as i32,
            rgba(c, 255),
        );
    }

    /// Fills a polygon given by its corners (not closed: the first corner is not repeated).
    fn polygon(&mut self, pts: &[(f32, f32)], c: Rgb) {
        let s = SS as f32;
        let mut points: Vec<Point<i32>> = pts
            .iter()
            .map(|&(x, y)| Point::new((x * s).round() as i32, (y * s).round() as i32))
            .collect();
        points.dedup();
        while points.len() > 1 && points.first() == points.last() {
            points.pop();
        }
        if points.len() >= 3 {
            draw_polygon_mut(&mut self.img, &points, rgba(c, 255));
        }
    }

    fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgb) {
        self.polygon(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)], c);
    }

    /// A thick line from one point to another.
    fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, c: Rgb) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
        self.polygon(
            &[
                (a.0 + nx, a.1 + ny),
                (b.0 + nx, b.1 + ny),
                (b.0 - nx, b.1 - ny),
                (a.0 - nx, a.1 - ny),
            ],
            c,
        );
    }

    /// Keeps only the pixels inside `mask` (by its alpha).
    fn clip(&mut self, mask: &Layer) {
        // On the raw bytes (four a pixel): the image crate's pixel iterators are slow in debug
        // builds, where the sprites are drawn as the bot starts.
        let mask: &[u8] = mask.img.as_raw();
        let img: &mut [u8] = &mut self.img;
        for (p, m) in img.chunks_exact_mut(4).zip(mask.chunks_exact(4)) {
            if m[3] == 0 {
                p.fill(0);
            }
        }
    }

    /// Lays `top` over this layer.
    fn stack(&mut self, top: &Layer) {
        let top: &[u8] = top.img.as_raw();
        let img: &mut [u8] = &mut self.img;
        for (p, t) in img.chunks_exact_mut(4).zip(top.chunks_exact(4)) {
            if t[3] != 0 {
                p.copy_from_slice(t);
            }
        }
    }

    /// Shrinks to the sprite size with a box filter, alpha premultiplied; `opacity` scales
    /// the result's alpha.
    fn shrink(&self, opacity: f32) -> RgbaImage {
        let w = self.img.width() / SS;
        let h = self.img.height() / SS;
        let stride = (self.img.width() * 4) as usize;
        let raw: &[u8] = self.img.as_raw();
        let mut out = RgbaImage::new(w, h);
        for y in 0..h {
            for x in 0..w {
                let mut acc = [0f32; 4];
                for sy in 0..SS {
                    let row = (y * SS + sy) as usize * stride;
                    for sx in 0..SS {
                        let i = row + ((x * SS + sx) * 4) as usize;
                        let p = &raw[i..i + 4];
                        let a = p[3] as f32 / 255.0;
                        acc[0] += p[0] as f32 * a;
                        acc[1] += p[1] as f32 * a;
                        acc[2] += p[2] as f32 * a;
                        acc[3] += a;
                    }
                }
                let n = (SS * SS) as f32;
                let a = acc[3] / n;
                let px = if a <= 0.0 {
                    Rgba([0, 0, 0, 0])
                } else {
                    Rgba([
                        (acc[0] / acc[3]).round() as u8,
                        (acc[1] / acc[3]).round() as u8,
                        (acc[2] / acc[3]).round() as u8,
                        (a * opacity * 255.0).round() as u8,
                    ])
                };
                out.put_pixel(x, y, px);
            }
        }
        out
    }
}

fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let f = |x: u8, y: u8| (x as f32 + (y as f32 - x as f32) * t).round() as u8;
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2])]
}

/// An opaque RGB picture.
struct Picture {
    w: u32,
    px: Vec<Rgb>,
}

impl Picture {
    fn new(w: u32, h: u32, c: Rgb) -> Picture {
        Picture {
            w,
            px: vec![c; (w * h) as usize],
        }
    }

    fn set(&mut self, x: u32, y: u32, c: Rgb) {
        let i = (y * self.w + x) as usize;
        self.px[i] = c;
    }

    fn fill(&mut self, x0: u32, y0: u32, x1: u32, y1: u32, c: Rgb) {
        for y in y0..y1 {
            for x in x0..x1 {
                self.set(x, y, c);
            }
        }
    }

    /// Lays a transparent image of this picture's size over it.
    fn over(&mut self, img: &RgbaImage) {
        self.paint(&Overlay::of(img));
    }

    /// Lays an overlay of this picture's size over it.
    fn paint(&mut self, overlay: &Overlay) {
        for &(i, c, a) in &overlay.0 {
            self.px[i] = mix(self.px[i], c, a);
        }
    }
}

/// The pixels of a transparent image that are not fully transparent: index, colour, opacity
/// (taken out once, and laid over the many grounds of the sprites).
struct Overlay(Vec<(usize, Rgb, f32)>);

impl Overlay {
    fn of(img: &RgbaImage) -> Overlay {
        let raw: &[u8] = img.as_raw();
        Overlay(
            raw.chunks_exact(4)
                .enumerate()
                .filter_map(|(i, p)| {
                    let a = p[3] as f32 / 255.0;
                    (a > 0.0).then_some((i, [p[0], p[1], p[2]], a))
                })
                .collect(),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// The squares.

/// The size a square's pictures are drawn at: `n` pixels a side (`s` as a float), and `k` the
/// scale from Tablut's 68-pixel square, in which every length below is given (1 for Tablut,
/// so its pictures are exactly as they were drawn before other sizes).
#[derive(Debug, Clone, Copy)]
struct Px {
    n: u32,
    s: f32,
    k: f32,
}

impl Px {
    fn new(n: u32) -> Px {
        Px {
            n,
            s: n as f32,
            k: n as f32 / 68.0,
        }
    }

    fn layer(self) -> Layer {
        Layer::new(self.n)
    }
}

/// The cloth of a square with its highlight: linen with a running stitch along its sides, or
/// a fort.
fn ground(px: Px, kind: Cloth, highlight: Highlight) -> Picture {
    let tint = |c: Rgb| match highlight {
        Highlight::None => c,
        Highlight::From => mix(c, MOVE_FROM, 0.55),
        Highlight::To => mix(c, MOVE_TO, 0.7),
    };
    let n = px.n;
    let cloth = match kind {
        Cloth::Plain => LINEN,
        Cloth::Castle => FORT_CLOTH,
        Cloth::Refuge => REFUGE_CLOTH,
    };
    let mut pic = Picture::new(n, n, tint(cloth));
    if kind != Cloth::Plain {
        let wall = if kind == Cloth::Castle {
            FORT_WALL
        } else {
            REFUGE_WALL
        };
        pic.over(&fort(px, wall, tint(cloth)).shrink(1.0));
    }
    // The running stitch on the square's sides (half of each seam; the neighbour draws the
    // other half).
    let stitch = tint(STITCH);
    for i in 0..n {
        if (i + 2) % 8 < 5 {
            for (x, y) in [(i, 0), (i, n - 1), (0, i), (n - 1, i)] {
                pic.set(x, y, stitch);
            }
        }
    }
    pic
}

/// The king's fort, seen from above: a crenellated wall with towers at the corners and a
/// diamond in the courtyard.
fn fort(px: Px, wall: Rgb, cloth: Rgb) -> Layer {
    let (s, k) = (px.s, px.k);
    let mut l = px.layer();
    let (a, b) = (7.0 * k, 13.0 * k); // the wall runs between these insets
    l.rect(a, a, s - a, b, wall);
    l.rect(a, s - b, s - a, s - a, wall);
    l.rect(a, a, b, s - a, wall);
    l.rect(s - b, a, s - a, s - a, wall);
    // Merlons on the outer side of the wall.
    let step = (s - 2.0 * a) / 7.0;
    let m = 3.5 * k;
    for i in 0..7 {
        if i % 2 == 0 {
            continue;
        }
        let t = a + i as f32 * step;
        l.rect(t, m, t + step, a, wall);
        l.rect(t, s - a, t + step, s - m, wall);
        l.rect(m, t, a, t + step, wall);
        l.rect(s - a, t, s - m, t + step, wall);
    }
    // Corner towers.
    let tower = 5.0 * k;
    for (x, y) in [(a, a), (s - a, a), (a, s - a), (s - a, s - a)] {
        l.rect(x - tower, y - tower, x + tower, y + tower, wall);
    }
    // The courtyard's diamond.
    let c = s / 2.0;
    let d = 10.0 * k;
    l.polygon(&[(c, c - d), (c + d, c), (c, c + d), (c - d, c)], wall);
    let mut hole = px.layer();
    let d = 5.5 * k;
    hole.polygon(&[(c, c - d), (c + d, c), (c, c + d), (c - d, c)], cloth);
    l.stack(&hole);
    l
}

/// A heater shield's outline: flat top, straight sides, curving to a point.
fn heater(cx: f32, top: f32, w: f32, h: f32) -> Vec<(f32, f32)> {
    let (l, r) = (cx - w / 2.0, cx + w / 2.0);
    let shoulder = top + h * 0.42;
    let bottom = top + h;
    let mut pts = vec![(l, top), (r, top), (r, shoulder)];
    // Right side: a quadratic curve from the shoulder to the point.
    let n = 16;
    for k in 1..=n {
        let t = k as f32 / n as f32;
        let (p0, p1, p2) = ((r, shoulder), (r, bottom - h * 0.18), (cx, bottom));
        let x = (1.0 - t) * (1.0 - t) * p0.0 + 2.0 * (1.0 - t) * t * p1.0 + t * t * p2.0;
        let y = (1.0 - t) * (1.0 - t) * p0.1 + 2.0 * (1.0 - t) * t * p1.1 + t * t * p2.1;
        pts.push((x, y));
    }
    for k in (0..n).rev() {
        let t = k as f32 / n as f32;
        let (p0, p1, p2) = ((l, shoulder), (l, bottom - h * 0.18), (cx, bottom));
        let x = (1.0 - t) * (1.0 - t) * p0.0 + 2.0 * (1.0 - t) * t * p1.0 + t * t * p2.0;
        let y = (1.0 - t) * (1.0 - t) * p0.1 + 2.0 * (1.0 - t) * t * p1.1 + t * t * p2.1;
        pts.push((x, y));
    }
    pts
}

/// A soft shadow under a piece.
fn shadow(px: Px, shape: impl Fn(&mut Layer, Px)) -> RgbaImage {
    let mut l = px.layer();
    shape(&mut l, px);
    l.shrink(0.28)
}

/// An attacker: a round blue shield, quartered in two blues, with a dark rim and a steel
/// boss.
fn attacker(px: Px) -> Layer {
    let (s, k) = (px.s, px.k);
    let mut l = px.layer();
    let c = s / 2.0;
    let r = s * 0.40;
    l.circle(c, c, r, ATTACKER_DARK);
    l.circle(c, c, r - 3.0 * k, ATTACKER);
    let mut quarters = px.layer();
    for q in [0.0f32, 2.0] {
        let mut pts = vec![(c, c)];
        for j in 0..=12 {
            let a =
                (q + j as f32 / 12.0) * std::f32::consts::FRAC_PI_2 + std::f32::consts::FRAC_PI_4;
            pts.push((c + a.cos() * r, c + a.sin() * r));
        }
        quarters.polygon(&pts, ATTACKER_LIGHT);
    }
    let mut field = px.layer();
    field.circle(c, c, r - 3.0 * k, ATTACKER);
    quarters.clip(&field);
    l.stack(&quarters);
    l.circle(c, c, s * 0.14 + 2.0 * k, ATTACKER_DARK);
    l.circle(c, c, s * 0.14, ATTACKER_BOSS);
    l.circle(
        c - 4.0 * k,
        c - 4.0 * k,
        2.2 * k,
        mix(ATTACKER_BOSS, [255, 255, 255], 0.5),
    );
    l
}

/// A defender: a pointed red shield with a cream cross.
fn defender(px: Px) -> Layer {
    let (s, k) = (px.s, px.k);
    let mut l = px.layer();
    let (cx, top, w, h) = (s / 2.0, s * 0.14, s * 0.64, s * 0.74);
    l.polygon(&heater(cx, top, w, h), DEFENDER_DARK);
    let inner = heater(cx, top + 3.0 * k, w - 6.0 * k, h - 7.0 * k);
    l.polygon(&inner, DEFENDER);
    let mut cross = px.layer();
    let cy = top + h * 0.40;
    let arm = 3.5 * k;
    cross.rect(cx - arm, top, cx + arm, top + h, DEFENDER_CROSS);
    cross.rect(
        cx - w / 2.0,
        cy - arm,
        cx + w / 2.0,
        cy + arm,
        DEFENDER_CROSS,
    );
    let mut mask = px.layer();
    mask.polygon(&inner, DEFENDER);
    cross.clip(&mask);
    l.stack(&cross);
    l
}

/// The king: a larger red shield with a gold rim and a gold sun, under a gold crown.
fn king(px: Px) -> Layer {
    let (s, k) = (px.s, px.k);
    let mut l = px.layer();
    let (cx, top, w, h) = (s / 2.0, s * 0.30, s * 0.72, s * 0.64);
    // The crown: a band with three points, above the shield.
    let (cb, ct) = (top + 2.0 * k, s * 0.05);
    let crown = [
        (cx - 17.0 * k, cb),
        (cx - 19.0 * k, ct + 4.0 * k),
        (cx - 9.5 * k, ct + 11.0 * k),
        (cx, ct),
        (cx + 9.5 * k, ct + 11.0 * k),
        (cx + 19.0 * k, ct + 4.0 * k),
        (cx + 17.0 * k, cb),
    ];
    l.polygon(&crown, GOLD_DARK);
    let inner_crown = [
        (cx - 14.5 * k, cb),
        (cx - 16.0 * k, ct + 8.0 * k),
        (cx - 9.5 * k, ct + 14.0 * k),
        (cx, ct + 4.0 * k),
        (cx + 9.5 * k, ct + 14.0 * k),
        (cx + 16.0 * k, ct + 8.0 * k),
        (cx + 14.5 * k, cb),
    ];
    l.polygon(&inner_crown, GOLD);
    for x in [cx - 17.5 * k, cx, cx + 17.5 * k] {
        let y = if x == cx { ct + 1.0 * k } else { ct + 3.5 * k };
        l.circle(x, y, 3.0 * k, GOLD_DARK);
        l.circle(x, y, 1.8 * k, GOLD);
    }
    l.polygon(&heater(cx, top, w, h), GOLD_DARK);
    l.polygon(&heater(cx, top + 2.0 * k, w - 4.0 * k, h - 4.5 * k), GOLD);
    let inner = heater(cx, top + 5.0 * k, w - 10.0 * k, h - 11.0 * k);
    l.polygon(&inner, KING);
    // A gold sun in the middle.
    let cy = top + h * 0.40;
    let mut sun = px.layer();
    let ray = 11.0 * k;
    for i in 0..8 {
        let a = i as f32 * std::f32::consts::PI / 4.0;
        sun.line(
            (cx, cy),
            (cx + a.cos() * ray, cy + a.sin() * ray),
            3.0 * k,
            GOLD,
        );
    }
    sun.circle(cx, cy, 7.0 * k, GOLD_DARK);
    sun.circle(cx, cy, 5.5 * k, GOLD);
    let mut mask = px.layer();
    mask.polygon(&inner, KING);
    sun.clip(&mask);
    l.stack(&sun);
    l
}

fn attacker_shadow(l: &mut Layer, Px { s, k, .. }: Px) {
    l.circle(s / 2.0 + 1.5 * k, s / 2.0 + 2.5 * k, s * 0.40, [0, 0, 0]);
}

fn defender_shadow(l: &mut Layer, Px { s, k, .. }: Px) {
    l.polygon(
        &heater(s / 2.0 + 1.5 * k, s * 0.14 + 2.5 * k, s * 0.64, s * 0.74),
        [0, 0, 0],
    );
}

fn king_shadow(l: &mut Layer, Px { s, k, .. }: Px) {
    l.polygon(
        &heater(s / 2.0 + 1.5 * k, s * 0.30 + 2.5 * k, s * 0.72, s * 0.64),
        [0, 0, 0],
    );
}

/// A red glow filling the king's square, strongest under him: he can be captured next move.
fn danger_glow(px: Px) -> RgbaImage {
    let n = px.n;
    let mut img = RgbaImage::new(n, n);
    let c = px.s / 2.0 - 0.5;
    let far = c * std::f32::consts::SQRT_2;
    for (x, y, p) in img.enumerate_pixels_mut() {
        let d = ((x as f32 - c).powi(2) + (y as f32 - c).powi(2)).sqrt() / far;
        let a = 0.95 - 0.5 * d.clamp(0.0, 1.0);
        *p = rgba(DANGER, (a * 255.0) as u8);
    }
    img
}

/// A ring of running stitch round the king or a goal square.
fn ring(px: Px, r: f32, width: f32, c: Rgb, dashes: u32) -> Layer {
    let mut l = px.layer();
    let centre = px.s / 2.0;
    let n = dashes * 2;
    for k in 0..n {
        if k % 2 == 1 {
            continue;
        }
        let a0 = k as f32 / n as f32 * std::f32::consts::TAU;
        let a1 = (k + 1) as f32 / n as f32 * std::f32::consts::TAU;
        let mut pts = Vec::new();
        for j in 0..=6 {
            let a = a0 + (a1 - a0) * j as f32 / 6.0;
            pts.push((
                centre + a.cos() * (r + width / 2.0),
                centre + a.sin() * (r + width / 2.0),
            ));
        }
        for j in (0..=6).rev() {
            let a = a0 + (a1 - a0) * j as f32 / 6.0;
            pts.push((
                centre + a.cos() * (r - width / 2.0),
                centre + a.sin() * (r - width / 2.0),
            ));
        }
        l.polygon(&pts, c);
    }
    l
}

/// A cross stitch over a captured piece.
fn capture_cross(px: Px) -> Layer {
    let mut l = px.layer();
    let (a, b) = (px.s * 0.2, px.s * 0.8);
    l.line((a, a), (b, b), 7.0 * px.k, CAPTURE_MARK);
    l.line((a, b), (b, a), 7.0 * px.k, CAPTURE_MARK);
    l
}

/// The layers of a square's content, bottom first, each already shrunk.
fn content_layers(px: Px, content: Content) -> Vec<RgbaImage> {
    let (s, k) = (px.s, px.k);
    match content {
        Content::Empty => vec![],
        Content::Attacker => vec![shadow(px, attacker_shadow), attacker(px).shrink(1.0)],
        Content::Defender => vec![shadow(px, defender_shadow), defender(px).shrink(1.0)],
        Content::King { danger, free } => {
            let mut v = Vec::new();
            if danger {
                v.push(danger_glow(px));
            }
            if free {
                v.push(ring(px, s * 0.44, 4.0 * k, FREE_LINE, 12).shrink(1.0));
            }
            v.push(shadow(px, king_shadow));
            v.push(king(px).shrink(1.0));
            v
        }
        Content::Captured(captive) => {
            let ghost = match captive {
                Captive::Attacker => attacker(px),
                Captive::Defender => defender(px),
                Captive::King => king(px),
            };
            vec![ghost.shrink(0.35), capture_cross(px).shrink(1.0)]
        }
        Content::FreeLine => {
            let mut l = px.layer();
            l.circle(s / 2.0, s / 2.0, 6.0 * k, FREE_LINE);
            vec![l.shrink(1.0)]
        }
        Content::Goal => {
            let mut l = ring(px, s * 0.30, 5.0 * k, FREE_LINE, 8);
            l.circle(s / 2.0, s / 2.0, 7.0 * k, FREE_LINE);
            vec![l.shrink(1.0)]
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The frame.

/// The frame: dark blue wool, with a band of red and yellow cross stitch round the board.
fn frame(layout: &Layout) -> Picture {
    let mut pic = Picture::new(IMAGE_PX, IMAGE_PX, FRAME);
    let (x0, y0) = (layout.board_left, layout.board_top);
    let (x1, y1) = (x0 + layout.board_px, y0 + layout.board_px);
    // Rings outwards from the board: yellow 2, red 6 (with yellow stitches), yellow 2.
    let ring = |pic: &mut Picture, d0: u32, d1: u32, c: Rgb| {
        pic.fill(x0 - d1, y0 - d1, x1 + d1, y0 - d0, c);
        pic.fill(x0 - d1, y1 + d0, x1 + d1, y1 + d1, c);
        pic.fill(x0 - d1, y0 - d0, x0 - d0, y1 + d0, c);
        pic.fill(x1 + d0, y0 - d0, x1 + d1, y1 + d0, c);
    };
    ring(&mut pic, 0, 2, BAND_YELLOW);
    ring(&mut pic, 2, 8, BAND_RED);
    ring(&mut pic, 8, 10, BAND_YELLOW);
    // Cross stitches in the red band: small diamonds every 12 pixels.
    let diamond = [(1u32, 0u32), (0, 1), (1, 1), (2, 1), (1, 2)];
    let mut stitch = |x: u32, y: u32, c: Rgb| {
        for (dx, dy) in diamond {
            pic.set(x + dx, y + dy, c);
        }
    };
    let mut t = 4;
    while t + 3 < layout.board_px + 12 {
        let c = if (t / 12) % 2 == 0 {
            BAND_YELLOW
        } else {
            BAND_GREEN
        };
        stitch(x0 - 8 + t, y0 - 7 + 2, c);
        stitch(x0 - 8 + t, y1 + 3, c);
        stitch(x0 - 7 + 2, y0 - 8 + t, c);
        stitch(x1 + 3, y0 - 8 + t, c);
        t += 12;
    }
    pic
}

// ---------------------------------------------------------------------------------------------
// The palette.

/// The palette: the text ramp, then up to 239 colours chosen for the pictures (all of them
/// when they are few enough, else by NeuQuant), then unused entries up to the transparent one.
fn palette_for(colours: &HashMap<Rgb, u32>) -> Vec<Rgb> {
    let mut palette: Vec<Rgb> = (0..TEXT_LEVELS)
        .map(|k| mix(FRAME, TEXT, k as f32 / (TEXT_LEVELS - 1) as f32))
        .collect();
    let room = TRANSPARENT as usize - palette.len();
    let mut rest: Vec<(Rgb, u32)> = colours
        .iter()
        .filter(|(c, _)| !palette.contains(c))
        .map(|(c, n)| (*c, *n))
        .collect();
    rest.sort();
    if rest.len() <= room {
        palette.extend(rest.iter().map(|(c, _)| *c));
    } else {
        // Every colour once, and the common ones (the cloth, the pieces' fields) more often.
        let mut sample = Vec::new();
        for (c, n) in &rest {
            let weight = 1 + (*n as f32).sqrt() as u32 / 4;
            for _ in 0..weight.min(64) {
                sample.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        let nq = color_quant::NeuQuant::new(1, room, &sample);
        palette.extend(nq.color_map_rgb().chunks(3).map(|c| [c[0], c[1], c[2]]));
    }
    while palette.len() < 256 {
        palette.push([0, 0, 0]);
    }
    palette
}

fn nearest(palette: &[Rgb], c: Rgb) -> u8 {
    let d = |p: &Rgb| {
        let dr = p[0] as i32 - c[0] as i32;
        let dg = p[1] as i32 - c[1] as i32;
        let db = p[2] as i32 - c[2] as i32;
        // Weighted towards how the eye sees differences.
        3 * dr * dr + 4 * dg * dg + 2 * db * db
    };
    // The first of the nearest (a plain loop: this runs for every colour of the sprites).
    let mut best = (0, i32::MAX);
    for (i, p) in palette[..TRANSPARENT as usize].iter().enumerate() {
        let dist = d(p);
        if dist < best.1 {
            best = (i, dist);
        }
    }
    best.0 as u8
}

fn build(layout: Layout) -> Assets {
    let px = Px::new(layout.square_px);
    let grounds: Vec<Picture> = Cloth::ALL
        .iter()
        .flat_map(|&g| Highlight::ALL.iter().map(move |&h| ground(px, g, h)))
        .collect();
    let contents: Vec<Vec<Overlay>> = Content::ALL
        .iter()
        .map(|&c| content_layers(px, c).iter().map(Overlay::of).collect())
        .collect();
    // Every sprite in RGB, in SpriteId order.
    let mut sprites_rgb: Vec<Picture> = Vec::with_capacity(grounds.len() * Content::COUNT);
    for g in &grounds {
        for layers in &contents {
            let mut pic = Picture {
                w: g.w,
                px: g.px.clone(),
            };
            for layer in layers {
                pic.paint(layer);
            }
            sprites_rgb.push(pic);
        }
    }
    debug_assert_eq!(
        SpriteId::of(Cloth::Refuge, Highlight::To, Content::Goal).0 as usize + 1,
        sprites_rgb.len()
    );
    let mut frame_rgb = frame(&layout);
    let plain =
        &sprites_rgb[SpriteId::of(Cloth::Plain, Highlight::None, Content::Empty).0 as usize];
    let n = layout.square_px;
    for sq in Square::all_on(layout.size) {
        let (x, y) = layout.square_origin(sq);
        for row in 0..n {
            for col in 0..n {
                frame_rgb.set(x + col, y + row, plain.px[(row * n + col) as usize]);
            }
        }
    }

    // How often each colour occurs, counted a run of one colour at a time (the frame is
    // mostly long runs).
    let mut colours: HashMap<Rgb, u32> = HashMap::new();
    for pic in sprites_rgb.iter().chain(std::iter::once(&frame_rgb)) {
        for run in pic.px.chunk_by(|a, b| a == b) {
            *colours.entry(run[0]).or_default() += run.len() as u32;
        }
    }
    let palette = palette_for(&colours);
    let index: HashMap<Rgb, u8> = colours.keys().map(|&c| (c, nearest(&palette, c))).collect();
    let to_indices = |px: &[Rgb], out: &mut Vec<u8>| {
        for run in px.chunk_by(|a, b| a == b) {
            out.resize(out.len() + run.len(), index[&run[0]]);
        }
    };
    let mut sprites: Vec<u8> = Vec::with_capacity(sprites_rgb.len() * (n * n) as usize);
    for pic in &sprites_rgb {
        to_indices(&pic.px, &mut sprites);
    }
    let mut background: Vec<u8> = Vec::with_capacity(frame_rgb.px.len());
    to_indices(&frame_rgb.px, &mut background);
    draw_labels(&mut background, &layout);
    Assets {
        layout,
        palette: palette.iter().flatten().copied().collect(),
        sprites,
        background,
    }
}

/// Files (a–g, a–i or a–k) above and below the board, ranks (1–7, 1–9 or 1–11) left and
/// right of it.
fn draw_labels(background: &mut [u8], layout: &Layout) {
    let size = 17.0;
    let band = 10; // the embroidered band round the board
    let n = layout.square_px;
    let (left_edge, top_edge) = (layout.board_left, layout.board_top);
    let (right_edge, bottom_edge) = (left_edge + layout.board_px, top_edge + layout.board_px);
    for i in 0..layout.size as u32 {
        let file = char::from(b'a' + i as u8).to_string();
        let x = left_edge + i * n;
        let top = (x, 0, n, top_edge - band);
        let bottom = (x, bottom_edge + band, n, layout.files_band_px - band);
        for area in [top, bottom] {
            draw_text(background, IMAGE_PX, area, &file, size, size, Align::Centre);
        }
        let rank = (layout.size as u32 - i).to_string();
        let y = top_edge + i * n;
        let left = (0, y, left_edge - band, n);
        let right = (right_edge + band, y, IMAGE_PX - right_edge - band, n);
        for area in [left, right] {
            draw_text(background, IMAGE_PX, area, &rank, size, size, Align::Centre);
        }
    }
}
