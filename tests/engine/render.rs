//! Board images, decoded with the image crate and read back pixel by pixel.

use image::codecs::gif::GifDecoder;
use image::{AnimationDecoder, RgbaImage};
use std::io::Cursor;
use tablut_bot::bot::messages::{replay_caption, variant_title};
use tablut_bot::render::theme::{self, Layout, Rgb};
use tablut_bot::render::{board_png, replay_gif, BOARD_SIZE_PX};
use tablut_bot::tafl::{
    parse_position, Bitboard, Game, Outcome, Piece, Position, Reason, Rules, Side, Square, Variant,
};

use crate::render_support::{long_game, random_game, sample_boards, LONG_CAPTION};

fn decode_png(bytes: &[u8]) -> RgbaImage {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .expect("the PNG decodes")
        .to_rgba8()
}

fn decode_gif(bytes: &[u8]) -> Vec<RgbaImage> {
    GifDecoder::new(Cursor::new(bytes))
        .expect("the GIF header decodes")
        .into_frames()
        .collect_frames()
        .expect("every frame decodes")
        .into_iter()
        .map(|f| f.into_buffer())
        .collect()
}

/// Tablut's layout: the tests below draw Tablut boards.
const TABLUT: Layout = theme::TABLUT;
const SQUARE_PX: u32 = TABLUT.square_px;

fn square_origin(s: Square) -> (u32, u32) {
    TABLUT.square_origin(s)
}

fn square_centre(s: Square) -> (u32, u32) {
    TABLUT.square_centre(s)
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn pixel(img: &RgbaImage, (x, y): (u32, u32)) -> Rgb {
    let p = img.get_pixel(x, y);
    assert_eq!(p[3], 255, "the board is opaque");
    [p[0], p[1], p[2]]
}

fn distance(a: Rgb, b: Rgb) -> i32 {
    (0..3).map(|i| (a[i] as i32 - b[i] as i32).abs()).sum()
}

/// A pixel of a square `dx`, `dy` pixels in from its top-left corner.
fn inside(img: &RgbaImage, s: Square, dx: u32, dy: u32) -> Rgb {
    let (x, y) = square_origin(s);
    pixel(img, (x + dx, y + dy))
}

/// What the middle of a square shows, told by the nearest of the colours the pieces carry
/// at their centres: the attacker's steel boss, the defender's cream cross, the king's gold
/// sun, or the linen of an empty square.
fn what_is_at(img: &RgbaImage, s: Square) -> &'static str {
    let c = pixel(img, square_centre(s));
    let candidates = [
        ("attacker", theme::ATTACKER_BOSS),
        ("defender", theme::DEFENDER_CROSS),
        ("king", theme::GOLD),
        ("empty", theme::LINEN),
        ("empty", theme::FORT_CLOTH),
    ];
    let (name, colour) = candidates
        .iter()
        .min_by_key(|(_, colour)| distance(c, *colour))
        .unwrap();
    assert!(
        distance(c, *colour) < 50,
        "{s}: {c:?} is near no piece colour"
    );
    name
}

fn expected(position: &Position, s: Square) -> &'static str {
    match position.piece_at(s) {
        Some(Piece::Attacker) => "attacker",
        Some(Piece::Defender) => "defender",
        Some(Piece::King) => "king",
        None => "empty",
    }
}

fn game_from(record: &str, turn: Side, moves: &[&str]) -> Game {
    let mut game = Game::from_position(parse_position(record, turn, Rules::default()).unwrap());
    for m in moves {
        game.play_text(m).unwrap();
    }
    game
}

fn png_after(game: &Game, caption: Option<&str>) -> RgbaImage {
    decode_png(&board_png(game.position(), game.moves().last(), caption))
}

#[test]
fn the_png_decodes_at_the_documented_size() {
    let img = decode_png(&board_png(&Position::start(Rules::default()), None, None));
    assert_eq!(img.dimensions(), (BOARD_SIZE_PX, BOARD_SIZE_PX));
    assert!((600..=800).contains(&BOARD_SIZE_PX));
}

#[test]
fn square_centres_tell_attackers_defenders_the_king_and_empty_squares_apart() {
    let start = Position::start(Rules::default());
    let game = long_game(Rules::default(), 24);
    for position in [&start, game.position()] {
        let img = decode_png(&board_png(position, None, None));
        for s in Square::all_on(9) {
            assert_eq!(what_is_at(&img, s), expected(position, s), "square {s}");
        }
    }
    // And with the last move's highlights and marks drawn.
    let img = png_after(&game, Some("Move 13"));
    for s in Square::all_on(9) {
        let captured = game.moves().last().unwrap().captured.contains(s);
        if !captured {
            assert_eq!(
                what_is_at(&img, s),
                expected(game.position(), s),
                "square {s}"
            );
        }
    }
}

#[test]
fn a1_is_bottom_left_and_i9_top_right() {
    let position =
        parse_position("/t8/9/9/9/4K4/9/9/9/8T/", Side::Attackers, Rules::default()).unwrap();
    let img = decode_png(&board_png(&position, None, None));
    let (x, y) = square_centre(sq("a1"));
    assert!(x < BOARD_SIZE_PX / 4 && y > BOARD_SIZE_PX * 3 / 4);
    assert_eq!(what_is_at(&img, sq("a1")), "attacker");
    let (x, y) = square_centre(sq("i9"));
    assert!(x > BOARD_SIZE_PX * 3 / 4 && y < BOARD_SIZE_PX / 4);
    assert_eq!(what_is_at(&img, sq("i9")), "defender");
}

#[test]
fn the_last_moves_squares_carry_the_highlight_and_no_other_square_does() {
    let game = game_from(
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        Side::Attackers,
        &["e2-c2"],
    );
    let with = png_after(&game, None);
    let without = decode_png(&board_png(game.position(), None, None));
    // A pixel near each square's corner, clear of pieces and stitches.
    let corner = |img: &RgbaImage, s: Square| inside(img, s, 5, 8);
    for s in Square::all_on(9) {
        let (a, b) = (corner(&with, s), corner(&without, s));
        if s == sq("e2") {
            assert!(
                distance(a, theme::MOVE_FROM) + 30 < distance(b, theme::MOVE_FROM),
                "the square left, e2: {a:?} against {b:?}"
            );
        } else if s == sq("c2") {
            assert!(
                distance(a, theme::MOVE_TO) + 30 < distance(b, theme::MOVE_TO),
                "the square reached, c2: {a:?} against {b:?}"
            );
        } else {
            assert_eq!(a, b, "{s} is not highlighted");
        }
    }
    // The two highlights differ from each other.
    assert!(distance(corner(&with, sq("e2")), corner(&with, sq("c2"))) > 30);
}

/// The middle of a captured piece's square shows the cross stitch.
fn is_marked_captured(img: &RgbaImage, s: Square) -> bool {
    distance(pixel(img, square_centre(s)), theme::CAPTURE_MARK) < 60
}
#[test]
fn rendering_straight_after_a_capture_marks_the_captured_squares() {
    // An attacker reaching e4 takes the defenders on d4 and f4 against c4 and g4.
    let game = game_from("/4t4/9/9/2tT1Tt2/4K4/9/9/9/9/", Side::Attackers, &["e1-e4"]);
    let last = *game.moves().last().unwrap();
    assert_eq!(last.to_string(), "e1-e4xd4/f4");
    let img = png_after(&game, None);
    let before = decode_png(&board_png(game.start(), None, None));
    for s in Square::all_on(9) {
        let captured = s == sq("d4") || s == sq("f4");
        assert_eq!(
            is_marked_captured(&img, s),
            captured,
            "{s} after the capture"
        );
        assert!(!is_marked_captured(&before, s), "{s} before it");
    }
    assert_eq!(what_is_at(&img, sq("e4")), "attacker");
}

#[test]
fn rendering_straight_after_a_king_capture_marks_his_square() {
    let game = game_from("/3t5/9/1tK6/9/9/9/9/9/t8/", Side::Attackers, &["d1-d3"]);
    assert_eq!(
        game.outcome(),
        Outcome::Won {
            winner: Side::Attackers,
            reason: Reason::KingCaptured
        }
    );
    let img = png_after(&game, Some("Attackers win: the king was captured"));
    assert_eq!(img.dimensions(), (BOARD_SIZE_PX, BOARD_SIZE_PX));
    assert!(is_marked_captured(&img, sq("c3")));
    assert_eq!(what_is_at(&img, sq("b3")), "attacker");
    assert_eq!(what_is_at(&img, sq("d3")), "attacker");
}

#[test]
fn rendering_straight_after_an_escape_shows_the_king_on_the_edge() {
    let game = game_from("/9/9/9/9/2t1K3t/9/9/9/9/", Side::Defenders, &["e5-e9"]);
    assert_eq!(game.outcome().reason(), Some(Reason::KingEscaped));
    let img = png_after(&game, Some("Defenders win: the king escaped"));
    assert_eq!(what_is_at(&img, sq("e9")), "king");
    assert_eq!(what_is_at(&img, sq("e5")), "empty");
    // Under corner rules, the corners are drawn as refuges.
    let mut rules = Rules::default();
    rules.apply_setting("escape=corner").unwrap();
    let mut game = Game::from_position(
        parse_position("/9/9/9/9/9/9/9/9/1K7/", Side::Defenders, rules).unwrap(),
    );
    game.play_text("b9-a9").unwrap();
    assert_eq!(game.outcome().reason(), Some(Reason::KingEscaped));
    let img = png_after(&game, None);
    assert_eq!(what_is_at(&img, sq("a9")), "king");
    let refuge = inside(&img, sq("a1"), 34, 20);
    let plain = inside(&img, sq("b1"), 34, 20);
    assert!(
        distance(refuge, plain) > 40,
        "a1 is a refuge: {refuge:?} against {plain:?}"
    );
}

#[test]
fn the_king_is_marked_when_capturable_and_when_he_sees_a_free_line() {
    // King on c3 with an attacker on b3; the attacker on d1 can reach d3 and take him.
    let position = parse_position(
        "/3t5/9/1tK6/9/9/9/9/9/9/",
        Side::Attackers,
        Rules::default(),
    )
    .unwrap();
    assert!(position.king_capturable());
    let danger = decode_png(&board_png(&position, None, None));
    let safe_position =
        parse_position("/9/9/1tK6/9/9/9/9/9/9/", Side::Attackers, Rules::default()).unwrap();
    assert!(!safe_position.king_capturable());
    let safe = decode_png(&board_png(&safe_position, None, None));
    // The red glow shows round the king's shield, out to his square's corners.
    let near_corner = |img: &RgbaImage| inside(img, sq("c3"), 5, 5);
    assert!(
        distance(near_corner(&danger), theme::DANGER) + 60
            < distance(near_corner(&safe), theme::DANGER),
        "{:?} against {:?}",
        near_corner(&danger),
        near_corner(&safe)
    );
    // Free lines: from c3 the king sees c1 down the file and c9 up it (a3 is blocked by b3,
    // i3 is open too): three lines.
    assert_eq!(safe_position.king_free_lines(), 3);
    let free = |img: &RgbaImage, s: &str| {
        distance(pixel(img, square_centre(sq(s))), theme::FREE_LINE) < 40
    };
    for goal in ["c1", "c9", "i3"] {
        assert!(free(&safe, goal), "{goal} is a goal");
    }
    for path in ["c2", "c4", "c8", "d3", "h3"] {
        assert!(free(&safe, path), "{path} is on a free line");
    }
    for other in ["a3", "b2", "e5", "a1", "i9"] {
        assert!(!free(&safe, other), "{other} is on no free line");
    }
    // An attacker on c6 closes the line up the file: c4 and c5 are no longer marked.
    let blocked = parse_position(
        "/9/9/1tK6/9/9/2t6/9/9/9/",
        Side::Attackers,
        Rules::default(),
    )
    .unwrap();
    assert_eq!(blocked.king_free_lines(), 2);
    let blocked = decode_png(&board_png(&blocked, None, None));
    for s in ["c1", "c2", "d3", "i3"] {
        assert!(free(&blocked, s), "{s} is still on a free line");
    }
    for s in ["c4", "c5", "c9"] {
        assert!(!free(&blocked, s), "{s} is cut off");
    }
    assert!(free(&danger, "c9"));
}

#[test]
fn captions_take_any_unicode_and_never_break_the_image() {
    let position = Position::start(Rules::default());
    let plain = decode_png(&board_png(&position, None, None));
    let band_differs = |img: &RgbaImage| {
        let top = TABLUT.caption_top;
        (top..BOARD_SIZE_PX)
            .any(|y| (0..BOARD_SIZE_PX).any(|x| img.get_pixel(x, y) != plain.get_pixel(x, y)))
    };
    let long = "Ragnhild Astridsdóttir of the Northern Shore ".repeat(5);
    let captions = [
        "Move 12 · Astrid (attackers) to play",
        "Zoë Ærøskøbing · Ólafur · Łukasz · Jürgen · Ивана · Ελένη",
        "山田太郎 (defenders) to play",
        "🐻 Bear 👑",
        "line\nbreak\ttab\u{0007}bell",
        "\u{200D}\u{FE0F}",
        "",
        "   ",
        long.as_str(),
        "עברית مرحبا",
    ];
    for caption in captions {
        let img = decode_png(&board_png(&position, None, Some(caption)));
        assert_eq!(
            img.dimensions(),
            (BOARD_SIZE_PX, BOARD_SIZE_PX),
            "{caption:?}"
        );
        // The board itself is untouched by the caption.
        for s in Square::all_on(9) {
            assert_eq!(
                what_is_at(&img, s),
                expected(&position, s),
                "{caption:?}: {s}"
            );
        }
        let visible = !caption.trim().is_empty() && caption != "\u{200D}\u{FE0F}";
        assert_eq!(band_differs(&img), visible, "{caption:?}");
    }
}

/// A board PNG's budget: 40 KB, taken as 40 000 bytes (not 40 KiB).
const MAX_PNG_BYTES: usize = 40_000;

#[test]
fn board_pngs_stay_within_40_kb() {
    let mut boards = vec![(Position::start(Rules::default()), None)];
    for seed in 1..=12 {
        let game = random_game(Rules::default(), seed, 10 + seed as usize * 7);
        boards.push((*game.position(), game.moves().last().copied()));
    }
    let caption = "Move 44 · Astrid Ragnhildsdóttir (defenders) to play";
    for (position, last) in boards {
        let png = board_png(&position, last.as_ref(), Some(caption));
        assert!(png.len() <= MAX_PNG_BYTES, "{} bytes", png.len());
    }
}

#[test]
fn the_replay_has_one_frame_per_ply_plus_the_start_and_each_shows_its_board() {
    let game = long_game(Rules::default(), 24);
    let frames = decode_gif(&replay_gif(&game, &|ply| replay_caption(&game, ply)));
    assert_eq!(frames.len(), game.moves().len() + 1);
    for frame in &frames {
        assert_eq!(frame.dimensions(), (BOARD_SIZE_PX, BOARD_SIZE_PX));
    }
    // The board part of each frame is the board PNG of its position after its move.
    for (ply, frame) in frames.iter().enumerate() {
        let position = &game.positions()[ply];
        let last = if ply == 0 {
            None
        } else {
            game.moves().get(ply - 1)
        };
        let png = decode_png(&board_png(position, last, None));
        for s in Square::all_on(9) {
            let (x, y) = square_origin(s);
            for (dx, dy) in [(SQUARE_PX / 2, SQUARE_PX / 2), (5, 8), (20, 30), (50, 12)] {
                assert_eq!(
                    frame.get_pixel(x + dx, y + dy),
                    png.get_pixel(x + dx, y + dy),
                    "ply {ply}, square {s}"
                );
            }
        }
    }
}

#[test]
fn replays_straight_after_a_king_capture_an_escape_and_a_capture_work() {
    let games = [
        game_from("/3t5/9/1tK6/9/9/9/9/9/t8/", Side::Attackers, &["d1-d3"]),
        game_from("/9/9/9/9/2t1K3t/9/9/9/9/", Side::Defenders, &["e5-e9"]),
        game_from("/4t4/9/9/2tT1Tt2/4K4/9/9/9/9/", Side::Attackers, &["e1-e4"]),
        Game::new(Rules::default()),
    ];
    for game in games {
        let frames = decode_gif(&replay_gif(&game, &|ply| replay_caption(&game, ply)));
        assert_eq!(frames.len(), game.moves().len() + 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Every variant's board: Brandubh's 7×7 and Copenhagen's 11×11 and 13×13 beside Tablut's 9×9.

/// What the middle of a square of a variant's board shows (as [`what_is_at`] for Tablut's).
fn what_is_on(img: &RgbaImage, layout: &Layout, s: Square) -> &'static str {
    let c = pixel(img, layout.square_centre(s));
    let candidates = [
        ("attacker", theme::ATTACKER_BOSS),
        ("defender", theme::DEFENDER_CROSS),
        ("king", theme::GOLD),
        ("empty", theme::LINEN),
        ("empty", theme::FORT_CLOTH),
        ("empty", theme::REFUGE_CLOTH),
    ];
    let (name, colour) = candidates
        .iter()
        .min_by_key(|(_, colour)| distance(c, *colour))
        .unwrap();
    assert!(
        distance(c, *colour) < 50,
        "{s}: {c:?} is near no piece colour"
    );
    name
}

/// The cloth near a square's top-left corner, clear of every piece and of the stitches: the
/// tower of a fort (the throne, or a corner refuge) or plain linen.
fn ground_of(img: &RgbaImage, layout: &Layout, s: Square) -> &'static str {
    let (x, y) = layout.square_origin(s);
    let d = layout.square_px * 10 / 68;
    let c = pixel(img, (x + d, y + d));
    let candidates = [
        ("throne", theme::FORT_WALL),
        ("refuge", theme::REFUGE_WALL),
        ("plain", theme::LINEN),
    ];
    let (name, colour) = candidates
        .iter()
        .min_by_key(|(_, colour)| distance(c, *colour))
        .unwrap();
    assert!(distance(c, *colour) < 40, "{s}: {c:?} is no cloth");
    name
}

fn vsq(variant: Variant, name: &str) -> Square {
    Square::parse_on(name, variant.size()).unwrap()
}

/// A position of `variant` from its pieces.
fn pieces(variant: Variant, attackers: &str, defenders: &str, king: &str, turn: Side) -> Position {
    let set =
        |names: &str| -> Bitboard { names.split_whitespace().map(|n| vsq(variant, n)).collect() };
    let king = (!king.is_empty()).then(|| vsq(variant, king));
    Position::new(set(attackers), set(defenders), king, turn, variant.rules()).unwrap()
}

/// Whether a pixel is the labels' cream (anti-aliased text counts when it is nearer the text
/// than the wool).
fn is_text(img: &RgbaImage, x: u32, y: u32) -> bool {
    let c = pixel(img, (x, y));
    distance(c, theme::TEXT) < distance(c, theme::FRAME)
}

#[test]
fn every_variant_draws_its_own_board_size_in_the_same_image_size() {
    let mut square_px = Vec::new();
    for variant in Variant::ALL {
        let layout = Layout::of(variant);
        let n = variant.size() as u32;
        assert_eq!(layout.size, variant.size());
        assert_eq!(layout.board_px, n * layout.square_px);
        square_px.push(layout.square_px);
        let start = Position::start_of(variant);
        let img = decode_png(&board_png(&start, None, Some(variant_title(variant))));
        assert_eq!(
            img.dimensions(),
            (BOARD_SIZE_PX, BOARD_SIZE_PX),
            "{variant}"
        );
        // Every square of the board shows its piece, or nothing.
        for s in variant.squares() {
            assert_eq!(
                what_is_on(&img, &layout, s),
                expected(&start, s),
                "{variant} {s}"
            );
        }
        // The board ends at its last file and top rank: beyond them is the embroidered band.
        let right = layout.board_left + layout.board_px;
        let (_, y) = layout.square_centre(vsq(variant, "a2"));
        assert!(
            distance(pixel(&img, (right - 4, y)), theme::LINEN) < 30,
            "{variant}"
        );
        // (Colours within the palette's rounding.)
        let band = |x: u32, y: u32| distance(pixel(&img, (x, y)), theme::BAND_YELLOW) < 12;
        assert!(band(right, y), "{variant}");
        assert!(band(layout.board_left - 1, y), "{variant}");
        assert!(band(right - 4, layout.board_top - 1), "{variant}");
        // A file letter above every file and below it, a rank number beside every rank,
        // each inside its own column or row.
        for i in 0..n {
            let x0 = layout.board_left + i * layout.square_px;
            let column = |y0: u32, y1: u32| {
                (y0..y1).any(|y| (x0..x0 + layout.square_px).any(|x| is_text(&img, x, y)))
            };
            assert!(
                column(0, layout.board_top - 10),
                "{variant}: file {i} above"
            );
            let below = layout.board_top + layout.board_px + 10;
            assert!(
                column(below, layout.caption_top),
                "{variant}: file {i} below"
            );
            let y0 = layout.board_top + i * layout.square_px;
            let row = |x0: u32, x1: u32| {
                (y0..y0 + layout.square_px).any(|y| (x0..x1).any(|x| is_text(&img, x, y)))
            };
            assert!(
                row(0, layout.board_left - 10),
                "{variant}: rank {} left",
                n - i
            );
            assert!(
                row(right + 10, BOARD_SIZE_PX),
                "{variant}: rank {} right",
                n - i
            );
        }
        // Ranks 10 and 11 are two figures: wider than rank 1.
        let ink_width = |rank: &str| {
            let s = vsq(variant, &format!("a{rank}"));
            let (_, y0) = layout.square_origin(s);
            let xs: Vec<u32> = (0..layout.board_left - 10)
                .filter(|&x| (y0..y0 + layout.square_px).any(|y| is_text(&img, x, y)))
                .collect();
            xs.last().unwrap() - xs.first().unwrap()
        };
        if variant.size() >= 11 {
            assert!(ink_width("11") > ink_width("1") + 6);
            assert!(ink_width("10") > ink_width("9") + 6);
        }
        if variant.size() == 13 {
            assert!(ink_width("13") > ink_width("7") + 6);
        }
    }
    // The boards fill about the same area: bigger boards have smaller squares.
    assert_eq!(square_px, [68, 87, 56, 47]);
}

#[test]
fn the_throne_and_the_corners_are_marked_on_every_board() {
    for variant in Variant::ALL {
        let layout = Layout::of(variant);
        let start = Position::start_of(variant);
        let img = decode_png(&board_png(&start, None, None));
        let corners = variant.corners();
        for s in variant.squares() {
            let want = if s == variant.castle() {
                "throne"
            } else if corners.contains(&s) && variant != Variant::Tablut {
                // Brandubh's and Copenhagen's corners are where the king escapes, hostile to
                // every piece; Tablut's are plain under its edge rules.
                "refuge"
            } else {
                "plain"
            };
            assert_eq!(ground_of(&img, &layout, s), want, "{variant} {s}");
        }
        // The throne shows its fort with the king on it and without him.
        let castle = variant.castle();
        assert_eq!(what_is_on(&img, &layout, castle), "king");
    }
    // Brandubh's throne d4 empty after the king leaves: the fort's courtyard shows.
    let mut game = Game::new(Variant::Brandubh.rules());
    for m in ["d2-c2", "d3-e3", "a4-a3", "d4-d3"] {
        game.play_text(m).unwrap();
    }
    let layout = Layout::of(Variant::Brandubh);
    let img = png_after(&game, None);
    let d4 = vsq(Variant::Brandubh, "d4");
    assert_eq!(what_is_on(&img, &layout, d4), "empty");
    assert!(distance(pixel(&img, layout.square_centre(d4)), theme::FORT_CLOTH) < 40);
}

#[test]
fn every_variant_highlights_the_last_move_and_marks_captures() {
    for variant in [Variant::Brandubh, Variant::Copenhagen] {
        let layout = Layout::of(variant);
        let game = long_game(variant.rules(), 16);
        let last = *game.moves().last().unwrap();
        let with = png_after(&game, Some("Move 8"));
        let without = decode_png(&board_png(game.position(), None, Some("Move 8")));
        let corner = |img: &RgbaImage, s: Square| {
            let (x, y) = layout.square_origin(s);
            pixel(img, (x + 5, y + 8))
        };
        for s in variant.squares() {
            assert_eq!(
                what_is_on(&with, &layout, s),
                expected(game.position(), s),
                "{s}"
            );
            let (a, b) = (corner(&with, s), corner(&without, s));
            if s == variant.castle() && a != b {
                // The throne's fort wall covers that pixel; its tint is checked elsewhere.
                assert!(s == last.mv.from || s == last.mv.to);
            } else if s == last.mv.from {
                assert!(distance(a, theme::MOVE_FROM) + 30 < distance(b, theme::MOVE_FROM));
            } else if s == last.mv.to {
                assert!(distance(a, theme::MOVE_TO) + 30 < distance(b, theme::MOVE_TO));
            } else {
                assert_eq!(a, b, "{variant}: {s} is not highlighted");
            }
        }
    }
    // Captures: Copenhagen's shieldwall takes three defenders at once on the edge.
    let c = Variant::Copenhagen;
    let mut game = Game::from_position(pieces(
        c,
        "c2 d2 e2 f1 b5",
        "c1 d1 e1",
        "f8",
        Side::Attackers,
    ));
    let played = game.play_text("b5-b1").unwrap();
    assert_eq!(played.captured.count(), 3, "{played}");
    let layout = Layout::of(c);
    let img = png_after(&game, None);
    for s in c.squares() {
        let marked = distance(pixel(&img, layout.square_centre(s)), theme::CAPTURE_MARK) < 60;
        assert_eq!(
            marked,
            ["c1", "d1", "e1"].contains(&s.to_string().as_str()),
            "{s}"
        );
    }
}

#[test]
fn a_fallen_king_is_marked_on_brandubh_and_copenhagen_boards() {
    let cases = [
        // Brandubh: taken by two away from the throne.
        (
            Variant::Brandubh,
            pieces(Variant::Brandubh, "b6 d7", "f2", "c6", Side::Attackers),
            "d7-d6",
            "c6",
        ),
        // Copenhagen: taken on four sides.
        (
            Variant::Copenhagen,
            pieces(
                Variant::Copenhagen,
                "e8 g8 f9 a7",
                "",
                "f8",
                Side::Attackers,
            ),
            "a7-f7",
            "f8",
        ),
    ];
    for (variant, position, mv, king) in cases {
        let layout = Layout::of(variant);
        let mut game = Game::from_position(position);
        game.play_text(mv).unwrap();
        assert_eq!(game.outcome().reason(), Some(Reason::KingCaptured));
        let img = png_after(&game, Some("Attackers win"));
        let king = vsq(variant, king);
        assert!(distance(pixel(&img, layout.square_centre(king)), theme::CAPTURE_MARK) < 60);
        let to = game.moves()[0].mv.to;
        assert_eq!(what_is_on(&img, &layout, to), "attacker");
    }
}

#[test]
fn the_king_escapes_to_a_corner_and_his_free_lines_show_on_every_board() {
    for variant in [Variant::Brandubh, Variant::Copenhagen] {
        let layout = Layout::of(variant);
        let last = variant.size() - 1;
        // The king on b6 (b10), one rank below the top, and an attacker far away on g2 (k2):
        // none of his lines ends on a corner.
        let b = char::from(b'a' + 1);
        let king = format!("{b}{}", last);
        let far = format!("{}2", char::from(b'a' + last));
        let position = pieces(variant, &far, "", &king, Side::Attackers);
        assert_eq!(
            position.king_free_lines(),
            0,
            "no line reaches a corner yet"
        );
        // He steps to the top rank: a7 and g7 (a11 and k11) are both in reach along it.
        let mut game = Game::from_position(position.with_turn(Side::Defenders));
        let top = format!("{b}{}", last + 1);
        game.play_text(&format!("{king}-{top}")).unwrap();
        assert_eq!(game.position().king_free_lines(), 2, "{variant}: tuichu");
        let img = png_after(&game, None);
        let free = |s: &str| {
            distance(
                pixel(&img, layout.square_centre(vsq(variant, s))),
                theme::FREE_LINE,
            ) < 40
        };
        let top_left = format!("a{}", last + 1);
        let top_right = format!("{}{}", char::from(b'a' + last), last + 1);
        let beside = format!("c{}", last + 1);
        assert!(
            free(&top_left) && free(&top_right) && free(&beside),
            "{variant}"
        );
        assert!(!free(&format!("a{last}")), "{variant}");
        // Then to the corner: he stands on the refuge.
        game.play_text(&format!("{far}-{}3", char::from(b'a' + last)))
            .unwrap();
        game.play_text(&format!("{top}-{top_left}")).unwrap();
        assert_eq!(game.outcome().reason(), Some(Reason::KingEscaped));
        let img = png_after(&game, Some("Defenders win"));
        let corner = vsq(variant, &top_left);
        assert_eq!(what_is_on(&img, &layout, corner), "king");
        assert_eq!(ground_of(&img, &layout, vsq(variant, "a1")), "refuge");
    }
}

#[test]
fn brandubh_and_copenhagen_replays_have_a_frame_per_ply_each_showing_its_board() {
    for variant in [Variant::Brandubh, Variant::Copenhagen] {
        let layout = Layout::of(variant);
        let game = long_game(variant.rules(), 12);
        let frames = decode_gif(&replay_gif(&game, &|ply| replay_caption(&game, ply)));
        assert_eq!(frames.len(), 13, "{variant}: the start and 12 plies");
        for (ply, frame) in frames.iter().enumerate() {
            assert_eq!(frame.dimensions(), (BOARD_SIZE_PX, BOARD_SIZE_PX));
            let last = if ply == 0 {
                None
            } else {
                game.moves().get(ply - 1)
            };
            let png = decode_png(&board_png(&game.positions()[ply], last, None));
            let n = layout.square_px;
            for s in variant.squares() {
                let (x, y) = layout.square_origin(s);
                for (dx, dy) in [(n / 2, n / 2), (5, 8), (n / 3, n / 2), (n * 3 / 4, n / 5)] {
                    assert_eq!(
                        frame.get_pixel(x + dx, y + dy),
                        png.get_pixel(x + dx, y + dy),
                        "{variant}: ply {ply}, square {s}"
                    );
                }
            }
        }
    }
    // A game that ends at once.
    let mut game = Game::from_position(pieces(
        Variant::Brandubh,
        "b6 d7",
        "f2",
        "c6",
        Side::Attackers,
    ));
    game.play_text("d7-d6").unwrap();
    assert_eq!(
        decode_gif(&replay_gif(&game, &|ply| replay_caption(&game, ply))).len(),
        2
    );
}

#[test]
fn every_variants_board_pngs_stay_within_40_kb() {
    for variant in Variant::ALL {
        let largest = sample_boards(variant.rules())
            .iter()
            .map(|(position, last)| board_png(position, last.as_ref(), Some(LONG_CAPTION)).len())
            .max()
            .unwrap();
        eprintln!("{variant}: the largest board PNG is {largest} bytes");
        assert!(largest <= MAX_PNG_BYTES, "{variant}: {largest} bytes");
    }
}
