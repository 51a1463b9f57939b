//! What the fuzz targets share: reading values out of the fuzzer's bytes ([`Gen`], [`Pick`]),
//! mutating keys, and the scan-plan checks ([`plan`]).
//!
//! Values are drawn with a bias towards the edges the formats care about: integer limits, the
//! limits of narrowed widths and of decimal digits, signed zeros, infinities and NaNs, and strings
//! and bytes made of escape bytes, pad bytes and delimiters. Random bytes alone reach those edges
//! too slowly.
#![forbid(unsafe_code)]

use std::borrow::Cow;

use libfuzzer_sys::arbitrary::{Arbitrary, Unstructured};

pub mod plan;

/// A reader over the fuzzer's bytes. Never fails: once the bytes run out every draw is zero, so a
/// short input is a valid (small) program.
pub struct Gen<'a>(Unstructured<'a>);

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Gen(Unstructured::new(data))
    }

    /// A number in `0..n` (0 when `n` is 0 or 1).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.0.int_in_range(0..=n - 1).unwrap_or(0)
    }

    pub fn flag(&mut self) -> bool {
        self.0.arbitrary().unwrap_or(false)
    }

    pub fn byte(&mut self) -> u8 {
        self.0.arbitrary().unwrap_or(0)
    }

    /// Any value of `T`, from the raw bytes.
    pub fn raw<T: Arbitrary<'a> + Default>(&mut self) -> T {
        self.0.arbitrary().unwrap_or_default()
    }

    /// One of `items` (not empty).
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    /// Up to `max` bytes, any values.
    pub fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        (0..n).map(|_| self.byte()).collect()
    }

    /// Whether the input is used up.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A value drawn from the fuzzer's bytes, biased towards edges.
pub trait Pick: Sized {
    fn pick(g: &mut Gen<'_>) -> Self;
}

/// Integer edges: the limits of byte widths (narrowed `width`s) and of decimal digits (text
/// numbers), each also negated. Each type takes the ones it holds, and its MIN or MAX otherwise.
const INT_EDGES: &[i128] = &[
    0,
    1,
    2,
    9,
    10,
    99,
    100,
    127,
    128,
    255,
    256,
    999,
    1_000,
    9_999,
    10_000,
    32_767,
    32_768,
    65_535,
    65_536,
    99_999,
    100_000,
    999_999,
    1_000_000,
    0xFF_FFFF,
    0x100_0000,
    999_999_999,
    1_000_000_000,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFF,
    0x1_0000_0000,
    999_999_999_999,
    0xFF_FFFF_FFFF,
    999_999_999_999_999_999,
    1_000_000_000_000_000_000,
    0x7FFF_FFFF_FFFF_FFFF,
    0x8000_0000_0000_0000,
    0xFFFF_FFFF_FFFF_FFFF,
    0x1_0000_0000_0000_0000,
    99_999_999_999_999_999_999_999_999_999,
];

macro_rules! pick_int {
    ($($t:ty)*) => {$(
        impl Pick for $t {
            fn pick(g: &mut Gen<'_>) -> Self {
                match g.below(6) {
                    0 => <$t>::MIN.wrapping_add(g.below(3) as $t),
                    1 => <$t>::MAX.wrapping_sub(g.below(3) as $t),
                    2 => {
                        let e = g.pick(INT_EDGES);
                        let e = if g.flag() { -e } else { e };
                        <$t>::try_from(e).unwrap_or(if e < 0 { <$t>::MIN } else { <$t>::MAX })
                    }
                    3 => {
                        // Small values: around zero where the type is signed.
                        let s = i128::from(g.byte() as i8);
                        <$t>::try_from(s).unwrap_or_else(|_| s.unsigned_abs() as $t)
                    }
                    _ => g.raw(),
                }
            }
        }
    )*};
}

pick_int!(u8 u16 u32 u64 u128 i8 i16 i32 i64 i128);

macro_rules! pick_float {
    ($($t:ident)*) => {$(
        impl Pick for $t {
            fn pick(g: &mut Gen<'_>) -> Self {
                const EDGES: &[$t] = &[
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    0.5,
                    -2.5,
                    $t::INFINITY,
                    $t::NEG_INFINITY,
                    $t::NAN,
                    -$t::NAN,
                    $t::MAX,
                    $t::MIN,
                    $t::MIN_POSITIVE,
                    -$t::MIN_POSITIVE,
                    $t::EPSILON,
                ];
                match g.below(5) {
                    0 => g.pick(EDGES),
                    // The smallest subnormals and NaN payloads, of both signs.
                    1 => {
                        let bits = [1, 2, $t::NAN.to_bits() | 1, $t::INFINITY.to_bits() | 1];
                        let v = $t::from_bits(g.pick(&bits));
                        if g.flag() { -v } else { v }
                    }
                    2 => $t::from(g.byte() as i8) / 4.0,
                    _ => $t::from_bits(g.raw()),
                }
            }
        }
    )*};
}

pick_float!(f32 f64);

/// A decimal: any mantissa of 96 bits (edges and small ones often) at any scale, normalized
/// (decoding gives the normalized value, and the round trip compares `Debug`, which shows the
/// scale; tests/decimal.rs checks that 0.5 and 0.50 have one key).
impl Pick for rust_decimal::Decimal {
    fn pick(g: &mut Gen<'_>) -> Self {
        const MAX: i128 = (1 << 96) - 1;
        let m = i128::pick(g).clamp(-MAX, MAX);
        let scale = g.below(29) as u32;
        rust_decimal::Decimal::from_i128_with_scale(m, scale).normalize()
    }
}

/// A time on a whole second (so it round-trips at every unit), from the epoch to about 2255 (so
/// its count of nanoseconds fits a Java long).
impl Pick for std::time::SystemTime {
    fn pick(g: &mut Gen<'_>) -> Self {
        let seconds = u64::pick(g) % 9_000_000_000;
        std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds)
    }
}

/// chrono's types on a whole second (so they round-trip at every unit), within the years a count
/// of nanoseconds holds.
impl Pick for chrono::DateTime<chrono::Utc> {
    fn pick(g: &mut Gen<'_>) -> Self {
        let seconds = (u64::pick(g) % 9_000_000_000) as i64;
        chrono::DateTime::from_timestamp(seconds, 0).unwrap_or_default()
    }
}

impl Pick for chrono::NaiveDate {
    fn pick(g: &mut Gen<'_>) -> Self {
        chrono::DateTime::<chrono::Utc>::pick(g).date_naive()
    }
}

impl Pick for chrono::NaiveTime {
    fn pick(g: &mut Gen<'_>) -> Self {
        chrono::DateTime::<chrono::Utc>::pick(g).time()
    }
}

impl Pick for bool {
    fn pick(g: &mut Gen<'_>) -> Self {
        g.flag()
    }
}

impl Pick for char {
    fn pick(g: &mut Gen<'_>) -> Self {
        const EDGES: &[char] = &[
            '\0',
            '\u{1}',
            'a',
            '\u{7F}',
            '\u{80}',
            'ÿ',
            '\u{100}',
            '\u{D7FF}',
            '\u{E000}',
            '\u{FFFF}',
            '\u{10000}',
            char::MAX,
        ];
        if g.flag() {
            g.pick(EDGES)
        } else {
            g.raw()
        }
    }
}

/// Characters of strings: the escape and terminator bytes of binary keys (00, 01), the text pad
/// (space) and delimiters (`:`, `|`, `-`, `/`, `#`), digits, and multi-byte characters up to the
/// largest.
pub const CHARS: &[char] = &[
    '\0',
    '\u{1}',
    'a',
    'b',
    'z',
    ' ',
    ':',
    '|',
    '-',
    '/',
    '#',
    '0',
    '9',
    'ÿ',
    'é',
    '\u{7F}',
    char::MAX,
];

/// Bytes of byte strings: escape, terminator and pad bytes, their neighbours, and the top byte.
pub const BYTES: &[u8] = &[0x00, 0x01, 0x02, 0x7F, 0x80, 0xFE, 0xFF, b'a', b' ', b':'];

/// A length: mostly short, sometimes past the 16 bytes the scan planner sorts IN lists on.
fn length(g: &mut Gen<'_>) -> usize {
    if g.below(8) == 0 {
        g.below(24)
    } else {
        g.below(6)
    }
}

impl Pick for String {
    fn pick(g: &mut Gen<'_>) -> Self {
        (0..length(g)).map(|_| g.pick(CHARS)).collect()
    }
}

impl Pick for Vec<u8> {
    fn pick(g: &mut Gen<'_>) -> Self {
        let raw = g.below(4) == 0;
        (0..length(g))
            .map(|_| if raw { g.byte() } else { g.pick(BYTES) })
            .collect()
    }
}

impl<const N: usize> Pick for [u8; N] {
    fn pick(g: &mut Gen<'_>) -> Self {
        let mut a = [0u8; N];
        for b in &mut a {
            *b = g.pick(BYTES);
        }
        a
    }
}

/// A digest: of a drawn value, or drawn bytes (any bytes are a digest some value could have).
impl<const N: usize> Pick for rowkey::Hashed<N> {
    fn pick(g: &mut Gen<'_>) -> Self {
        if g.below(2) == 0 {
            rowkey::Hashed::of(Vec::<u8>::pick(g))
        } else {
            rowkey::Hashed::from_bytes(<[u8; N]>::pick(g))
        }
    }
}

impl<T: Pick> Pick for Option<T> {
    fn pick(g: &mut Gen<'_>) -> Self {
        (g.below(4) != 0).then(|| T::pick(g))
    }
}

impl Pick for Cow<'static, str> {
    fn pick(g: &mut Gen<'_>) -> Self {
        Cow::Owned(String::pick(g))
    }
}

impl Pick for Cow<'static, [u8]> {
    fn pick(g: &mut Gen<'_>) -> Self {
        Cow::Owned(Vec::pick(g))
    }
}

/// Borrowed fields borrow one of these.
const STRS: &[&str] = &[
    "", "a", "ab", "a\0", "\0", "\0a", "abcde", "abcdef", "ÿ", ":", " a", "a ", "\u{1}",
];

impl Pick for &'static str {
    fn pick(g: &mut Gen<'_>) -> Self {
        g.pick(STRS)
    }
}

impl Pick for &'static [u8] {
    fn pick(g: &mut Gen<'_>) -> Self {
        g.pick(STRS).as_bytes()
    }
}

/// `impl Pick` for structs, field by field: `pick_struct!(Point { x, y } Named<'static> { s });`.
#[macro_export]
macro_rules! pick_struct {
    ($($name:ident $(<$lt:lifetime>)? { $($field:ident),* $(,)? })*) => {$(
        impl $crate::Pick for $name $(<$lt>)? {
            fn pick(g: &mut $crate::Gen<'_>) -> Self {
                $name { $($field: $crate::Pick::pick(g)),* }
            }
        }
    )*};
}

/// Changes `key` in one to three places: a byte set, inserted, removed, flipped or stepped, the
/// key cut or extended. Keys near a valid one find what exact byte tests miss.
pub fn mutate(g: &mut Gen<'_>, key: &mut Vec<u8>) {
    for _ in 0..=g.below(3) {
        let at = g.below(key.len());
        match g.below(8) {
            0 if !key.is_empty() => key[at] = g.pick(BYTES),
            1 if !key.is_empty() => key[at] ^= 1 << g.below(8),
            2 if !key.is_empty() => {
                key.remove(at);
            }
            3 => key.truncate(at),
            4 if !key.is_empty() => key[at] = key[at].wrapping_add(1),
            5 if !key.is_empty() => key[at] = key[at].wrapping_sub(1),
            6 => {
                let b = g.pick(BYTES);
                key.push(b)
            }
            _ => {
                let b = g.pick(BYTES);
                key.insert(at.min(key.len()), b)
            }
        }
    }
}
