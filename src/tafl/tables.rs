//! Board geometry: masks, rays and neighbour tables for each board size, computed at compile
//! time. Squares are numbered with a stride of 13 on every board (see [`super::square`]), so a
//! board smaller than 13×13 has empty columns to its right: a shift east or west off the board
//! lands on a square outside the board's mask and needs no wrap mask. Only the 13×13 board
//! fills its rows and needs them.

use super::bitboard::{Bitboard, Bits, Word};
use super::square::{SQUARES, STRIDE};

/// Directions: north (+rank), east (+file), south (-rank), west (-file).
pub const NORTH: usize = 0;
pub const EAST: usize = 1;
pub const SOUTH: usize = 2;
pub const WEST: usize = 3;
pub const DIRECTIONS: [usize; 4] = [NORTH, EAST, SOUTH, WEST];

/// 255 where there is no neighbour.
pub const NONE: u8 = 255;

/// Everything the engine needs to know about one board size, its sets of squares held in `W`
/// ([`Bits`], or a `u128` for the hot paths of boards that fit one: [`Board`]).
#[derive(Debug)]
pub struct Geometry<W = Bits> {
    /// Squares per side: 7, 9, 11 or 13.
    pub size: u8,
    /// Every square of the board.
    pub full: W,
    /// The squares on the edge.
    pub edge: W,
    /// The four corners.
    pub corners: W,
    /// The centre square (the castle, or throne).
    pub centre: W,
    /// The centre square's index.
    pub centre_sq: usize,
    /// The first file (a) and the last file.
    pub first_file: W,
    pub last_file: W,
    /// `rays[dir][sq]`: the squares from `sq` (exclusive) to the edge in direction `dir`.
    pub rays: [[W; SQUARES]; 4],
    /// `neighbours[sq][dir]`: the adjacent square in that direction, or [`NONE`].
    pub neighbours: [[u8; 4]; SQUARES],
    /// `adjacent[sq]`: the (up to four) orthogonal neighbours.
    pub adjacent: [W; SQUARES],
    /// `to_centre[sq]`: squares after `sq` up to and including the centre, if `sq` shares its
    /// line. Used to cut a slide at the centre when it may not be passed.
    pub to_centre: [W; SQUARES],
}

const fn step(n: usize, sq: usize, dir: usize) -> Option<usize> {
    let f = sq % STRIDE;
    let r = sq / STRIDE;
    if f >= n || r >= n {
        return None;
    }
    match dir {
        NORTH if r + 1 < n => Some(sq + STRIDE),
        EAST if f + 1 < n => Some(sq + 1),
        SOUTH if r > 0 => Some(sq - STRIDE),
        WEST if f > 0 => Some(sq - 1),
        _ => None,
    }
}

const fn on_board(n: usize, sq: usize) -> bool {
    sq % STRIDE < n && sq / STRIDE < n
}

const fn make_geometry(n: usize) -> Geometry {
    let centre_sq = (n / 2) * STRIDE + n / 2;
    let mut g = Geometry {
        size: n as u8,
        full: Bits::ZERO,
        edge: Bits::ZERO,
        corners: Bits::ZERO,
        centre: Bits::bit(centre_sq),
        centre_sq,
        first_file: Bits::ZERO,
        last_file: Bits::ZERO,
        rays: [[Bits::ZERO; SQUARES]; 4],
        neighbours: [[NONE; 4]; SQUARES],
        adjacent: [Bits::ZERO; SQUARES],
        to_centre: [Bits::ZERO; SQUARES],
    };
    let mut sq = 0;
    while sq < SQUARES {
        if on_board(n, sq) {
            let f = sq % STRIDE;
            let r = sq / STRIDE;
            let bit = Bits::bit(sq);
            g.full = g.full.or(bit);
            if f == 0 || f == n - 1 || r == 0 || r == n - 1 {
                g.edge = g.edge.or(bit);
            }
            if (f == 0 || f == n - 1) && (r == 0 || r == n - 1) {
                g.corners = g.corners.or(bit);
            }
            if f == 0 {
                g.first_file = g.first_file.or(bit);
            }
            if f == n - 1 {
                g.last_file = g.last_file.or(bit);
            }
            let mut dir = 0;
            while dir < 4 {
                if let Some(s) = step(n, sq, dir) {
                    g.neighbours[sq][dir] = s as u8;
                    g.adjacent[sq] = g.adjacent[sq].or(Bits::bit(s));
                }
                let mut ray = Bits::ZERO;
                let mut cur = step(n, sq, dir);
                while let Some(s) = cur {
                    ray = ray.or(Bits::bit(s));
                    if s == centre_sq {
                        g.to_centre[sq] = ray;
                    }
                    cur = step(n, s, dir);
                }
                g.rays[dir][sq] = ray;
                dir += 1;
            }
        }
        sq += 1;
    }
    g
}

/// A geometry's sets as `u128`s: for a board of up to 9×9, whose squares' indices are below 128.
const fn narrow(g: Geometry) -> Geometry<u128> {
    let mut rays = [[0; SQUARES]; 4];
    let mut adjacent = [0; SQUARES];
    let mut to_centre = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut dir = 0;
        while dir < 4 {
            rays[dir][sq] = g.rays[dir][sq].lo();
            dir += 1;
        }
        adjacent[sq] = g.adjacent[sq].lo();
        to_centre[sq] = g.to_centre[sq].lo();
        sq += 1;
    }
    Geometry {
        size: g.size,
        full: g.full.lo(),
        edge: g.edge.lo(),
        corners: g.corners.lo(),
        centre: g.centre.lo(),
        centre_sq: g.centre_sq,
        first_file: g.first_file.lo(),
        last_file: g.last_file.lo(),
        rays,
        neighbours: g.neighbours,
        adjacent,
        to_centre,
    }
}

/// A board size, as the engine's hot paths are compiled for it: `Size<7>`, `Size<9>`,
/// `Size<11>`, `Size<13>`. The 7×7 and 9×9 boards hold their sets in a `u128` (every one of
/// their squares' indices is below 128); 11×11 and 13×13 in [`Bits`].
pub struct Size<const N: usize>;

/// What a board size's code works with: its word and its tables in that word.
pub trait Board {
    type W: Word;
    fn geo() -> &'static Geometry<Self::W>;
}

impl Board for Size<7> {
    type W = u128;
    #[inline(always)]
    fn geo() -> &'static Geometry<u128> {
        &GEOMETRY_7_WORD
    }
}

impl Board for Size<9> {
    type W = u128;
    #[inline(always)]
    fn geo() -> &'static Geometry<u128> {
        &GEOMETRY_9_WORD
    }
}

impl Board for Size<11> {
    type W = Bits;
    #[inline(always)]
    fn geo() -> &'static Geometry<Bits> {
        &GEOMETRY_11
    }
}

impl Board for Size<13> {
    type W = Bits;
    #[inline(always)]
    fn geo() -> &'static Geometry<Bits> {
        &GEOMETRY_13
    }
}

/// The word of the `N` × `N` board's hot paths.
pub type WordOf<const N: usize> = <Size<N> as Board>::W;

/// Brandubh's 7×7 tables in a `u128`.
static GEOMETRY_7_WORD: Geometry<u128> = narrow(make_geometry(7));
/// Tablut's 9×9 tables in a `u128`.
static GEOMETRY_9_WORD: Geometry<u128> = narrow(make_geometry(9));

/// Brandubh's 7×7 board.
pub static GEOMETRY_7: Geometry = make_geometry(7);
/// Tablut's 9×9 board.
pub static GEOMETRY_9: Geometry = make_geometry(9);
/// Copenhagen Hnefatafl's 11×11 board.
pub static GEOMETRY_11: Geometry = make_geometry(11);
/// Copenhagen Hnefatafl's 13×13 board.
pub static GEOMETRY_13: Geometry = make_geometry(13);

/// The geometry of a `size` × `size` board (7, 9, 11 or 13; any other size is 13's).
#[inline(always)]
pub fn geometry(size: u8) -> &'static Geometry {
    match size {
        7 => &GEOMETRY_7,
        9 => &GEOMETRY_9,
        11 => &GEOMETRY_11,
        _ => &GEOMETRY_13,
    }
}

impl Bitboard {
    /// The squares of a `size` × `size` board not in the set.
    pub fn complement_on(self, size: u8) -> Bitboard {
        Bitboard(self.0.not() & geometry(size).full)
    }
}

/// The squares reachable from `sq` in direction `dir` on a board, stopping before the first
/// blocker.
#[inline(always)]
pub fn slide_on<W: Word>(g: &Geometry<W>, sq: usize, dir: usize, blockers: W) -> W {
    let ray = g.rays[dir][sq];
    let hits = ray & blockers;
    if hits.is_zero() {
        return ray;
    }
    if dir == NORTH || dir == EAST {
        ray & W::below(hits.trailing_zeros())
    } else {
        ray & W::above(hits.highest())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::Square;

    #[test]
    fn tablut_s_masks_are_the_9x9_geometry_s() {
        assert_eq!(Bitboard::FULL.0, GEOMETRY_9.full);
        assert_eq!(Bitboard::EDGE.0, GEOMETRY_9.edge);
        assert_eq!(Bitboard::CORNERS.0, GEOMETRY_9.corners);
        assert_eq!(Bitboard::CASTLE.0, GEOMETRY_9.centre);
        assert_eq!(Bitboard::FILE_A.0, GEOMETRY_9.first_file);
        assert_eq!(Bitboard::FILE_I.0, GEOMETRY_9.last_file);
        assert_eq!(Bitboard::ALL_SQUARES.0, GEOMETRY_13.full);
        assert_eq!(Bitboard::EMPTY.complement_on(7).count(), 49);
    }

    fn idx(name: &str) -> usize {
        name.parse::<Square>().unwrap().index()
    }

    #[test]
    fn rays_and_neighbours() {
        let g = &GEOMETRY_9;
        let (rays, neighbours, adjacent) = (&g.rays, &g.neighbours, &g.adjacent);
        let e5 = idx("e5");
        // e5: four rays of four squares each.
        for dir in DIRECTIONS {
            assert_eq!(rays[dir][e5].count_ones(), 4);
        }
        assert_eq!(rays[NORTH][0].count_ones(), 8);
        assert_eq!(rays[SOUTH][0], Bits::ZERO);
        assert_eq!(neighbours[0][WEST], NONE);
        assert_eq!(neighbours[0][EAST], 1);
        assert_eq!(adjacent[e5].count_ones(), 4);
        assert_eq!(adjacent[0].count_ones(), 2);
        // From e1 toward the castle: e2 e3 e4 e5.
        assert_eq!(g.to_centre[idx("e1")].count_ones(), 4);
        assert_eq!(g.to_centre[0], Bits::ZERO);
    }

    #[test]
    fn slides_stop_before_blockers() {
        let g = &GEOMETRY_9;
        let b = |n: &str| Bits::bit(idx(n));
        // From a1 north with a blocker on a4: a2, a3.
        assert_eq!(slide_on(g, 0, NORTH, b("a4")), b("a2") | b("a3"));
        // From i9 south with a blocker on i7: i8 only.
        assert_eq!(slide_on(g, idx("i9"), SOUTH, b("i7")), b("i8"));
        // West from e5 with a blocker on c5: d5 only.
        assert_eq!(slide_on(g, idx("e5"), WEST, b("c5")), b("d5"));
    }

    #[test]
    fn the_u128_tables_hold_the_same_squares_and_slide_the_same() {
        fn same(w: &Geometry<u128>, b: &Geometry) {
            let lo = Bits::from_lo;
            assert_eq!((w.size, w.centre_sq), (b.size, b.centre_sq));
            assert_eq!(
                [
                    w.full,
                    w.edge,
                    w.corners,
                    w.centre,
                    w.first_file,
                    w.last_file
                ]
                .map(lo),
                [
                    b.full,
                    b.edge,
                    b.corners,
                    b.centre,
                    b.first_file,
                    b.last_file
                ]
            );
            assert_eq!(w.neighbours, b.neighbours);
            let mut rng = fastrand::Rng::with_seed(7);
            for sq in Square::all_on(b.size) {
                let i = sq.index();
                assert_eq!(lo(w.adjacent[i]), b.adjacent[i]);
                assert_eq!(lo(w.to_centre[i]), b.to_centre[i]);
                for dir in DIRECTIONS {
                    assert_eq!(lo(w.rays[dir][i]), b.rays[dir][i]);
                    let blockers = rng.u128(..) & w.full;
                    assert_eq!(
                        lo(slide_on(w, i, dir, blockers)),
                        slide_on(b, i, dir, lo(blockers))
                    );
                }
            }
        }
        same(Size::<7>::geo(), &GEOMETRY_7);
        same(Size::<9>::geo(), &GEOMETRY_9);
        assert!(std::ptr::eq(Size::<11>::geo(), &GEOMETRY_11));
        assert!(std::ptr::eq(Size::<13>::geo(), &GEOMETRY_13));
    }

    #[test]
    fn every_size_has_its_own_edges() {
        for (g, n) in [
            (&GEOMETRY_7, 7u32),
            (&GEOMETRY_9, 9),
            (&GEOMETRY_11, 11),
            (&GEOMETRY_13, 13),
        ] {
            assert_eq!(g.full.count_ones(), n * n);
            assert_eq!(g.edge.count_ones(), 4 * n - 4);
            assert_eq!(g.corners.count_ones(), 4);
            assert_eq!(g.first_file.count_ones(), n);
            assert_eq!(g.last_file.count_ones(), n);
            let centre = Square::new(g.centre_sq as u8).unwrap();
            assert_eq!((centre.file(), centre.rank()), (n as u8 / 2, n as u8 / 2));
            // From a1 a ray runs north and east to the edge, n - 1 squares each.
            assert_eq!(g.rays[NORTH][0].count_ones(), n - 1);
            assert_eq!(g.rays[EAST][0].count_ones(), n - 1);
            for sq in Square::all_on(n as u8) {
                for dir in DIRECTIONS {
                    assert_eq!(g.rays[dir][sq.index()] & !g.full, Bits::ZERO);
                }
            }
        }
        assert_eq!(
            GEOMETRY_11.centre_sq,
            Square::parse_on("f6", 11).unwrap().index()
        );
        assert_eq!(
            GEOMETRY_13.centre_sq,
            Square::parse_on("g7", 13).unwrap().index()
        );
        assert_eq!(GEOMETRY_7.centre_sq, idx("d4"));
    }
}
