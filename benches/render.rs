//! Board image benchmarks for every variant (Tablut 9×9, Brandubh 7×7, Copenhagen 11×11): one
//! board PNG of a 40-ply position, the largest of the sample boards tests/engine/render.rs checks, and
//! the replay of a 100-ply game (targets: a board PNG in at most 2 ms and 40 KB; a 100-ply
//! replay GIF in at most 150 ms and 1 MB).
//!
//! The encoders are measured side by side on the same pixels: the renderer's (the rows
//! unfiltered, one call to zlib-rs's deflate, at several levels), the one it replaced (the `Up`
//! row filter, then one call to flate2's deflate, miniz_oxide), the `png` crate's own writer
//! (which writes each row to flate2 separately) at several settings, and the hand-written
//! DEFLATE encoder they replaced (`baseline/deflate.rs`); the `gif` crate's LZW
//! (weezl, which the renderer uses) and the hand-written LZW encoder it replaced
//! (`baseline/lzw.rs`). Every variant's output is decoded once and
//! checked against the pixels before it is timed; the sizes are printed beside the times.
//!
//! The standings image of a tournament: 32 players of a Swiss event, 16 of a round robin with
//! its crosstable (targets: 32 players in at most 20 ms and 150 KB).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tablut_bot::bot::messages::replay_caption;
use tablut_bot::render::assets::{assets, TRANSPARENT};
use tablut_bot::render::render::{
    board_canvas, encode_png, encode_png_level, encode_png_with, png_file, replay_frames,
    write_gif, Canvas, PNG_LEVEL,
};
use tablut_bot::render::{board_png, replay_gif};
use tablut_bot::tafl::{Position, RecordedMove, Rules, Variant};

#[path = "../tests/render_support/mod.rs"]
mod support;

#[path = "baseline/deflate.rs"]
mod deflate;
#[path = "baseline/lzw.rs"]
mod lzw;

/// The hand-written PNG encoder: unfiltered rows through `baseline/deflate.rs`.
fn baseline_png(px: &[u8], palette: &[u8], size: u32) -> Vec<u8> {
    let w = size as usize;
    let mut raw = Vec::with_capacity((w + 1) * w);
    for row in px.chunks(w) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let idat = deflate::zlib(&raw, w + 1);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, size, size);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette);
    let mut writer = encoder.write_header().unwrap();
    writer.write_chunk(png::chunk::IDAT, &idat).unwrap();
    writer.finish().unwrap();
    out
}

/// The renderer's encoder before zlib-rs: the `Up` row filter over the whole image, then
/// flate2's deflate (miniz_oxide) at `level`, in one call.
fn flate2_png(canvas: &Canvas, level: u32) -> Vec<u8> {
    let w = tablut_bot::render::BOARD_SIZE_PX as usize;
    let px = &canvas.px;
    let mut filtered = Vec::with_capacity((w + 1) * w);
    filtered.push(0);
    filtered.extend_from_slice(&px[..w]);
    for (above, row) in px.chunks_exact(w).zip(px.chunks_exact(w).skip(1)) {
        filtered.push(2);
        filtered.extend(row.iter().zip(above).map(|(&p, &q)| p.wrapping_sub(q)));
    }
    let mut zlib = flate2::Compress::new(flate2::Compression::new(level), true);
    let mut idat = Vec::with_capacity(filtered.len() / 8);
    loop {
        let before = zlib.total_in() as usize;
        let status = zlib
            .compress_vec(
                &filtered[before..],
                &mut idat,
                flate2::FlushCompress::Finish,
            )
            .unwrap();
        if status == flate2::Status::StreamEnd {
            break;
        }
        idat.reserve(idat.capacity().max(64 * 1024));
    }
    png_file(canvas, &idat)
}

/// The palette indices a PNG decodes to.
fn png_pixels(file: &[u8]) -> Vec<u8> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(file));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    buf
}

/// Each frame's palette indices as a GIF decodes them.
fn gif_frames(file: &[u8]) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(file).unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames.push(frame.buffer.to_vec());
    }
    frames
}

/// The largest board PNG among the sample boards of a variant (the ones tests/engine/render.rs
/// checks against 40 KB), with its last move.
fn largest_board(variant: Variant) -> (Position, Option<RecordedMove>) {
    support::sample_boards(variant.rules())
        .into_iter()
        .max_by_key(|(position, last)| {
            board_png(position, last.as_ref(), Some(support::LONG_CAPTION)).len()
        })
        .expect("there are sample boards")
}

fn bench_board(c: &mut Criterion) {
    let mut group = c.benchmark_group("board png");
    for variant in Variant::ALL {
        let game = support::long_game(variant.rules(), 40);
        let position = *game.position();
        let last = *game.moves().last().expect("the game has moves");
        let caption = "Move 21 · Astrid (attackers) to play";
        // The sprites are drawn once, at first use; the figures are for every board after that.
        let png = board_png(&position, Some(&last), Some(caption));
        eprintln!(
            "{variant}: board png (zlib-rs level {PNG_LEVEL}): {} bytes",
            png.len()
        );
        // Tablut's figure keeps its name ("board png/tablut" was "board png").
        group.bench_function(variant.name(), |b| {
            b.iter(|| board_png(black_box(&position), Some(&last), Some(caption)))
        });
        let (position, last) = largest_board(variant);
        let png = board_png(&position, last.as_ref(), Some(support::LONG_CAPTION));
        eprintln!("{variant}: largest sample board png: {} bytes", png.len());
        group.bench_function(format!("{} largest", variant.name()), |b| {
            b.iter(|| {
                board_png(
                    black_box(&position),
                    last.as_ref(),
                    Some(support::LONG_CAPTION),
                )
            })
        });
    }
    group.finish();

    // The encoders alone, side by side, on Tablut's 40-ply canvas and on each variant's
    // largest sample board.
    let game = support::long_game(Rules::default(), 40);
    let tablut = board_canvas(
        game.position(),
        game.moves().last(),
        Some("Move 21 · Astrid (attackers) to play"),
    );
    let mut canvases = vec![("tablut".to_string(), tablut)];
    for variant in Variant::ALL {
        let (position, last) = largest_board(variant);
        let canvas = board_canvas(&position, last.as_ref(), Some(support::LONG_CAPTION));
        canvases.push((format!("{} largest", variant.name()), canvas));
    }
    let mut group = c.benchmark_group("board png encoder");
    group.warm_up_time(std::time::Duration::from_secs(1));
    group.measurement_time(std::time::Duration::from_secs(2));
    for (canvas_name, canvas) in &canvases {
        let palette = canvas.assets.palette.clone();
        let baseline = baseline_png(&canvas.px, &palette, tablut_bot::render::BOARD_SIZE_PX);
        assert_eq!(png_pixels(&baseline), canvas.px);
        eprintln!(
            "{canvas_name}: hand-written deflate: {} bytes",
            baseline.len()
        );
        group.bench_function(format!("{canvas_name}: hand-written deflate"), |b| {
            b.iter(|| {
                baseline_png(
                    black_box(&canvas.px),
                    &palette,
                    tablut_bot::render::BOARD_SIZE_PX,
                )
            })
        });
        for level in [1, 2, 3] {
            let name = format!("{canvas_name}: zlib-rs level {level}");
            let file = encode_png_level(canvas, level);
            assert_eq!(png_pixels(&file), canvas.px, "{name}");
            eprintln!("{name}: {} bytes", file.len());
            group.bench_function(&name, |b| {
                b.iter(|| encode_png_level(black_box(canvas), level))
            });
        }
        for level in [1, 2] {
            let name = format!("{canvas_name}: Up filter, flate2 (miniz_oxide) level {level}");
            let file = flate2_png(canvas, level);
            assert_eq!(png_pixels(&file), canvas.px, "{name}");
            eprintln!("{name}: {} bytes", file.len());
            group.bench_function(&name, |b| b.iter(|| flate2_png(black_box(canvas), level)));
        }
        assert_eq!(encode_png(canvas), encode_png_level(canvas, PNG_LEVEL));
        for (compression, filter) in [
            (png::DeflateCompression::Level(1), png::Filter::Up),
            (png::DeflateCompression::Level(1), png::Filter::Adaptive),
            (png::DeflateCompression::FdeflateUltraFast, png::Filter::Up),
        ] {
            let name = format!("{canvas_name}: png crate {compression:?} {filter:?}");
            let file = encode_png_with(canvas, compression, filter);
            assert_eq!(png_pixels(&file), canvas.px, "{name}");
            eprintln!("{name}: {} bytes", file.len());
            group.bench_function(&name, |b| {
                b.iter(|| encode_png_with(black_box(canvas), compression, filter))
            });
        }
    }
    group.finish();
}

/// A seeded random game of 100 plies, or the longest of the first 2,000 seeds if none lasts
/// that long.
fn long_replay(variant: Variant) -> tablut_bot::tafl::Game {
    let rules = variant.rules();
    let mut longest = support::random_game(rules, 1, 100);
    for seed in 2..2_000 {
        if longest.moves().len() == 100 {
            break;
        }
        let game = support::random_game(rules, seed, 100);
        if game.moves().len() > longest.moves().len() {
            longest = game;
        }
    }
    longest
}

fn bench_replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    group.sample_size(20);
    for variant in Variant::ALL {
        let game = long_replay(variant);
        // Each frame captioned as the bot captions it.
        let caption = |ply| replay_caption(&game, ply);
        let gif = replay_gif(&game, &caption);
        eprintln!(
            "{variant}: replay gif of {} plies (gif crate, weezl): {} bytes",
            game.moves().len(),
            gif.len()
        );
        let name = format!("{} gif {} plies", variant.name(), game.moves().len());
        group.bench_function(name, |b| b.iter(|| replay_gif(black_box(&game), &caption)));
        if variant != Variant::Tablut {
            continue;
        }
        // The same frames, compressed by the hand-written LZW encoder instead of weezl.
        let palette = &assets(game.start().variant()).palette;
        // The frames are drawn as they are encoded, as the renderer does.
        let by_hand = |frames: tablut_bot::render::render::ReplayFrames<'_>| {
            write_gif(palette, frames, |frame, encoder| {
                let packed = gif::Frame {
                    buffer: std::borrow::Cow::Owned(lzw::encode(&frame.buffer, TRANSPARENT)),
                    ..frame.clone()
                };
                encoder.write_lzw_pre_encoded_frame(&packed)
            })
        };
        let baseline = by_hand(replay_frames(&game, &caption));
        assert_eq!(gif_frames(&baseline), gif_frames(&gif), "the same pictures");
        eprintln!("hand-written lzw: {} bytes", baseline.len());
        group.bench_function("tablut gif 100 plies, hand-written lzw", |b| {
            b.iter(|| by_hand(replay_frames(black_box(&game), &caption)))
        });
    }
    group.finish();
}

/// The standings image (targets: 32 players in at most 20 ms and 150 KB): a Swiss event of 32
/// after 5 rounds, and a round robin of 16 with its crosstable.
fn bench_standings(c: &mut Criterion) {
    use tablut_bot::render::standings::standings_png;
    let mut group = c.benchmark_group("standings png");
    for (name, table) in [
        ("swiss 32 players", support::sample_standings(32, false, 5)),
        (
            "round robin 16 players",
            support::sample_standings(16, true, 0),
        ),
    ] {
        let png = standings_png(&table);
        image::load_from_memory(&png).expect("the standings PNG decodes");
        eprintln!("standings png, {name}: {} bytes", png.len());
        group.bench_function(name, |b| b.iter(|| standings_png(black_box(&table))));
    }
    group.finish();
}

criterion_group!(benches, bench_board, bench_replay, bench_standings);
criterion_main!(benches);
