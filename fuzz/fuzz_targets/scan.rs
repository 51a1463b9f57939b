//! Scan planning: the input is a small program that picks a layout, values of it, and a query
//! binding its fields in key order (equality, IN lists of 0 to 5 values, ranges with any bounds,
//! prefixes). The plan the typed builder makes must never lose a row, `matches()` must agree with
//! a predicate written in plain Rust over the values, and exact plans must hold no other keys.
//! See `rowkey_fuzz::plan` for every check.
#![no_main]

use std::cmp::Ordering;

use libfuzzer_sys::fuzz_target;
use rowkey::RowKey;
use rowkey_fuzz::plan::{run, FieldValue};
use rowkey_fuzz::{scan_layout, Gen, Pick};

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    A,
    B = 7,
    C = 255,
}

impl Pick for Kind {
    fn pick(g: &mut Gen<'_>) -> Self {
        g.pick(&[Kind::A, Kind::B, Kind::C])
    }
}

impl FieldValue for Kind {
    type Arg<'a> = Kind;

    fn arg(&self) -> Kind {
        *self
    }

    fn order(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
}

/// A nested key, ordered by `x` then `s`.
#[derive(RowKey, Debug, Clone)]
pub struct Inner {
    x: u8,
    s: String,
}

impl Pick for Inner {
    fn pick(g: &mut Gen<'_>) -> Self {
        Inner {
            x: g.pick(&[0, 1, 0xFF]),
            s: String::pick(g),
        }
    }
}

impl FieldValue for Inner {
    type Arg<'a> = Inner;

    fn arg(&self) -> Inner {
        self.clone()
    }

    fn order(&self, other: &Self) -> Ordering {
        self.x.cmp(&other.x).then_with(|| self.s.cmp(&other.s))
    }
}

scan_layout! {
    /// The fixed-layout lane: every key the same length, no prefix.
    struct Fixed / FixedQuery {
        a: u8 => a, a_in, range = a_range;
        #[rowkey(desc)]
        b: i16 => b, b_in, range = b_range;
        #[rowkey(width = 2)]
        c: u32 => c, c_in, range = c_range;
    }
}

scan_layout! {
    /// The fixed lane again: an enum, floats in `total_cmp` order, a narrowed `desc` integer,
    /// bools, chars and a reversed field (equality and IN only).
    struct Scalars / ScalarsQuery {
        k: Kind => k, k_in, range = k_range;
        #[rowkey(desc)]
        x: f32 => x, x_in, range = x_range;
        y: f64 => y, y_in, range = y_range;
        #[rowkey(width = 3, desc)]
        n: u64 => n, n_in, range = n_range;
        flag: bool => flag, flag_in, range = flag_range;
        #[rowkey(desc)]
        c: char => c, c_in, range = c_range;
        #[rowkey(reverse)]
        r: u16 => r, r_in;
    }
}

scan_layout! {
    /// Escaped inner strings, ascending and `desc`, and bytes to the end of the key.
    struct Strs / StrsQuery {
        a: String => a, a_in, range = a_range, prefix = a_prefix;
        #[rowkey(desc)]
        b: u16 => b, b_in, range = b_range;
        #[rowkey(desc)]
        c: String => c, c_in, range = c_range, prefix = c_prefix;
        d: Vec<u8> => d, d_in, range = d_range, prefix = d_prefix;
    }
}

scan_layout! {
    /// A field salt (md5) over two sources with another field between them.
    struct Salted / SaltedQuery [salt = 1] {
        #[rowkey(salt(buckets = 4))]
        user: u16 => user, user_in, range = user_range;
        #[rowkey(desc)]
        ts: i32 => ts, ts_in, range = ts_range;
        #[rowkey(salt(buckets = 4))]
        region: String => region, region_in, range = region_range, prefix = region_prefix;
        name: Vec<u8> => name, name_in, range = name_range, prefix = name_prefix;
    }
}

scan_layout! {
    /// A `mod` salt on a narrowed integer.
    struct ModSalted / ModSaltedQuery [salt = 1] {
        #[rowkey(width = 2, salt(buckets = 6, hash = "mod"))]
        shard: u32 => shard, shard_in, range = shard_range;
        #[rowkey(desc)]
        name: String => name, name_in, range = name_range, prefix = name_prefix;
        seq: u8 => seq, seq_in, range = seq_range;
    }
}

scan_layout! {
    /// A whole-key salt (Java's hash): the bucket is known only for point lookups.
    #[rowkey(salt(buckets = 3, hash = "java"))]
    struct WholeSalted / WholeSaltedQuery [salt = 1] {
        a: u8 => a, a_in, range = a_range;
        #[rowkey(desc)]
        b: String => b, b_in, range = b_range, prefix = b_prefix;
        c: Option<u8> => c, c_in, range = c_range;
    }
}

scan_layout! {
    /// A hash prefix over two sources: exact only when both are bound.
    struct Hashed / HashedQuery {
        #[rowkey(hash_prefix(len = 2))]
        dev: u16 => dev, dev_in, range = dev_range;
        #[rowkey(hash_prefix(len = 2))]
        name: String => name, name_in, range = name_range, prefix = name_prefix;
        seq: u32 => seq, seq_in, range = seq_range;
    }
}

scan_layout! {
    /// `Option`s (one `desc`), a padded string, a nested key, padded `desc` bytes, and a last
    /// `desc` optional string.
    struct Opts / OptsQuery {
        tag: Option<u8> => tag, tag_in, range = tag_range;
        #[rowkey(width = 3)]
        code: String => code, code_in, range = code_range, prefix = code_prefix;
        #[rowkey(desc)]
        o: Option<i8> => o, o_in, range = o_range;
        inner: Inner => inner, inner_in, range = inner_range;
        #[rowkey(width = 3, desc)]
        b: Vec<u8> => b, b_in, range = b_range, prefix = b_prefix;
        #[rowkey(desc)]
        last: Option<String> => last, last_in, range = last_range;
    }
}

scan_layout! {
    /// A salted text layout: delimited segments, a `desc` number, a padded string.
    #[rowkey(text, delimiter = ":")]
    struct Text / TextQuery [salt = 2] {
        #[rowkey(salt(buckets = 10))]
        user: u32 => user, user_in, range = user_range;
        region: String => region, region_in, range = region_range, prefix = region_prefix;
        #[rowkey(desc)]
        ts: i64 => ts, ts_in, range = ts_range;
        #[rowkey(width = 4)]
        code: String => code, code_in, range = code_range, prefix = code_prefix;
        page: String => page, page_in, range = page_range, prefix = page_prefix;
    }
}

scan_layout! {
    /// A text layout with no delimiter: widths mark the segments. `a` holds 3 of a u16's 5
    /// digits, `n` is `desc` in 4 digits.
    #[rowkey(text)]
    struct TextPlain / TextPlainQuery {
        #[rowkey(width = 3)]
        a: u16 => a, a_in, range = a_range;
        #[rowkey(width = 2)]
        s: String => s, s_in, range = s_range, prefix = s_prefix;
        #[rowkey(width = 4, desc)]
        n: u32 => n, n_in, range = n_range;
        #[rowkey(desc)]
        m: u8 => m, m_in, range = m_range;
        k: Kind => k, k_in, range = k_range;
        tail: String => tail, tail_in, range = tail_range, prefix = tail_prefix;
    }
}

scan_layout! {
    /// A hash-prefixed text layout; `r` is a u8 in 5 `desc` digits.
    #[rowkey(text, delimiter = "|")]
    struct TextHashed / TextHashedQuery {
        #[rowkey(hash_prefix(len = 4))]
        dev: String => dev, dev_in, range = dev_range, prefix = dev_prefix;
        #[rowkey(width = 6)]
        seq: u32 => seq, seq_in, range = seq_range;
        #[rowkey(width = 5, desc)]
        r: u8 => r, r_in, range = r_range;
        last: String => last, last_in, range = last_range, prefix = last_prefix;
    }
}

scan_layout! {
    /// A whole-key salted text layout with a two-character delimiter: the salt is two digits
    /// and `::`.
    #[rowkey(text, delimiter = "::", salt(buckets = 12, hash = "java"))]
    struct TextWhole / TextWholeQuery [salt = 4] {
        a: String => a, a_in, range = a_range, prefix = a_prefix;
        #[rowkey(reverse)]
        b: u32 => b, b_in;
        c: String => c, c_in, range = c_range, prefix = c_prefix;
    }
}

scan_layout! {
    /// Apache Phoenix's key: the `00` after a VARCHAR, a DESC VARCHAR's `FF`, NULLs left out at
    /// the end with the separators before them; a nullable DESC column by value alone.
    #[rowkey(phoenix)]
    struct Phoenix / PhoenixQuery {
        a: String => a, a_in, range = a_range, prefix = a_prefix;
        #[rowkey(desc)]
        b: String => b, b_in, range = b_range, prefix = b_prefix;
        c: Option<String> => c, c_in, range = c_range;
        #[rowkey(desc)]
        d: i16 => d, d_in, range = d_range;
        #[rowkey(desc)]
        e: Option<String> => e, e_in;
        f: Option<String> => f, f_in, range = f_range;
    }
}

scan_layout! {
    /// A salted Phoenix key: the salt byte hashes the key as written, trailing NULLs left out.
    #[rowkey(phoenix, salt(buckets = 3))]
    struct PhoenixSalted / PhoenixSaltedQuery [salt = 1] {
        a: String => a, a_in, range = a_range, prefix = a_prefix;
        b: Option<String> => b, b_in, range = b_range;
        #[rowkey(width = 2)]
        c: String => c, c_in, prefix = c_prefix;
        d: Option<String> => d, d_in, range = d_range;
    }
}

fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    match g.below(14) {
        0 => run::<Fixed>(&mut g),
        1 => run::<Scalars>(&mut g),
        2 => run::<Strs>(&mut g),
        3 => run::<Salted>(&mut g),
        4 => run::<ModSalted>(&mut g),
        5 => run::<WholeSalted>(&mut g),
        6 => run::<Hashed>(&mut g),
        7 => run::<Opts>(&mut g),
        8 => run::<Text>(&mut g),
        9 => run::<TextPlain>(&mut g),
        10 => run::<TextHashed>(&mut g),
        11 => run::<TextWhole>(&mut g),
        12 => run::<Phoenix>(&mut g),
        _ => run::<PhoenixSalted>(&mut g),
    }
});
