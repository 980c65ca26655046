//! A zlib stream for the PNG's rows, made to be fast on board images.
//!
//! A board image is mostly rows equal to the row above (the cloth, the frame) with sprites
//! that repeat along a rank. General-purpose deflate at its fastest level looks only at the
//! last place it saw the same three bytes, which on such rows is usually a short run, and
//! spends about 1 ms on a 40 KB file; its better levels find the long matches but take 2–5 ms.
//! This encoder tries two places at every step, the same spot one row up and the last place
//! the next four bytes were seen, keeps the longer match, and writes one block with its own
//! Huffman codes: a smaller file than zlib's level 1 in less time.

/// The longest and shortest match deflate allows, and its window.
const MAX_MATCH: usize = 258;
const MIN_MATCH: usize = 4;
const WINDOW: usize = 32 * 1024;

const HASH_BITS: u32 = 15;

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order in which the code-length code's lengths are written.
const CL_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// A literal byte, or a match of `len` bytes `dist` back.
#[derive(Clone, Copy)]
enum Token {
    Literal(u8),
    Match { len: u16, dist: u16 },
}

fn length_code(len: usize) -> usize {
    LENGTH_BASE.partition_point(|&b| b as usize <= len) - 1
}

fn dist_code(dist: usize) -> usize {
    DIST_BASE.partition_point(|&b| b as usize <= dist) - 1
}

/// How many bytes from `a` on equal those from `b` on (`b < a`), up to `limit`.
#[inline(always)]
fn common(data: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let mut n = 0;
    while n + 8 <= limit {
        let x = u64::from_le_bytes(data[a + n..a + n + 8].try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(data[b + n..b + n + 8].try_into().expect("8 bytes"));
        let diff = x ^ y;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < limit && data[a + n] == data[b + n] {
        n += 1;
    }
    n
}

#[inline(always)]
fn hash4(data: &[u8], p: usize) -> usize {
    let v = u32::from_le_bytes(data[p..p + 4].try_into().expect("4 bytes"));
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// How many earlier places with the same four bytes are tried at each step.
const PROBES: usize = 2;

/// The matches and literals of `data`, whose rows are `stride` bytes long.
fn tokens(data: &[u8], stride: usize) -> Vec<Token> {
    let mut out = Vec::with_capacity(data.len() / 16);
    // The last position (plus one) each 4-byte hash was seen at, and for each position the
    // one before it with the same hash.
    let mut head = vec![0u32; 1 << HASH_BITS];
    let mut older = vec![0u32; WINDOW];
    let n = data.len();
    let mut p = 0;
    while p < n {
        let limit = MAX_MATCH.min(n - p);
        let (mut best, mut dist) = (0, 0);
        if p >= stride && stride <= WINDOW {
            best = common(data, p, p - stride, limit);
            dist = stride;
        }
        if best < limit && p + 4 <= n {
            let h = hash4(data, p);
            let mut seen = head[h] as usize;
            older[p % WINDOW] = head[h];
            head[h] = (p + 1) as u32;
            for _ in 0..PROBES {
                if seen == 0 || p - (seen - 1) > WINDOW {
                    break;
                }
                let q = seen - 1;
                if p - q != dist {
                    let len = common(data, p, q, limit);
                    if len > best {
                        best = len;
                        dist = p - q;
                        if len == limit {
                            break;
                        }
                    }
                }
                let next = older[q % WINDOW] as usize;
                if next >= seen {
                    break;
                }
                seen = next;
            }
        }
        if best >= MIN_MATCH {
            out.push(Token::Match {
                len: best as u16,
                dist: dist as u16,
            });
            p += best;
        } else {
            out.push(Token::Literal(data[p]));
            p += 1;
        }
    }
    out
}

/// Huffman code lengths for `freq`, none longer than `limit` (frequencies are halved until
/// the tree is shallow enough).
fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let mut f = freq.to_vec();
    loop {
        let lengths = huffman_lengths(&f);
        if lengths.iter().all(|&l| l <= limit) {
            return lengths;
        }
        for x in f.iter_mut().filter(|x| **x > 0) {
            *x = x.div_ceil(2);
        }
    }
}

fn huffman_lengths(freq: &[u32]) -> Vec<u8> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut lengths = vec![0u8; freq.len()];
    let used: Vec<usize> = (0..freq.len()).filter(|&i| freq[i] > 0).collect();
    match used.len() {
        0 => return lengths,
        1 => {
            lengths[used[0]] = 1;
            return lengths;
        }
        _ => {}
    }
    // Nodes: the leaves first, then the joins; parent links give each leaf's depth.
    let mut parent = vec![usize::MAX; used.len() * 2 - 1];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(node, &sym)| Reverse((u64::from(freq[sym]), node)))
        .collect();
    let mut next = used.len();
    while heap.len() > 1 {
        let Reverse((wa, a)) = heap.pop().expect("two nodes");
        let Reverse((wb, b)) = heap.pop().expect("two nodes");
        parent[a] = next;
        parent[b] = next;
        heap.push(Reverse((wa + wb, next)));
        next += 1;
    }
    for (node, &sym) in used.iter().enumerate() {
        let mut depth = 0;
        let mut at = node;
        while parent[at] != usize::MAX {
            at = parent[at];
            depth += 1;
        }
        lengths[sym] = depth.min(255) as u8;
    }
    lengths
}

/// Canonical Huffman codes for the lengths, bit-reversed for writing least significant bit
/// first.
fn codes(lengths: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    #[inline(always)]
    fn put(&mut self, value: u32, bits: u32) {
        self.acc |= u64::from(value) << self.n;
        self.n += bits;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        while self.n > 0 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n = self.n.saturating_sub(8);
        }
        self.out
    }
}

/// The code-length code's run-length form of a list of code lengths: (symbol, extra bits,
/// extra value).
fn run_lengths(lengths: &[u8]) -> Vec<(u8, u32, u32)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let run = lengths[i..].iter().take_while(|&&x| x == l).count();
        if l == 0 && run >= 3 {
            let r = run.min(138);
            if r >= 11 {
                out.push((18, 7, (r - 11) as u32));
            } else {
                out.push((17, 3, (r - 3) as u32));
            }
            i += r;
        } else if l != 0 && run >= 4 {
            out.push((l, 0, 0));
            let r = (run - 1).min(6);
            out.push((16, 2, (r - 3) as u32));
            i += 1 + r;
        } else {
            out.push((l, 0, 0));
            i += 1;
        }
    }
    out
}

/// zlib's checksum, a chunk at a time: within a chunk of n bytes, `b` gains n·a plus each
/// byte weighted by how many bytes it stands from the chunk's end (a sum the compiler can
/// vectorise).
fn adler32(data: &[u8]) -> u32 {
    const MOD: u64 = 65521;
    let (mut a, mut b) = (1u64, 0u64);
    for chunk in data.chunks(4096) {
        let n = chunk.len() as u32;
        let mut sum = 0u32;
        let mut weighted = 0u32;
        for (i, &x) in chunk.iter().enumerate() {
            sum += u32::from(x);
            weighted += (n - i as u32) * u32::from(x);
        }
        b = (b + a * u64::from(n) + u64::from(weighted)) % MOD;
        a = (a + u64::from(sum)) % MOD;
    }
    (b << 16 | a) as u32
}

/// `data` as a zlib stream (one dynamic-Huffman deflate block), its rows `stride` bytes long.
pub(crate) fn zlib(data: &[u8], stride: usize) -> Vec<u8> {
    let tokens = tokens(data, stride);
    let mut lit_freq = [0u32; 286];
    let mut dist_freq = [0u32; 30];
    for t in &tokens {
        match *t {
            Token::Literal(b) => lit_freq[b as usize] += 1,
            Token::Match { len, dist } => {
                lit_freq[257 + length_code(len as usize)] += 1;
                dist_freq[dist_code(dist as usize)] += 1;
            }
        }
    }
    lit_freq[256] = 1;
    if dist_freq.iter().all(|&f| f == 0) {
        dist_freq[0] = 1;
    }
    let lit_len = code_lengths(&lit_freq, 15);
    let dist_len = code_lengths(&dist_freq, 15);
    let lit_code = codes(&lit_len);
    let dist_code_bits = codes(&dist_len);
    let hlit = 257.max(lit_len.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1));
    let hdist = 1.max(dist_len.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1));
    let mut all = lit_len[..hlit].to_vec();
    all.extend_from_slice(&dist_len[..hdist]);
    let runs = run_lengths(&all);
    let mut cl_freq = [0u32; 19];
    for &(sym, _, _) in &runs {
        cl_freq[sym as usize] += 1;
    }
    let cl_len = code_lengths(&cl_freq, 7);
    let cl_code = codes(&cl_len);
    let hclen = 4.max(
        CL_ORDER
            .iter()
            .rposition(|&s| cl_len[s] > 0)
            .map_or(0, |i| i + 1),
    );

    let mut bits = Bits {
        out: Vec::with_capacity(tokens.len() * 2 + 64),
        acc: 0,
        n: 0,
    };
    // zlib header: deflate, 32 KB window, fastest-level hint, check bits.
    bits.out.extend_from_slice(&[0x78, 0x01]);
    bits.put(1, 1); // the final block
    bits.put(2, 2); // dynamic Huffman codes
    bits.put((hlit - 257) as u32, 5);
    bits.put((hdist - 1) as u32, 5);
    bits.put((hclen - 4) as u32, 4);
    for &s in &CL_ORDER[..hclen] {
        bits.put(u32::from(cl_len[s]), 3);
    }
    for &(sym, extra_bits, extra) in &runs {
        bits.put(
            u32::from(cl_code[sym as usize]),
            u32::from(cl_len[sym as usize]),
        );
        if extra_bits > 0 {
            bits.put(extra, extra_bits);
        }
    }
    for t in &tokens {
        match *t {
            Token::Literal(b) => {
                bits.put(
                    u32::from(lit_code[b as usize]),
                    u32::from(lit_len[b as usize]),
                );
            }
            Token::Match { len, dist } => {
                let lc = length_code(len as usize);
                bits.put(u32::from(lit_code[257 + lc]), u32::from(lit_len[257 + lc]));
                if LENGTH_EXTRA[lc] > 0 {
                    bits.put(
                        u32::from(len - LENGTH_BASE[lc]),
                        u32::from(LENGTH_EXTRA[lc]),
                    );
                }
                let dc = dist_code(dist as usize);
                bits.put(u32::from(dist_code_bits[dc]), u32::from(dist_len[dc]));
                if DIST_EXTRA[dc] > 0 {
                    bits.put(u32::from(dist - DIST_BASE[dc]), u32::from(DIST_EXTRA[dc]));
                }
            }
        }
    }
    bits.put(u32::from(lit_code[256]), u32::from(lit_len[256]));
    let mut out = bits.finish();
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}
