//! GIF's LZW compression for 8-bit palette indices, with a small open-addressing table that
//! stays in the processor's cache: several times faster than the general-purpose encoder on
//! the long transparent runs of replay frames. The output follows giflib's encoder code for
//! code for the points where the code width grows and where the table is cleared.

const MIN_CODE_SIZE: u8 = 8;
const CLEAR: u16 = 1 << MIN_CODE_SIZE;
const END: u16 = CLEAR + 1;
const FIRST_FREE: u16 = CLEAR + 2;
/// giflib clears the table when the next free code would be 4095.
const TABLE_FULL: u16 = 4095;

const SLOTS: usize = 1 << 13;

/// The strings seen so far: (prefix code, next byte) -> code.
struct Table {
    /// `prefix << 8 | byte`, plus one; zero for a free slot.
    keys: Box<[u32; SLOTS]>,
    codes: Box<[u16; SLOTS]>,
}

impl Table {
    fn new() -> Table {
        Table {
            keys: Box::new([0; SLOTS]),
            codes: Box::new([0; SLOTS]),
        }
    }

    fn clear(&mut self) {
        self.keys.fill(0);
    }

    #[inline(always)]
    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - 13)) as usize
    }

    /// The code of `prefix + byte`, or the free slot where it would go.
    #[inline(always)]
    fn find(&self, key: u32) -> Result<u16, usize> {
        let mut i = Table::slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                return Ok(self.codes[i]);
            }
            if k == 0 {
                return Err(i);
            }
            i = (i + 1) & (SLOTS - 1);
        }
    }
}

/// Packs codes of varying width, least significant bit first.
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    #[inline(always)]
    fn put(&mut self, code: u16, width: u8) {
        self.acc |= u64::from(code) << self.n;
        self.n += u32::from(width);
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// The LZW stream of `data` as [`gif::Encoder::write_lzw_pre_encoded_frame`] takes it: the
/// minimum code size (8), then the codes.
///
/// Runs of `run_byte` (the transparent index of replay frames) skip the table: the encoder
/// keeps the codes of the runs it has seen (one byte, two, three, …) and emits the longest
/// that fits. That parse is not always the greedy one, which LZW allows: the decoder only
/// ever adds "last string + first byte of this one", and so does the encoder, even when the
/// string is already known.
pub(crate) fn encode(data: &[u8], run_byte: u8) -> Vec<u8> {
    let mut bits = Bits {
        out: Vec::with_capacity(data.len() / 4 + 16),
        acc: 0,
        n: 0,
    };
    bits.out.push(MIN_CODE_SIZE);
    let mut table = Table::new();
    let mut width = MIN_CODE_SIZE + 1;
    let mut next = FIRST_FREE;
    // runs[k] is the code of k run bytes (runs[0] is unused).
    let mut runs: Vec<u16> = vec![0, u16::from(run_byte)];
    bits.put(CLEAR, width);
    let n = data.len();
    let mut i = 0;
    while i < n {
        let (code, len) = if data[i] == run_byte {
            let longest = (runs.len() - 1).min(n - i);
            let k = data[i..i + longest]
                .iter()
                .position(|&b| b != run_byte)
                .unwrap_or(longest);
            (runs[k], k)
        } else {
            let mut prefix = u16::from(data[i]);
            let mut j = i + 1;
            while j < n {
                match table.find(key(prefix, data[j])) {
                    Ok(code) => prefix = code,
                    Err(_) => break,
                }
                j += 1;
            }
            (prefix, j - i)
        };
        i += len;
        bits.put(code, width);
        if next >= 1 << width && width < 12 {
            width += 1;
        }
        if i == n {
            break;
        }
        if next >= TABLE_FULL {
            bits.put(CLEAR, width);
            table.clear();
            runs.truncate(2);
            next = FIRST_FREE;
            width = MIN_CODE_SIZE + 1;
            continue;
        }
        let b = data[i];
        let k = key(code, b);
        if let Err(slot) = table.find(k) {
            table.keys[slot] = k;
            table.codes[slot] = next;
        }
        if b == run_byte && len == runs.len() - 1 && code == runs[len] {
            runs.push(next);
        }
        next += 1;
    }
    bits.put(END, width);
    bits.finish()
}

#[inline(always)]
fn key(prefix: u16, byte: u8) -> u32 {
    (u32::from(prefix) << 8 | u32::from(byte)) + 1
}
