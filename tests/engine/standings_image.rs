//! The standings image, decoded and read back: its size, its colours where the layout puts
//! them, the crosstable's cells by result, names cut to their column, and its weight.

use crate::render_support::sample_standings;
use image::RgbaImage;
use tablut_bot::render::standings::{
    geometry, number, standings_png, Cell, Geometry, StandingsTable, CROSSTABLE_MAX, LOST, MUTED,
    STRIPE, TIED, WON,
};
use tablut_bot::render::theme;

fn decode(table: &StandingsTable) -> (Vec<u8>, RgbaImage, Geometry) {
    let png = standings_png(table);
    let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
        .expect("the standings PNG decodes")
        .to_rgba8();
    (png, img, geometry(table))
}

fn rgb(img: &RgbaImage, x: u32, y: u32) -> [u8; 3] {
    let p = img.get_pixel(x, y).0;
    assert_eq!(p[3], 255, "opaque at ({x}, {y})");
    [p[0], p[1], p[2]]
}

/// How many pixels of the rectangle are exactly `colour`.
fn count(img: &RgbaImage, (x, y, w, h): (u32, u32, u32, u32), colour: [u8; 3]) -> usize {
    (y..y + h)
        .flat_map(|py| (x..x + w).map(move |px| (px, py)))
        .filter(|&(px, py)| rgb(img, px, py) == colour)
        .count()
}

#[test]
fn a_32_player_swiss_table_has_its_size_its_bands_rows_and_muted_withdrawn_player() {
    let table = sample_standings(32, false, 5);
    let (png, img, g) = decode(&table);
    assert_eq!((img.width(), img.height()), (g.width, g.height));
    assert_eq!(
        g.height,
        g.row_top(32) + 20,
        "a margin of 20 under the last row"
    );
    assert!(g.crosstable.is_none(), "no crosstable for a Swiss event");
    assert!(png.len() <= 150_000, "{} bytes", png.len());
    // The title band's wool, and the bands of red, yellow and green under it.
    assert_eq!(rgb(&img, 2, 2), theme::FRAME);
    for (k, colour) in [theme::BAND_RED, theme::BAND_YELLOW, theme::BAND_GREEN]
        .into_iter()
        .enumerate()
    {
        assert_eq!(
            rgb(&img, g.width / 2, g.title_px + 4 * k as u32 + 1),
            colour
        );
    }
    // The title is written (cream ink on the wool).
    assert!(count(&img, (0, 0, g.width, g.title_px), theme::TEXT) > 200);
    // Rows on linen, every other one a shade darker; the name column holds ink on each.
    for i in 0..32 {
        let top = g.row_top(i);
        let ground = if i % 2 == 0 { theme::LINEN } else { STRIPE };
        assert_eq!(rgb(&img, g.name.0 + 1, top + 1), ground, "row {i}");
        let name = (g.name.0, top, g.name.1, g.row_px);
        let withdrawn = table.rows[i].withdrawn;
        let ink = if withdrawn { MUTED } else { theme::FRAME };
        assert!(count(&img, name, ink) > 5, "row {i}: its name in its ink");
        if withdrawn {
            assert_eq!(count(&img, name, theme::FRAME), 0, "row {i}: muted");
        }
    }
    assert_eq!(table.rows.iter().filter(|r| r.withdrawn).count(), 1);
    // Nothing is drawn past the number columns but the wool.
    let end = g.numbers.last().map(|&(x, w)| x + w).unwrap();
    let right = (end, g.header_top, g.width - end, g.height - g.header_top);
    assert_eq!(count(&img, right, theme::FRAME) as u32, right.2 * right.3);
}

#[test]
fn a_round_robin_crosstable_colours_each_cell_by_its_result() {
    let table = sample_standings(CROSSTABLE_MAX, true, 0);
    let (png, img, g) = decode(&table);
    assert!(png.len() <= 150_000, "{} bytes", png.len());
    let (x0, cell) = g.crosstable.expect("a crosstable for 16 players");
    assert_eq!(g.width, x0 + cell * CROSSTABLE_MAX as u32 + 20);
    let cells = table.crosstable.as_ref().unwrap();
    let mut seen = [0; 4];
    assert_eq!(cells.len(), CROSSTABLE_MAX);
    for (i, row) in cells.iter().enumerate() {
        assert_eq!(row.len(), CROSSTABLE_MAX);
        for (j, &result) in row.iter().enumerate() {
            // A corner of the cell, clear of its text.
            let (x, y) = (x0 + j as u32 * cell + 3, g.row_top(i) + 3);
            let want = match result {
                Cell::Own => theme::STITCH,
                Cell::Played { halves, against } if halves > against => WON,
                Cell::Played { halves, against } if halves == against => TIED,
                Cell::Played { .. } => LOST,
                Cell::Forfeit { won: true } => WON,
                Cell::Forfeit { won: false } => LOST,
                Cell::Unplayed => panic!("the sample is played to the end"),
            };
            assert_eq!(rgb(&img, x, y), want, "cell {i}, {j}: {result:?}");
            seen[[theme::STITCH, WON, TIED, LOST]
                .iter()
                .position(|&c| c == want)
                .unwrap()] += 1;
            // Each played cell shows its game points in dark ink.
            if result != Cell::Own {
                let area = (x0 + j as u32 * cell, g.row_top(i), cell, g.row_px);
                assert!(
                    count(&img, area, theme::FRAME) > 0,
                    "cell {i}, {j} is written"
                );
            }
        }
    }
    assert_eq!(seen[0], CROSSTABLE_MAX);
    assert!(seen[1] > 20 && seen[2] > 5 && seen[3] > 20, "{seen:?}");
    // A 17th player: no crosstable, however it is given.
    let mut more = sample_standings(CROSSTABLE_MAX + 1, true, 0);
    assert!(more.crosstable.is_some());
    let (_, img, g) = decode(&more);
    assert!(g.crosstable.is_none());
    assert_eq!(
        img.width(),
        g.numbers.last().map(|&(x, w)| x + w + 20).unwrap()
    );
    more.crosstable = None;
    assert_eq!(geometry(&more), g);
}

#[test]
fn names_of_any_script_and_length_stay_in_their_column() {
    let mut table = sample_standings(12, true, 0);
    let weird = [
        String::new(),
        "\u{202E}evil\u{202D}\u{200B}\n\t\r".into(),
        "x".repeat(300),
        "🏳️‍🌈👨‍👩‍👧‍👦".into(),
        "<@123456789012345678> @everyone **bold** ||spoiler||".into(),
        "\u{0}\u{1}\u{7f}".into(),
        "ﷺ ﷽ 𒐫 𒈙".into(),
    ];
    for (row, name) in table.rows.iter_mut().zip(weird) {
        row.name = name;
    }
    let (_, img, g) = decode(&table);
    for (i, row) in table.rows.iter().enumerate() {
        // The last pixels of the name column are the row's ground: nothing runs over.
        let top = g.row_top(i);
        let ground = rgb(&img, g.name.0 + 1, top + 1);
        let tail = (g.name.0 + g.name.1 - 8, top, 8, g.row_px);
        assert_eq!(
            count(&img, tail, ground),
            8 * g.row_px as usize,
            "row {i}: {:?}",
            row.name
        );
    }
    // The 300 x's are cut short: ink in the column, and (above) none past it.
    let top = g.row_top(2);
    assert!(count(&img, (g.name.0, top, g.name.1, g.row_px), theme::FRAME) > 50);
}

#[test]
fn doubled_values_show_halves() {
    assert_eq!(number(0, true), "0");
    assert_eq!(number(1, true), "½");
    assert_eq!(number(5, true), "2½");
    assert_eq!(number(8, true), "4");
    assert_eq!(number(7, false), "7");
}
