//! Attack and neighbour tables, computed at compile time.

/// Directions: north (+rank), east (+file), south (-rank), west (-file).
pub const NORTH: usize = 0;
pub const EAST: usize = 1;
pub const SOUTH: usize = 2;
pub const WEST: usize = 3;
pub const DIRECTIONS: [usize; 4] = [NORTH, EAST, SOUTH, WEST];

const fn step(sq: usize, dir: usize) -> Option<usize> {
    let f = sq % 9;
    let r = sq / 9;
    match dir {
        NORTH if r < 8 => Some(sq + 9),
        EAST if f < 8 => Some(sq + 1),
        SOUTH if r > 0 => Some(sq - 9),
        WEST if f > 0 => Some(sq - 1),
        _ => None,
    }
}

const fn make_rays() -> [[u128; 81]; 4] {
    let mut rays = [[0u128; 81]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < 81 {
            let mut m = 0u128;
            let mut cur = step(sq, dir);
            while let Some(s) = cur {
                m |= 1u128 << s;
                cur = step(s, dir);
            }
            rays[dir][sq] = m;
            sq += 1;
        }
        dir += 1;
    }
    rays
}

/// 255 where there is no neighbour.
pub const NONE: u8 = 255;

const fn make_neighbours() -> [[u8; 4]; 81] {
    let mut n = [[NONE; 4]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut dir = 0;
        while dir < 4 {
            if let Some(s) = step(sq, dir) {
                n[sq][dir] = s as u8;
            }
            dir += 1;
        }
        sq += 1;
    }
    n
}

const fn make_adjacent() -> [u128; 81] {
    let mut a = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut dir = 0;
        while dir < 4 {
            if let Some(s) = step(sq, dir) {
                a[sq] |= 1u128 << s;
            }
            dir += 1;
        }
        sq += 1;
    }
    a
}

const fn make_between_castle() -> [u128; 81] {
    // For squares on the castle's rank or file: the squares from there up to and including the
    // castle. Used to cut a slide at the castle when it may not be passed.
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut dir = 0;
        while dir < 4 {
            let mut m = 0u128;
            let mut cur = step(sq, dir);
            while let Some(s) = cur {
                m |= 1u128 << s;
                if s == 40 {
                    t[sq] = m;
                    break;
                }
                cur = step(s, dir);
            }
            dir += 1;
        }
        sq += 1;
    }
    t
}

/// `RAYS[dir][sq]`: the squares from `sq` (exclusive) to the edge in direction `dir`.
pub static RAYS: [[u128; 81]; 4] = make_rays();
/// `NEIGHBOURS[sq][dir]`: the adjacent square in that direction, or [`NONE`].
pub static NEIGHBOURS: [[u8; 4]; 81] = make_neighbours();
/// `ADJACENT[sq]`: the (up to four) orthogonal neighbours.
pub static ADJACENT: [u128; 81] = make_adjacent();
/// `TO_CASTLE[sq]`: squares after `sq` up to and including the castle, if `sq` shares its line.
pub static TO_CASTLE: [u128; 81] = make_between_castle();

/// The squares reachable from `sq` in direction `dir`, stopping before the first blocker.
#[inline(always)]
pub fn slide(sq: usize, dir: usize, blockers: u128) -> u128 {
    let ray = RAYS[dir][sq];
    let hits = ray & blockers;
    if hits == 0 {
        return ray;
    }
    if dir == NORTH || dir == EAST {
        let first = hits.trailing_zeros();
        ray & ((1u128 << first) - 1)
    } else {
        let first = 127 - hits.leading_zeros();
        ray & !((2u128 << first) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_and_neighbours() {
        // e5 = 40: four rays of four squares each.
        for dir in DIRECTIONS {
            assert_eq!(RAYS[dir][40].count_ones(), 4);
        }
        assert_eq!(RAYS[NORTH][0].count_ones(), 8);
        assert_eq!(RAYS[SOUTH][0], 0);
        assert_eq!(NEIGHBOURS[0][WEST], NONE);
        assert_eq!(NEIGHBOURS[0][EAST], 1);
        assert_eq!(ADJACENT[40].count_ones(), 4);
        assert_eq!(ADJACENT[0].count_ones(), 2);
        // From e1 (4) toward the castle: e2 e3 e4 e5.
        assert_eq!(TO_CASTLE[4].count_ones(), 4);
        assert_eq!(TO_CASTLE[0], 0);
    }

    #[test]
    fn slides_stop_before_blockers() {
        // From a1 north with a blocker on a4 (27): a2, a3.
        assert_eq!(slide(0, NORTH, 1u128 << 27), (1u128 << 9) | (1u128 << 18));
        // From i9 (80) south with a blocker on i7 (62): i8 only.
        assert_eq!(slide(80, SOUTH, 1u128 << 62), 1u128 << 71);
        // West from e5 with a blocker on c5 (38): d5 only.
        assert_eq!(slide(40, WEST, 1u128 << 38), 1u128 << 39);
    }
}
