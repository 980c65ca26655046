//! The standings image of a tournament: a title band (the event's name, and a line under it
//! such as its round), then one row a player (place, name, the number columns the caller
//! names: match points, game points, tiebreaks) and, for a round robin of up to
//! [`CROSSTABLE_MAX`] players, the crosstable beside them. Drawn straight into palette indices
//! in the board's colours and font, and encoded as the boards are ([`indexed_png`]). No I/O.
//!
//! The input is this module's own: the caller (the service, from the tournament's standings,
//! in the bot's words) gives names and headings as text and the numbers as they stand; the
//! image words nothing itself. Names are any Unicode ([`text`](super::text) handles what the font
//! lacks) and a name too long for its column is set smaller, then cut short with `…`.

use super::render::indexed_png;
use super::text::{draw_text_on, Align};
use super::theme::{self, Rgb};
use crate::render::font::TEXT_LEVELS;

/// The crosstable is drawn for round robins of at most this many players.
pub const CROSSTABLE_MAX: usize = 16;

/// A number column: its heading and whether its values are kept doubled (shown with `½`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub heading: String,
    pub doubled: bool,
}

/// One player's row, in the order of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// From 1.
    pub place: usize,
    /// The place is shared: shown as `3=`.
    pub shared: bool,
    pub name: String,
    /// One value a number column (doubled where the column says).
    pub values: Vec<u32>,
    /// Drawn in a muted ink.
    pub withdrawn: bool,
}

/// A crosstable cell: the row player's result against the column player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// The diagonal.
    Own,
    /// Not played yet.
    Unplayed,
    /// Game points ×2 of the row player and of the column player in their match.
    Played { halves: u8, against: u8 },
    /// Forfeited without a game: won (`+`) or lost (`−`).
    Forfeit { won: bool },
}

/// What the image shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingsTable {
    /// The tournament's name.
    pub title: String,
    /// The line under it (the round, the format).
    pub subtitle: String,
    /// The place column's heading.
    pub place_heading: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// `cells[i][j]`: row `i` against row `j`, in the rows' order; drawn when the rows are at
    /// most [`CROSSTABLE_MAX`].
    pub crosstable: Option<Vec<Vec<Cell>>>,
}

/// Where everything sits, in pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    pub width: u32,
    pub height: u32,
    /// The title band's height (the name and the line under it).
    pub title_px: u32,
    /// The heading row's top; the rows follow it.
    pub header_top: u32,
    pub row_px: u32,
    /// Left edges and widths: the place, the name, each number column.
    pub place: (u32, u32),
    pub name: (u32, u32),
    pub numbers: Vec<(u32, u32)>,
    /// The crosstable's left edge and cell width, when drawn.
    pub crosstable: Option<(u32, u32)>,
}

impl Geometry {
    /// The top of row `i` (from 0).
    pub const fn row_top(&self, i: usize) -> u32 {
        self.header_top + self.row_px * (i as u32 + 1)
    }
}

const MARGIN: u32 = 20;
const TITLE_PX: u32 = 96;
const BAND_PX: u32 = 4;
const ROW_PX: u32 = 30;
const PLACE_PX: u32 = 56;
const NAME_PX: u32 = 300;
const NUMBER_PX: u32 = 92;
const CELL_PX: u32 = 40;
const GAP_PX: u32 = 14;

/// The layout of a table.
pub fn geometry(table: &StandingsTable) -> Geometry {
    let mut x = MARGIN;
    let place = (x, PLACE_PX);
    x += PLACE_PX;
    let name = (x, NAME_PX);
    x += NAME_PX;
    let numbers: Vec<(u32, u32)> = (0..table.columns.len() as u32)
        .map(|k| (x + k * NUMBER_PX, NUMBER_PX))
        .collect();
    x += NUMBER_PX * table.columns.len() as u32;
    let crosstable = crosstable_drawn(table).then(|| {
        x += GAP_PX;
        let at = (x, CELL_PX);
        x += CELL_PX * table.rows.len() as u32;
        at
    });
    let header_top = TITLE_PX + 3 * BAND_PX;
    Geometry {
        width: x + MARGIN,
        height: header_top + ROW_PX * (table.rows.len() as u32 + 1) + MARGIN,
        title_px: TITLE_PX,
        header_top,
        row_px: ROW_PX,
        place,
        name,
        numbers,
        crosstable,
    }
}

fn crosstable_drawn(table: &StandingsTable) -> bool {
    table.crosstable.is_some() && table.rows.len() <= CROSSTABLE_MAX && !table.rows.is_empty()
}

/// The grounds the image is laid on, each with a ramp of [`TEXT_LEVELS`] palette entries from
/// the ground (its first) to its ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    /// The frame's dark blue wool, cream ink: the title and the headings.
    Wool,
    /// A row on linen, and every other row a shade darker; dark ink.
    Linen,
    Stripe,
    /// A withdrawn player's row: the same grounds, a muted ink.
    LinenMuted,
    StripeMuted,
    /// Crosstable cells: a match won, tied, lost; the diagonal.
    Won,
    Tied,
    Lost,
    Own,
}

impl Ground {
    const ALL: [Ground; 9] = [
        Ground::Wool,
        Ground::Linen,
        Ground::Stripe,
        Ground::LinenMuted,
        Ground::StripeMuted,
        Ground::Won,
        Ground::Tied,
        Ground::Lost,
        Ground::Own,
    ];

    /// The ground's colour and its ink.
    pub const fn colours(self) -> (Rgb, Rgb) {
        match self {
            Ground::Wool => (theme::FRAME, theme::TEXT),
            Ground::Linen => (theme::LINEN, theme::FRAME),
            Ground::Stripe => (STRIPE, theme::FRAME),
            Ground::LinenMuted => (theme::LINEN, MUTED),
            Ground::StripeMuted => (STRIPE, MUTED),
            Ground::Won => (WON, theme::FRAME),
            Ground::Tied => (TIED, theme::FRAME),
            Ground::Lost => (LOST, theme::FRAME),
            Ground::Own => (theme::STITCH, theme::TEXT),
        }
    }

    /// The palette index of the ground itself (its ramp follows).
    pub const fn index(self) -> u8 {
        self as u8 * TEXT_LEVELS
    }
}

/// Every other row: the linen a shade darker.
pub const STRIPE: Rgb = [0xe2, 0xd2, 0xae];
/// A withdrawn player's ink.
pub const MUTED: Rgb = [0x9a, 0x8c, 0x78];
/// Crosstable cells: won (the free lines' green, light), tied (gold, light), lost (red, light).
pub const WON: Rgb = [0xb9, 0xd8, 0xa8];
pub const TIED: Rgb = [0xf1, 0xdc, 0x8e];
pub const LOST: Rgb = [0xee, 0xb4, 0xa8];

/// The palette index of each embroidered band's colour, after the grounds' ramps.
const BANDS: [(u8, Rgb); 3] = [
    (9 * TEXT_LEVELS, theme::BAND_RED),
    (9 * TEXT_LEVELS + 1, theme::BAND_YELLOW),
    (9 * TEXT_LEVELS + 2, theme::BAND_GREEN),
];

fn palette() -> Vec<u8> {
    let mut out = Vec::with_capacity(3 * (9 * TEXT_LEVELS as usize + 3));
    for ground in Ground::ALL {
        let (bg, ink) = ground.colours();
        for k in 0..TEXT_LEVELS {
            let t = f32::from(k) / f32::from(TEXT_LEVELS - 1);
            for c in 0..3 {
                let v = f32::from(bg[c]) + (f32::from(ink[c]) - f32::from(bg[c])) * t;
                out.push(v.round() as u8);
            }
        }
    }
    for (_, c) in BANDS {
        out.extend_from_slice(&c);
    }
    out
}

/// A value as the image shows it: doubled ones with `½`.
pub fn number(value: u32, doubled: bool) -> String {
    if !doubled {
        return value.to_string();
    }
    match (value / 2, value % 2) {
        (w, 0) => w.to_string(),
        (0, _) => "½".to_string(),
        (w, _) => format!("{w}½"),
    }
}

/// What a crosstable cell shows, and on which ground.
fn cell_look(cell: Cell) -> (String, Option<Ground>) {
    match cell {
        Cell::Own => (String::new(), Some(Ground::Own)),
        Cell::Unplayed => (String::new(), None),
        Cell::Played { halves, against } => {
            let ground = match halves.cmp(&against) {
                std::cmp::Ordering::Greater => Ground::Won,
                std::cmp::Ordering::Equal => Ground::Tied,
                std::cmp::Ordering::Less => Ground::Lost,
            };
            (number(u32::from(halves), true), Some(ground))
        }
        Cell::Forfeit { won } => {
            let (text, ground) = if won {
                ("+", Ground::Won)
            } else {
                ("−", Ground::Lost)
            };
            (text.to_string(), Some(ground))
        }
    }
}

struct Canvas {
    px: Vec<u8>,
    width: u32,
}

impl Canvas {
    fn fill(&mut self, (x, y, w, h): (u32, u32, u32, u32), index: u8) {
        for row in y..y + h {
            let start = (row * self.width + x) as usize;
            self.px[start..start + w as usize].fill(index);
        }
    }

    fn text(
        &mut self,
        area: (u32, u32, u32, u32),
        text: &str,
        sizes: (f32, f32),
        align: Align,
        ground: Ground,
    ) {
        draw_text_on(
            &mut self.px,
            self.width,
            area,
            text,
            sizes,
            align,
            ground.index(),
        );
    }
}

/// The standings PNG.
pub fn standings_png(table: &StandingsTable) -> Vec<u8> {
    let g = geometry(table);
    let mut c = Canvas {
        px: vec![Ground::Wool.index(); (g.width * g.height) as usize],
        width: g.width,
    };
    draw_title(&mut c, table, &g);
    draw_headings(&mut c, table, &g);
    for (i, row) in table.rows.iter().enumerate() {
        draw_row(&mut c, table, &g, i, row);
    }
    indexed_png(
        g.width,
        g.height,
        &palette(),
        &c.px,
        super::render::PNG_LEVEL,
    )
}

/// The title band: the name, the line under it, and the bands of red, yellow and green.
fn draw_title(c: &mut Canvas, table: &StandingsTable, g: &Geometry) {
    let inner = g.width - 2 * MARGIN;
    c.text(
        (MARGIN, 10, inner, 48),
        &table.title,
        (32.0, 20.0),
        Align::Left,
        Ground::Wool,
    );
    c.text(
        (MARGIN, 58, inner, 30),
        &table.subtitle,
        (19.0, 14.0),
        Align::Left,
        Ground::Wool,
    );
    for (k, (index, _)) in BANDS.iter().enumerate() {
        c.fill((0, TITLE_PX + k as u32 * BAND_PX, g.width, BAND_PX), *index);
    }
}

/// The headings, on the wool: place, each column's, and the crosstable's numbers.
fn draw_headings(c: &mut Canvas, table: &StandingsTable, g: &Geometry) {
    let head = (g.header_top, ROW_PX);
    let sizes = (16.0, 11.0);
    c.text(
        (g.place.0, head.0, g.place.1 - 10, head.1),
        &table.place_heading,
        sizes,
        Align::Right,
        Ground::Wool,
    );
    for (col, &(x, w)) in table.columns.iter().zip(&g.numbers) {
        c.text(
            (x + 4, head.0, w - 8, head.1),
            &col.heading,
            sizes,
            Align::Centre,
            Ground::Wool,
        );
    }
    if let Some((x, w)) = g.crosstable {
        for j in 0..table.rows.len() as u32 {
            let label = (j + 1).to_string();
            c.text(
                (x + j * w, head.0, w, head.1),
                &label,
                sizes,
                Align::Centre,
                Ground::Wool,
            );
        }
    }
}

/// Row `i`: its ground (striped, muted when withdrawn), place, name, values and crosstable cells.
fn draw_row(c: &mut Canvas, table: &StandingsTable, g: &Geometry, i: usize, row: &Row) {
    let top = g.row_top(i);
    let ground = match (i % 2 == 1, row.withdrawn) {
        (false, false) => Ground::Linen,
        (true, false) => Ground::Stripe,
        (false, true) => Ground::LinenMuted,
        (true, true) => Ground::StripeMuted,
    };
    let span = g
        .numbers
        .last()
        .map_or(g.name.0 + g.name.1, |&(x, w)| x + w)
        - MARGIN;
    c.fill((MARGIN, top, span, ROW_PX), ground.index());
    let sizes = (17.0, 12.0);
    let place = if row.shared {
        format!("{}=", row.place)
    } else {
        row.place.to_string()
    };
    c.text(
        (g.place.0, top, g.place.1 - 10, ROW_PX),
        &place,
        sizes,
        Align::Right,
        ground,
    );
    c.text(
        (g.name.0 + 4, top, g.name.1 - 12, ROW_PX),
        &row.name,
        (17.0, 15.0),
        Align::Left,
        ground,
    );
    for ((value, col), &(x, w)) in row.values.iter().zip(&table.columns).zip(&g.numbers) {
        let text = number(*value, col.doubled);
        c.text(
            (x + 4, top, w - 8, ROW_PX),
            &text,
            sizes,
            Align::Centre,
            ground,
        );
    }
    if let (Some((x, w)), Some(cells)) = (g.crosstable, &table.crosstable) {
        for j in 0..table.rows.len() {
            let cell = cells
                .get(i)
                .and_then(|r| r.get(j))
                .copied()
                .unwrap_or(Cell::Unplayed);
            let (text, look) = cell_look(cell);
            let ground = look.unwrap_or(if i % 2 == 1 {
                Ground::Stripe
            } else {
                Ground::Linen
            });
            let area = (x + j as u32 * w, top, w, ROW_PX);
            // A thin line of wool between cells.
            c.fill(
                (area.0 + 1, area.1 + 1, area.2 - 2, area.3 - 2),
                ground.index(),
            );
            if !text.is_empty() {
                c.text(
                    (area.0 + 1, area.1 + 1, area.2 - 2, area.3 - 2),
                    &text,
                    (16.0, 11.0),
                    Align::Centre,
                    ground,
                );
            }
        }
    }
}
