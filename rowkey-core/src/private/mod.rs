//! What the code `#[derive(RowKey)]` generates calls, and nothing else does: writing and reading
//! fields in sequence, locating errors, the const arithmetic of layout lengths, and thin entry
//! points into the tested runtime. Not a public API: reached through `rowkey::__private`, free to
//! change between releases, and a leaf of this crate (no other module imports it).
//!
//! | file | idea |
//! |---|---|
//! | `build.rs` | a key's `Layout` and `Tag`, built in const context |
//! | `key_parts.rs` | `K::explain`: a stored key shown part by part |
//! | `misuse.rs` | scan methods misused, made compile errors that say why |
//! | `scan_steps.rs` | the binding methods of a derived key's scan builder |

mod build;
#[cfg(feature = "alloc")]
mod key_parts;
mod misuse;
#[cfg(feature = "alloc")]
mod scan_steps;

pub use crate::field::no_range::{
    NoRange, OrderFacts, PhoenixCharHasNoRange, PhoenixDescNullHasNoRange, ReverseHasNoRange,
    UnorderedFormatHasNoRange,
};
pub use crate::key::io::{decode_key_in, encode_key_in};
pub use crate::walk::prefix_steps::read_salt;
pub use build::{tag, LayoutBuilder};
#[cfg(feature = "alloc")]
pub use key_parts::*;
pub use misuse::At;
#[cfg(feature = "alloc")]
pub use scan_steps::{
    bind_eq, bind_in, bind_in_bytes, bind_in_str, bind_prefix, bind_range, bind_range_by, start,
};

use crate::error::DecodeErrorKind;

#[cfg(feature = "alloc")]
pub use crate::describe::explain::Explained;
use crate::describe::layout::offset_after;
pub use crate::error::{DecodeError, EncodeError};
pub use crate::field::layout::Encoding;
pub use crate::field::layout::{Layout, Order, Segment};
pub use crate::field::{DecodeField, FieldMode, FieldShape, KeyField, TextRule};
pub use crate::key::{DecodeKey, DecodeSaltedKey, RowKey, SaltedKey};
pub use crate::phoenix::PhoenixKey;
pub use crate::prefix::{HashPrefix, Prefix, Salt, SaltHash};
#[cfg(feature = "alloc")]
pub use crate::scan::{
    ArrayPlan, ArrayRanged, Bind, Builder, ByPartialOrd, Marked, Marker, Plan, Probe, Ranges, Scan,
    ScanLayout, ScanStep, Unordered, ValueOrder,
};
pub use crate::sink::ValueSink;
pub use crate::tag::{byte_tag, prefix_clash, ByteTag, Tag};
pub use crate::time::unit::TimeUnit;
/// The walk through a key that every derived key's encode and decode take.
pub mod walk {
    pub use crate::codec::phoenix::Phoenix;
    pub use crate::codec::FormatType;
    pub use crate::walk::{
        decode, decode_in, encode, encode_in, encoded_len, encoded_len_in, opens, Chunks,
        MAX_FIELDS, TUPLE_MAX,
    };
}

/// The rules of time formats (`format = "..."`), which the derive checks attributes against.
pub mod timefmt {
    pub use crate::time::strftime::{spec, Problem, Spec};
}

/// The known name nearest a misspelled one, for the derive's `did you mean` on an unknown
/// attribute key (the phoenix reader's on an unknown table option is the same function).
pub use crate::words::closest;

/// The methods every state of a generated scan builder has, besides binding its next field
/// (`ranges`, `matches`, `is_exact`, `after`, `split`, `salt_len`, and `into` from `Into`): the
/// derive refuses a field or variant whose scan method would take one of these names.
pub const PLAN_METHODS: &[&str] = &[
    "ranges", "matches", "is_exact", "after", "split", "salt_len", "into",
];

/// The error of an enum key that starts with no variant's tag.
#[cold]
pub fn unknown_tag(name: &'static str) -> DecodeError {
    DecodeError::new(DecodeErrorKind::UnknownTag { name }, 0).in_key(name)
}

/// A field mode in Apache Phoenix's bytes (`#[rowkey(phoenix)]`).
pub const fn phoenix_mode(mode: FieldMode) -> FieldMode {
    mode.with_phoenix()
}

/// The mode in which `SaltedKey::encode_into_bucket` writes a whole key: salted into `bucket`.
pub const fn chosen_bucket_mode(bucket: u8) -> FieldMode {
    FieldMode::LAST.with_chosen_bucket(bucket)
}

/// The mode in which `decode_any_bucket` reads a whole salted key whatever its bucket (below the
/// bucket count).
pub const ANY_BUCKET_MODE: FieldMode = FieldMode::LAST.with_any_bucket();

/// Why Phoenix cannot hold a field of `shape` placed with `mode` as a primary-key column, if it
/// cannot: the derive's check of each field of a Phoenix layout.
pub const fn phoenix_refusal(shape: FieldShape, mode: FieldMode) -> Option<&'static str> {
    match crate::field::column_type::column(shape, mode) {
        Ok(_) => None,
        Err(why) => Some(why),
    }
}

/// The shape of type `T`, for checks in const context.
pub const fn shape<T: KeyField + ?Sized>() -> FieldShape {
    T::SHAPE
}

/// Whether `#[rowkey(desc)]` applies to a type of `shape`.
pub const fn accepts_desc(shape: FieldShape) -> bool {
    shape.accepts_desc()
}

/// Whether `format = "fmt"` applies to a type of `shape`.
pub const fn accepts_format(shape: FieldShape, fmt: &str) -> bool {
    shape.accepts_format(fmt)
}

/// Whether `width = w` applies to a type of `shape`.
pub const fn accepts_width(shape: FieldShape, w: usize) -> bool {
    shape.accepts_width(w)
}

/// Whether `reverse` applies to a type of `shape`.
pub const fn is_reversible(shape: FieldShape) -> bool {
    shape.is_reversible()
}

/// `salt` as a text layout writes it (zero-padded decimal digits).
pub const fn salt_in_text(salt: Salt) -> Salt {
    salt.in_text()
}

/// Whether a fixed length is within the layout's row limit.
pub const fn within_row_limit(fixed: Option<usize>, limit: usize) -> bool {
    match fixed {
        Some(n) => n <= limit,
        None => true,
    }
}

/// The length of the array lane's arrays for a key of `fixed` length or at most `max` bytes: the
/// key's length, or for keys that vary, [`LANE_CAPACITY`] at most (a longer key leaves the lane).
pub const fn lane_len(fixed: Option<usize>, max: Option<usize>) -> usize {
    match (fixed, max) {
        (Some(n), _) => n,
        (None, Some(m)) if m < LANE_CAPACITY => m,
        (None, _) => LANE_CAPACITY,
    }
}

/// The bytes the array lane holds of a key whose length varies: most row keys are shorter, and
/// arrays much longer than this cost more to move through a builder's steps than they save.
pub const LANE_CAPACITY: usize = 48;

/// The length of a fixed key, or 0; `to_key` names its array type with this and asserts fixedness
/// separately, so that a layout the derive could not prove fixed only fails when `to_key` is used.
pub const fn fixed_or_zero(fixed: Option<usize>) -> usize {
    match fixed {
        Some(n) => n,
        None => 0,
    }
}

/// `to_key` of a derived fixed layout (the generated code asserts that the layout is fixed).
#[inline(always)]
pub fn to_array<K: RowKey + ?Sized, const N: usize>(key: &K) -> Result<[u8; N], EncodeError> {
    let mut out = [0u8; N];
    key.encode_into(&mut out)?;
    Ok(out)
}

pub use crate::codec::discriminant::{
    decode_discriminant, discriminant_len, encode_discriminant, ENUM_SHAPE,
};

/// The error for a byte that names no variant of enum `name`.
#[cold]
pub fn unknown_discriminant(value: u8, name: &'static str) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::UnknownDiscriminant {
            value,
            enum_name: name,
        },
        0,
    )
}

/// A salt known to be valid (checked by the derive), for generated constants.
pub const fn salt(buckets: u16, hash: crate::prefix::SaltHash) -> Salt {
    match Salt::new(buckets, hash) {
        Some(s) => s,
        None => panic!("salt buckets must be in 1..=256"),
    }
}

/// A hash prefix known to be valid (checked by the derive), for generated constants.
pub const fn hash_prefix(len: usize) -> HashPrefix {
    match HashPrefix::new(len) {
        Some(h) => h,
        None => panic!("hash prefix length must be in 1..=16"),
    }
}

/// A text hash prefix known to be valid (checked by the derive), for generated constants.
pub const fn text_hash_prefix(len: usize, upper: bool) -> HashPrefix {
    match HashPrefix::text(len, upper) {
        Some(h) => h,
        None => panic!("text hash prefix length must be in 1..=32"),
    }
}

/// Whether a field type has a text format.
pub const fn has_text_form(shape: FieldShape) -> bool {
    !matches!(shape.text_rule(), TextRule::None)
}

/// `K::LAYOUT`: the segment of a field of type `T` placed with `mode`, its offset not yet known
/// ([`segments`] fills it in), its order read from the mode. One call per field, so a layout
/// costs the compiler little.
pub const fn segment<T: KeyField + ?Sized>(
    name: &'static str,
    ty: &'static str,
    mode: FieldMode,
) -> Segment {
    let order = if mode.is_desc() {
        Order::Descending
    } else if mode.is_reverse() {
        Order::Reversed
    } else {
        Order::Ascending
    };
    let shape = T::SHAPE;
    Segment::placed(
        name,
        ty,
        Encoding::of(shape, mode),
        order,
        shape.fixed_len(mode),
        T::NESTED_LAYOUT,
    )
}

/// `KeyField::SHAPE` of a struct key: its layout's lengths, behind its prefix.
pub const fn record_shape(layout: &Layout) -> FieldShape {
    let p = layout.prefix.encoded_len();
    FieldShape::record(
        less(layout.fixed_len, p),
        less(layout.sum_len(true), p),
        layout.prefix,
    )
}

/// `n - p`, for lengths that include the prefix's `p`.
const fn less(n: Option<usize>, p: usize) -> Option<usize> {
    match n {
        Some(n) => Some(n - p),
        None => None,
    }
}

/// `K::LAYOUT`: the segments with their offsets: `lead` (the tag, the prefix and its delimiter),
/// then each length before it and a delimiter after each; `None` from the first variable length
/// on.
pub const fn segments<const N: usize>(
    mut segments: [Segment; N],
    lead: usize,
    delimiter: usize,
) -> [Segment; N] {
    let mut at = Some(lead);
    let mut i = 0;
    while i < N {
        segments[i].offset = at;
        at = offset_after(at, segments[i].len, delimiter);
        i += 1;
    }
    segments
}
