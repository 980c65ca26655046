//! The evaluation graph of an analysed game: the attackers' expected score over the plies, the
//! costly moves marked on the curve, the moments of *raichi* and *tuichu*, and the result; the
//! key under the plot names only the kinds of marks and lines the graph holds. Its words (the
//! title, the axes' names, the key's) are the caller's ([`GraphLabels`]). Drawn
//! with plotters' bitmap backend in the board's palette and the bundled font (plotters' `ab_glyph`
//! feature: no system font is looked for), then encoded as an RGB PNG. No I/O.

use super::theme::{self, Rgb};
use crate::tafl::Call;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::Once;

/// The graph's size in pixels: wide and tall enough to read on a phone.
pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 600;

/// The curve: the attackers' dark blue, thick.
pub const CURVE: Rgb = theme::ATTACKER_DARK;
pub const CURVE_WIDTH: u32 = 5;
/// The plot's ground, and the shares of the attackers (under the curve) and the defenders.
pub const GROUND: Rgb = theme::LINEN;
pub const ATTACKERS_SHARE: Rgb = [0xb7, 0xc8, 0xe6];
pub const DEFENDERS_SHARE: Rgb = [0xf0, 0xc9, 0xc0];
/// The frame round the plot.
pub const FRAME: Rgb = theme::FRAME;
/// A marker's radius in pixels.
pub const MARKER_RADIUS: u32 = 11;

/// How costly a marked move was: the graph marks the moves that lost their side more than a
/// little, in a colour by how much (a good move has no mark).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// Every mark, from the least costly: the order the key names them in.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];
}

/// The colour of a move's marker.
pub const fn marker(mark: Mark) -> Rgb {
    match mark {
        Mark::Inaccuracy => theme::GOLD,
        Mark::Mistake => [0xe0, 0x7a, 0x1f],
        Mark::Blunder => theme::DANGER,
    }
}

/// The colour of a call's line: a raichi (the king sees a free line to a winning square) in the
/// green the board draws free lines in, a tuichu (two free lines) in the brick red of the
/// king's fort, darker than a blunder's marker. The key names each.
pub const fn call_line(call: Call) -> Rgb {
    match call {
        Call::Raichi => theme::FREE_LINE,
        Call::Tuichu => theme::FORT_WALL,
    }
}

/// What the graph shows.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphInput {
    /// The attackers' expected score after each ply, the start first.
    pub curve: Vec<f64>,
    /// Costly moves: (the ply the move made, its mark).
    pub marks: Vec<(u32, Mark)>,
    /// Raichi and tuichu: (the ply after which the king saw his lines, the call).
    pub calls: Vec<(u32, Call)>,
    /// The title: the players and the result.
    pub title: String,
    /// The axes' names and the key's.
    pub labels: GraphLabels,
}

/// The words on a graph besides its title: the axes' names, and the name the key gives each
/// kind of mark and each call. Empty, a label is left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphLabels {
    /// Under the plies' axis.
    pub plies: String,
    /// Beside the axis of the attackers' expected score.
    pub score: String,
    /// Each mark's name, in [`Mark::ALL`]'s order.
    pub marks: [String; 3],
    /// The names of raichi and of tuichu.
    pub calls: [String; 2],
}

impl GraphLabels {
    /// The key's name of `mark`.
    pub fn mark(&self, mark: Mark) -> &str {
        match mark {
            Mark::Inaccuracy => &self.marks[0],
            Mark::Mistake => &self.marks[1],
            Mark::Blunder => &self.marks[2],
        }
    }

    /// The key's name of `call`.
    pub fn call(&self, call: Call) -> &str {
        match call {
            Call::Raichi => &self.calls[0],
            Call::Tuichu => &self.calls[1],
        }
    }
}

/// A drawn graph: the PNG and where each point of the curve went.
#[derive(Debug, Clone)]
pub struct Graph {
    pub png: Vec<u8>,
    /// The pixel of each point of the curve (ply, then expected score), the start first.
    pub points: Vec<(i32, i32)>,
    /// The plot's pixels: x from `left` to `right`, y from `top` to `bottom`.
    pub left: i32,
    pub right: i32,
    pub top: i32,
    pub bottom: i32,
    /// The pixel rows of an expected score of 0 and of 1.
    pub y0: i32,
    pub y1: i32,
}

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

fn register_font() {
    static FONT: Once = Once::new();
    FONT.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            if plotters::style::register_font("sans-serif", style, super::font::FONT_BYTES).is_err()
            {
                panic!("the bundled font parses");
            }
        }
    });
}

/// Draws the graph.
pub fn evaluation_graph(input: &GraphInput) -> Graph {
    register_font();
    let mut rgb_buf = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
    let (points, left, right, top, bottom, y0, y1) = {
        let root = BitMapBackend::with_buffer(&mut rgb_buf, (WIDTH, HEIGHT)).into_drawing_area();
        let drawn = draw(&root, input);
        root.present().expect("drawing into a buffer");
        drawn
    };
    Graph {
        png: encode(&rgb_buf),
        points,
        left,
        right,
        top,
        bottom,
        y0,
        y1,
    }
}

type Drawn = (Vec<(i32, i32)>, i32, i32, i32, i32, i32, i32);

/// The room left round the curve inside the plot, in plies and in expected score, so the
/// curve's ends and a certain result are drawn whole.
const X_PAD: f64 = 0.5;
const Y_PAD: f64 = 0.03;

/// What drawing fails with: only a buffer is drawn into.
const FAILED: &str = "drawing into a buffer";

/// The chart the curve is drawn on: plies across, the attackers' expected score up.
type Chart<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws the graph on `root`: the chart with its axes, the curve with its lines and marks,
/// and the key under the plot.
fn draw(root: &DrawingArea<BitMapBackend<'_>, Shift>, input: &GraphInput) -> Drawn {
    root.fill(&rgb(FRAME)).expect(FAILED);
    let plies = input.curve.len().saturating_sub(1).max(1) as f64;
    let mut chart = chart(root, input, plies);
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let series: Vec<(f64, f64)> = input
        .curve
        .iter()
        .enumerate()
        .map(|(i, &v)| (i as f64, v.clamp(0.0, 1.0)))
        .collect();
    curve(&mut chart, input, &series, plies);
    let points: Vec<(i32, i32)> = series.iter().map(|p| chart.backend_coord(p)).collect();
    key(root, input, xr.start);
    let y0 = chart.backend_coord(&(0.0, 0.0)).1;
    let y1 = chart.backend_coord(&(0.0, 1.0)).1;
    (points, xr.start, xr.end, yr.start, yr.end, y0, y1)
}

/// The chart on `root`: the title, the plot's ground (the defenders' share), the axes with
/// their labels, and the score's grid.
fn chart<'a, 'b>(
    root: &'a DrawingArea<BitMapBackend<'b>, Shift>,
    input: &GraphInput,
    plies: f64,
) -> Chart<'a, 'b> {
    let text = rgb(theme::TEXT);
    let mut chart = ChartBuilder::on(root)
        .caption(&input.title, ("sans-serif", 30).into_font().color(&text))
        .margin_top(14)
        .margin_left(18)
        .margin_right(36)
        .margin_bottom(58)
        .x_label_area_size(46)
        .y_label_area_size(78)
        .build_cartesian_2d(-X_PAD..plies + X_PAD, -Y_PAD..1.0 + Y_PAD)
        .expect(FAILED);
    chart
        .plotting_area()
        .fill(&rgb(DEFENDERS_SHARE))
        .expect(FAILED);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_labels(5)
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .x_labels(10)
        .x_label_formatter(&|v| {
            // Only whole plies are named.
            if *v < 0.0 || (v - v.round()).abs() > 1e-9 {
                String::new()
            } else {
                format!("{v:.0}")
            }
        })
        .x_desc(&input.labels.plies)
        .y_desc(&input.labels.score)
        .axis_desc_style(("sans-serif", 24).into_font().color(&text))
        .label_style(("sans-serif", 22).into_font().color(&text))
        .axis_style(ShapeStyle {
            color: rgb(theme::TEXT).to_rgba(),
            filled: true,
            stroke_width: 2,
        })
        .light_line_style(TRANSPARENT)
        .bold_line_style(ShapeStyle {
            color: rgb(GROUND).mix(0.9),
            filled: false,
            stroke_width: 1,
        })
        .draw()
        .expect(FAILED);
    chart
}

/// The curve (`series`, each ply's expected score) on the chart: the attackers' share under
/// it, the even line, the calls' lines, the curve itself, and the costly moves' marks on it.
fn curve(chart: &mut Chart<'_, '_>, input: &GraphInput, series: &[(f64, f64)], plies: f64) {
    chart
        .draw_series(AreaSeries::new(
            series.iter().copied(),
            0.0,
            rgb(ATTACKERS_SHARE).filled(),
        ))
        .expect(FAILED);
    // The even line.
    chart
        .draw_series(LineSeries::new(
            [(-X_PAD, 0.5), (plies + X_PAD, 0.5)],
            ShapeStyle {
                color: rgb(theme::STITCH).to_rgba(),
                filled: false,
                stroke_width: 2,
            },
        ))
        .expect(FAILED);
    // Raichi and tuichu: a line down the plot at the ply, each in its colour (and tuichu's
    // thicker), named in the key.
    for &(ply, call) in &input.calls {
        let x = ply as f64;
        let width = call_width(call);
        chart
            .draw_series(LineSeries::new(
                [(x, -Y_PAD), (x, 1.0 + Y_PAD)],
                ShapeStyle {
                    color: rgb(call_line(call)).to_rgba(),
                    filled: false,
                    stroke_width: width,
                },
            ))
            .expect(FAILED);
    }
    chart
        .draw_series(LineSeries::new(
            series.iter().copied(),
            ShapeStyle {
                color: rgb(CURVE).to_rgba(),
                filled: false,
                stroke_width: CURVE_WIDTH,
            },
        ))
        .expect(FAILED);
    for &(ply, mark) in &input.marks {
        let Some(&point) = series.get(ply as usize) else {
            continue;
        };
        let color = marker(mark);
        chart
            .draw_series(std::iter::once(Circle::new(
                point,
                MARKER_RADIUS,
                ShapeStyle {
                    color: rgb(CURVE).to_rgba(),
                    filled: true,
                    stroke_width: 1,
                },
            )))
            .expect(FAILED);
        chart
            .draw_series(std::iter::once(Circle::new(
                point,
                MARKER_RADIUS - 3,
                rgb(color).filled(),
            )))
            .expect(FAILED);
    }
}

/// The key, in the band under the plot from pixel `x` on: only what the graph shows, the kinds
/// of its marks and the calls of its lines.
fn key(root: &DrawingArea<BitMapBackend<'_>, Shift>, input: &GraphInput, mut x: i32) {
    let key_y = HEIGHT as i32 - 30;
    let font = ("sans-serif", 20).into_font().color(&rgb(theme::TEXT)).pos(
        plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ),
    );
    for mark in Mark::ALL
        .into_iter()
        .filter(|&k| input.marks.iter().any(|&(_, m)| m == k))
    {
        root.draw(&Circle::new((x + 9, key_y), 9, rgb(marker(mark)).filled()))
            .expect(FAILED);
        root.draw(&Text::new(
            input.labels.mark(mark),
            (x + 24, key_y),
            font.clone(),
        ))
        .expect(FAILED);
        x += 165;
    }
    for call in [Call::Raichi, Call::Tuichu]
        .into_iter()
        .filter(|&c| input.calls.iter().any(|&(_, k)| k == c))
    {
        // On a patch of the plot's ground, so the line reads as it does in the plot.
        root.draw(&Rectangle::new(
            [(x, key_y - 13), (x + 18, key_y + 13)],
            rgb(DEFENDERS_SHARE).filled(),
        ))
        .expect(FAILED);
        root.draw(&PathElement::new(
            [(x + 9, key_y - 11), (x + 9, key_y + 11)],
            ShapeStyle {
                color: rgb(call_line(call)).to_rgba(),
                filled: false,
                stroke_width: call_width(call),
            },
        ))
        .expect(FAILED);
        root.draw(&Text::new(
            input.labels.call(call),
            (x + 24, key_y),
            font.clone(),
        ))
        .expect(FAILED);
        x += 130;
    }
}

/// The width of a call's line: tuichu (two free lines) thicker than raichi.
const fn call_width(call: Call) -> u32 {
    match call {
        Call::Raichi => 3,
        Call::Tuichu => 6,
    }
}

/// The RGB buffer as a PNG.
fn encode(rgb_buf: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * 1024);
    {
        let mut encoder = png::Encoder::new(&mut out, WIDTH, HEIGHT);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_deflate_compression(png::DeflateCompression::Level(1));
        encoder.set_filter(png::Filter::Up);
        let mut writer = encoder.write_header().expect("a PNG header into memory");
        writer
            .write_image_data(rgb_buf)
            .expect("PNG data into memory");
        writer.finish().expect("PNG data into memory");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(input: &GraphInput) -> (Graph, image::RgbImage) {
        let graph = evaluation_graph(input);
        let img = image::load_from_memory(&graph.png).unwrap().to_rgb8();
        (graph, img)
    }

    fn input(calls: Vec<(u32, Call)>) -> GraphInput {
        GraphInput {
            curve: vec![0.2; 11],
            marks: vec![(5, Mark::Mistake)],
            calls,
            title: "raichi and tuichu".into(),
            labels: GraphLabels::default(),
        }
    }

    /// How many pixels of `colour` the rectangle `xs` × `ys` holds.
    fn count(
        img: &image::RgbImage,
        xs: std::ops::RangeInclusive<i32>,
        ys: std::ops::RangeInclusive<i32>,
        colour: Rgb,
    ) -> usize {
        xs.flat_map(|x| ys.clone().map(move |y| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x as u32, y as u32).0 == colour)
            .count()
    }

    #[test]
    fn raichi_and_tuichu_are_drawn_in_colours_of_their_own_and_both_named_in_the_key() {
        let (raichi, tuichu) = (call_line(Call::Raichi), call_line(Call::Tuichu));
        let distance = |a: Rgb, b: Rgb| {
            a.iter()
                .zip(b)
                .map(|(&a, b)| (f64::from(a) - f64::from(b)).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        assert!(distance(raichi, tuichu) > 100.0, "told apart at a glance");
        let (graph, img) = decoded(&input(vec![(3, Call::Raichi), (7, Call::Tuichu)]));
        // High above the curve (at 20%), in the defenders' share.
        let far = graph.y0 + (f64::from(graph.y1 - graph.y0) * 0.8) as i32;
        let row = |ply: usize| {
            let x = graph.points[ply].0;
            x - 8..=x + 8
        };
        // Each call's line at its ply, in its own colour and not the other's; tuichu's thicker.
        let raichi_width = count(&img, row(3), far..=far, raichi);
        let tuichu_width = count(&img, row(7), far..=far, tuichu);
        assert!(
            raichi_width >= 2,
            "the raichi line at ply 3: {raichi_width} px"
        );
        assert!(
            tuichu_width > raichi_width,
            "tuichu thicker: {tuichu_width} px"
        );
        assert_eq!(count(&img, row(3), far..=far, tuichu), 0);
        assert_eq!(count(&img, row(7), far..=far, raichi), 0);
        // Nowhere else in the plot.
        for ply in [1, 5, 9] {
            assert_eq!(count(&img, row(ply), far..=far, raichi), 0, "ply {ply}");
            assert_eq!(count(&img, row(ply), far..=far, tuichu), 0, "ply {ply}");
        }
        // The key, under the plot, shows both colours.
        let key = graph.bottom + 1..=HEIGHT as i32 - 1;
        assert!(count(&img, 0..=WIDTH as i32 - 1, key.clone(), raichi) > 20);
        assert!(count(&img, 0..=WIDTH as i32 - 1, key, tuichu) > 20);
        // With no calls, the plot holds neither colour: they belong to the calls alone.
        let (graph, img) = decoded(&input(Vec::new()));
        let (plot_x, plot_y) = (graph.left..=graph.right - 1, graph.top..=graph.bottom - 1);
        assert_eq!(count(&img, plot_x.clone(), plot_y.clone(), raichi), 0);
        assert_eq!(count(&img, plot_x, plot_y, tuichu), 0);
    }

    #[test]
    fn the_key_names_only_the_marks_and_calls_the_graph_holds() {
        let key = |graph: &Graph| (0..=WIDTH as i32 - 1, graph.bottom + 1..=HEIGHT as i32 - 1);
        let in_key = |graph: &Graph, img: &image::RgbImage, colour: Rgb| {
            let (xs, ys) = key(graph);
            count(img, xs, ys, colour)
        };
        let (raichi, tuichu) = (call_line(Call::Raichi), call_line(Call::Tuichu));
        let colour = marker;
        // A raichi and a mistake: those two are named, and nothing else.
        let (graph, img) = decoded(&input(vec![(3, Call::Raichi)]));
        assert!(in_key(&graph, &img, raichi) > 20);
        assert_eq!(in_key(&graph, &img, tuichu), 0, "no tuichu in this game");
        assert!(in_key(&graph, &img, colour(Mark::Mistake)) > 50);
        assert_eq!(in_key(&graph, &img, colour(Mark::Inaccuracy)), 0);
        assert_eq!(in_key(&graph, &img, colour(Mark::Blunder)), 0);
        // No calls at all (as in every Brandubh or Copenhagen game): neither is named.
        let (graph, img) = decoded(&input(Vec::new()));
        assert_eq!(in_key(&graph, &img, raichi), 0);
        assert_eq!(in_key(&graph, &img, tuichu), 0);
        // Each kind present is named once, however often it happens.
        let mut all = input(vec![
            (2, Call::Raichi),
            (3, Call::Tuichu),
            (6, Call::Raichi),
        ]);
        all.marks = vec![
            (1, Mark::Inaccuracy),
            (4, Mark::Blunder),
            (5, Mark::Mistake),
            (8, Mark::Blunder),
        ];
        let (graph, img) = decoded(&all);
        let raichi_alone = in_key(&graph, &img, raichi);
        let (graph_one, img_one) = decoded(&input(vec![(3, Call::Raichi)]));
        assert_eq!(raichi_alone, in_key(&graph_one, &img_one, raichi));
        for m in Mark::ALL {
            assert!(in_key(&graph, &img, colour(m)) > 50, "{m:?}");
        }
        assert!(in_key(&graph, &img, tuichu) > 20);
    }
}
