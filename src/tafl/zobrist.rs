//! Zobrist keys, generated at compile time.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; 81]; 3] {
    let mut keys = [[0u64; 81]; 3];
    let mut state = 0x7AB1_u64;
    let mut p = 0;
    while p < 3 {
        let mut sq = 0;
        while sq < 81 {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
}

/// `PIECE_KEYS[kind][square]`, kind 0 attacker, 1 defender, 2 king.
pub static PIECE_KEYS: [[u64; 81]; 3] = make_keys();
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
}
