//! Zobrist keys, generated at compile time.
//!
//! Tablut's 81 squares keep the keys they had when squares were numbered `rank × 9 + file`
//! (the generator's first 243 draws, in that order), so a Tablut position hashes as it always
//! has; the other squares of the 11×11 board take the draws after them in the order they had
//! when squares were numbered `rank × 11 + file`, and the squares only the 13×13 board has the
//! draws after those.

use super::square::{SQUARES, STRIDE};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; SQUARES]; 3] {
    let mut keys = [[0u64; SQUARES]; 3];
    let mut state = 0x7AB1_u64;
    // Tablut's squares first, in their old order.
    let mut p = 0;
    while p < 3 {
        let mut sq = 0;
        while sq < 81 {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][(sq / 9) * STRIDE + sq % 9] = k;
            sq += 1;
        }
        p += 1;
    }
    // Then every square of the 11×11 board off the 9×9 board, in their old order.
    let mut p = 0;
    while p < 3 {
        let mut sq = 0;
        while sq < 121 {
            if sq % 11 >= 9 || sq / 11 >= 9 {
                let (s, k) = splitmix(state);
                state = s;
                keys[p][(sq / 11) * STRIDE + sq % 11] = k;
            }
            sq += 1;
        }
        p += 1;
    }
    // Then every square off the 11×11 board.
    let mut p = 0;
    while p < 3 {
        let mut sq = 0;
        while sq < SQUARES {
            if sq % STRIDE >= 11 || sq / STRIDE >= 11 {
                let (s, k) = splitmix(state);
                state = s;
                keys[p][sq] = k;
            }
            sq += 1;
        }
        p += 1;
    }
    keys
}

/// `PIECE_KEYS[kind][square]`, kind 0 attacker, 1 defender, 2 king.
pub static PIECE_KEYS: [[u64; SQUARES]; 3] = make_keys();
/// Mixed in while the defenders are to move.
pub const DEFENDERS_TO_MOVE: u64 = splitmix(0xD3F3_4D35).1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(DEFENDERS_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn tablut_keys_are_as_before() {
        // The first draw went to an attacker on a1, the 82nd to a defender on a1, the last of
        // the old 243 to the king on i9.
        let (mut state, mut draws) = (0x7AB1_u64, Vec::new());
        for _ in 0..283 {
            let (s, k) = splitmix(state);
            state = s;
            draws.push(k);
        }
        assert_eq!(PIECE_KEYS[0][0], draws[0]);
        assert_eq!(PIECE_KEYS[1][0], draws[81]);
        assert_eq!(PIECE_KEYS[2][8 * STRIDE + 8], draws[242]);
        assert_eq!(PIECE_KEYS[0][STRIDE], draws[9]);
        // The 11×11 board's other squares keep theirs: the 244th draw went to an attacker on
        // j1, the 19th from it to one on a10, the 40th to one on k11.
        assert_eq!(PIECE_KEYS[0][9], draws[243]);
        assert_eq!(PIECE_KEYS[0][9 * STRIDE], draws[243 + 18]);
        assert_eq!(PIECE_KEYS[0][10 * STRIDE + 10], draws[243 + 39]);
    }
}
