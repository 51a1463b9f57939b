//! What the code `#[derive(RowKey)]` generates calls, and nothing else does: writing and reading
//! fields in sequence, locating errors, the const arithmetic of layout lengths, and thin entry
//! points into the tested runtime. Not a public API: reached through `rowkey::__private`, free to
//! change between releases, and a leaf of this crate (no other module imports it).

use crate::codec::{out_prefix, take};
use crate::error::{DecodeErrorKind, EncodeErrorKind};
use crate::prefix::{HashPrefixHasher, SaltHasher};

pub use crate::encoding::Encoding;
pub use crate::error::{DecodeError, EncodeError};
pub use crate::field::{DecodeField, FieldMode, FieldShape, KeyField, TextRule};
pub use crate::key::{DecodeKey, DecodeSaltedKey, RowKey, SaltedKey};
#[cfg(feature = "alloc")]
pub use crate::layout::Explained;
pub use crate::layout::{Layout, Order, Segment};
pub use crate::prefix::{HashPrefix, Prefix, Salt, SaltHash};
#[cfg(feature = "alloc")]
pub use crate::scan::{Bind, FixedRange, FixedScan, Scan, ScanLayout, ScanState};
pub use crate::sink::ValueSink;
pub use crate::tag::Tag;
pub use crate::unit::TimeUnit;

/// Writes fields one after another into an output buffer.
pub struct KeyWriter<'o> {
    out: &'o mut [u8],
    pos: usize,
    /// Where the key after its tag starts: the offsets of the prefix are counted from here.
    base: usize,
}

impl<'o> KeyWriter<'o> {
    #[inline(always)]
    pub fn new(out: &'o mut [u8]) -> Self {
        KeyWriter {
            out,
            pos: 0,
            base: 0,
        }
    }

    /// Writes the tag, first of all: the prefix and fields follow it.
    #[inline(always)]
    pub fn tag(&mut self, tag: Tag) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        self.pos += tag.write(rest)?;
        self.base = self.pos;
        Ok(())
    }

    #[inline(always)]
    pub fn field<T: KeyField + ?Sized>(
        &mut self,
        value: &T,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        match value.encode(rest, mode) {
            Ok(n) => {
                self.pos += n;
                Ok(())
            }
            Err(e) => Err(e.in_field(key, field)),
        }
    }

    /// Reserves the first `n` bytes for the prefix, written once the fields are.
    #[inline(always)]
    pub fn reserve(&mut self, n: usize) -> Result<(), EncodeError> {
        out_prefix(self.out.get_mut(self.base..).unwrap_or_default(), n)?;
        self.pos = self.base + n;
        Ok(())
    }

    /// The first `n` bytes after the tag (the reserved prefix).
    #[inline(always)]
    pub fn prefix_mut(&mut self, n: usize) -> &mut [u8] {
        &mut self.out[self.base..self.base + n]
    }

    /// The bytes written from `from` (counted after the tag) on.
    #[inline(always)]
    pub fn written_from(&self, from: usize) -> &[u8] {
        self.out.get(self.base + from..self.pos).unwrap_or_default()
    }

    /// Writes the text format's delimiter between two segments.
    #[inline(always)]
    pub fn delimiter(&mut self, delimiter: &str) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        out_prefix(rest, delimiter.len())?.copy_from_slice(delimiter.as_bytes());
        self.pos += delimiter.len();
        Ok(())
    }

    /// The number of bytes written so far.
    #[inline(always)]
    pub fn written(&self) -> usize {
        self.pos
    }
}

/// Reads fields one after another from a key.
pub struct KeyReader<'k> {
    input: &'k [u8],
    pos: usize,
    /// Where the key after its tag starts.
    base: usize,
}

impl<'k> KeyReader<'k> {
    #[inline(always)]
    pub fn new(input: &'k [u8]) -> Self {
        KeyReader {
            input,
            pos: 0,
            base: 0,
        }
    }

    /// Expects the tag of the key type `name`, first of all.
    #[inline(always)]
    pub fn tag(&mut self, tag: Tag, name: &'static str) -> Result<(), DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        self.pos += tag.read(rest, name).map_err(|e| e.in_key(name))?;
        self.base = self.pos;
        Ok(())
    }

    /// Takes the tag when the key starts with it: how an enum key finds its variant.
    #[inline(always)]
    pub fn take_tag(&mut self, tag: Tag) -> bool {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let opens = tag.opens(rest);
        if opens {
            self.pos += tag.encoded_len();
            self.base = self.pos;
        }
        opens
    }

    #[inline(always)]
    pub fn field<T: DecodeField<'k>>(
        &mut self,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<T, DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        match T::decode(rest, mode) {
            Ok((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            Err(e) => Err(e.in_field(key, field, self.pos)),
        }
    }

    /// Expects the text format's delimiter between two segments.
    #[inline(always)]
    pub fn delimiter(&mut self, delimiter: &str) -> Result<(), DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        if !rest.starts_with(delimiter.as_bytes()) {
            return Err(DecodeError::new(
                DecodeErrorKind::InvalidText("expected the delimiter between segments"),
                self.pos,
            ));
        }
        self.pos += delimiter.len();
        Ok(())
    }

    /// The next `n` bytes (the prefix).
    #[inline(always)]
    pub fn take(&mut self, n: usize) -> Result<&'k [u8], DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let bytes = take(rest, n).map_err(|e| e.in_field("", "", self.pos))?;
        self.pos += n;
        Ok(bytes)
    }

    /// The bytes read from `from` on.
    #[inline(always)]
    pub fn read_from(&self, from: usize) -> &'k [u8] {
        self.input
            .get(self.base + from..self.pos)
            .unwrap_or_default()
    }

    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.pos
    }
}

/// `RowKey::encode_into` of a derived key: the key is its own field in the last position.
#[inline(always)]
pub fn encode_key<K: RowKey + KeyField + ?Sized>(
    key: &K,
    out: &mut [u8],
    name: &'static str,
) -> Result<usize, EncodeError> {
    encode_key_in(key, out, FieldMode::LAST, name)
}

/// [`encode_key`] in `mode` (which may carry a writer-chosen salt bucket).
#[inline(always)]
pub fn encode_key_in<K: RowKey + KeyField + ?Sized>(
    key: &K,
    out: &mut [u8],
    mode: FieldMode,
    name: &'static str,
) -> Result<usize, EncodeError> {
    let available = out.len();
    // A fixed layout checks the buffer once, up front. The fields then write at offsets the
    // compiler knows into a slice it knows is long enough, and their own checks fold away.
    if let Some(len) = const { K::SHAPE.fixed_len(FieldMode::LAST) } {
        if let Some(exact) = out.get_mut(..len) {
            return match key.encode(exact, mode) {
                Ok(n) => Ok(n),
                Err(e) => Err(locate_encode_error(e, key, available, name)),
            };
        }
    }
    let n = match key.encode(out, mode) {
        Ok(n) => n,
        Err(e) => return Err(locate_encode_error(e, key, available, name)),
    };
    if n > K::ROW_LIMIT {
        return Err(row_too_long(n, K::ROW_LIMIT, name));
    }
    Ok(n)
}

#[cold]
fn locate_encode_error<K: RowKey + ?Sized>(
    e: EncodeError,
    key: &K,
    available: usize,
    name: &'static str,
) -> EncodeError {
    match e.kind() {
        // A field saw only the rest of the buffer; report the whole key's need.
        EncodeErrorKind::BufferTooSmall { .. } => {
            EncodeError::new(EncodeErrorKind::BufferTooSmall {
                needed: key.encoded_len(),
                available,
            })
            .in_key(name)
        }
        _ => e.in_key(name),
    }
}

#[cold]
fn row_too_long(len: usize, max: usize, name: &'static str) -> EncodeError {
    EncodeError::new(EncodeErrorKind::RowTooLong { len, max }).in_key(name)
}

/// `DecodeKey::decode` of a derived key: the key is its own field, and must use every byte.
#[inline(always)]
pub fn decode_key<'k, K: DecodeField<'k>>(
    input: &'k [u8],
    name: &'static str,
) -> Result<K, DecodeError> {
    decode_key_in(input, FieldMode::LAST, name)
}

/// [`decode_key`] in `mode` (which may accept any salt bucket).
#[inline(always)]
pub fn decode_key_in<'k, K: DecodeField<'k>>(
    input: &'k [u8],
    mode: FieldMode,
    name: &'static str,
) -> Result<K, DecodeError> {
    // A key of a fixed layout's exact length takes a copy of the decoder specialised to that
    // length, with every field's bounds check folded away; other lengths take the general one,
    // which locates the error.
    if let Some(len) = const { K::SHAPE.fixed_len(FieldMode::LAST) } {
        if input.len() == len {
            if let Ok((key, _)) = K::decode(input, mode) {
                return Ok(key);
            }
        }
    }
    let (key, n) = K::decode(input, mode).map_err(|e| e.in_key(name))?;
    if n != input.len() {
        return Err(DecodeError::new(
            DecodeErrorKind::TrailingBytes {
                count: input.len() - n,
            },
            n,
        )
        .in_key(name));
    }
    Ok(key)
}

/// The length every key has, given every field's fixed length (`None` when any is variable).
pub const fn sum_fixed(lens: &[Option<usize>]) -> Option<usize> {
    let mut total: usize = 0;
    let mut i = 0;
    while i < lens.len() {
        total = match lens[i] {
            Some(n) => match total.checked_add(n) {
                Some(t) => t,
                None => return None,
            },
            None => return None,
        };
        i += 1;
    }
    Some(total)
}

/// The length of every key of an enum key, given each variant's fixed length: `Some` only when
/// every variant has the same one.
pub const fn same_fixed(lens: &[Option<usize>]) -> Option<usize> {
    let Some(first) = (match lens.first() {
        Some(f) => *f,
        None => None,
    }) else {
        return None;
    };
    let mut i = 1;
    while i < lens.len() {
        match lens[i] {
            Some(n) if n == first => {}
            _ => return None,
        }
        i += 1;
    }
    Some(first)
}

/// The upper bound of an enum key, given each variant's (`None` when any is unbounded).
pub const fn largest(lens: &[Option<usize>]) -> Option<usize> {
    let mut max = 0;
    let mut i = 0;
    while i < lens.len() {
        match lens[i] {
            Some(n) if n > max => max = n,
            Some(_) => {}
            None => return None,
        }
        i += 1;
    }
    Some(max)
}

/// The error of an enum key that starts with no variant's tag.
#[cold]
pub fn unknown_tag(name: &'static str) -> DecodeError {
    DecodeError::new(DecodeErrorKind::UnknownTag { name }, 0).in_key(name)
}

/// Lengths in const context: the shape of field type `T` placed with `mode`.
pub const fn fixed_len<T: KeyField + ?Sized>(mode: FieldMode) -> Option<usize> {
    T::SHAPE.fixed_len(mode)
}

/// The upper bound of field type `T` placed with `mode`.
pub const fn max_len<T: KeyField + ?Sized>(mode: FieldMode) -> Option<usize> {
    T::SHAPE.max_len(mode)
}

/// The shape of type `T`, for checks in const context.
pub const fn shape<T: KeyField + ?Sized>() -> FieldShape {
    T::SHAPE
}

/// Whether a fixed length is within the layout's row limit.
pub const fn within_row_limit(fixed: Option<usize>, limit: usize) -> bool {
    match fixed {
        Some(n) => n <= limit,
        None => true,
    }
}

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

/// The salt byte to write: the writer's chosen bucket, or the one `feed` computes from the sources.
#[inline(always)]
pub fn salt_byte(
    salt: Salt,
    mode: FieldMode,
    feed: impl FnOnce(&mut SaltHasher) -> Result<(), EncodeError>,
) -> Result<u8, EncodeError> {
    if let Some(bucket) = mode.chosen_bucket() {
        if u16::from(bucket) >= salt.buckets() {
            return Err(EncodeError::new(EncodeErrorKind::BucketOutOfRange {
                bucket,
                buckets: salt.buckets(),
            }));
        }
        return Ok(bucket);
    }
    let mut h = salt.hasher();
    feed(&mut h)?;
    Ok(h.finish())
}

/// The salt byte of a whole-key salt over `body`, the key after the salt byte.
#[inline(always)]
pub fn whole_key_salt_byte(salt: Salt, mode: FieldMode, body: &[u8]) -> Result<u8, EncodeError> {
    salt_byte(salt, mode, |h| {
        ValueSink::write(h, body);
        Ok(())
    })
}

/// Checks a decoded key's salt byte against the bucket `feed` computes from its decoded sources
/// (or, when `mode` accepts any bucket, against the bucket count).
#[inline(always)]
pub fn check_salt(
    salt: Salt,
    mode: FieldMode,
    found: u8,
    feed: impl FnOnce(&mut SaltHasher) -> Result<(), EncodeError>,
) -> Result<(), DecodeError> {
    if mode.accepts_any_bucket() {
        if u16::from(found) >= salt.buckets() {
            return Err(DecodeError::new(
                DecodeErrorKind::BucketOutOfRange {
                    bucket: found,
                    buckets: salt.buckets(),
                },
                0,
            ));
        }
        return Ok(());
    }
    let mut h = salt.hasher();
    feed(&mut h).map_err(source_error)?;
    let expected = h.finish();
    if expected != found {
        return Err(DecodeError::new(
            DecodeErrorKind::WrongSalt { expected, found },
            0,
        ));
    }
    Ok(())
}

/// [`check_salt`] for a whole-key salt over `body`, the key after the salt byte.
#[inline(always)]
pub fn check_whole_key_salt(
    salt: Salt,
    mode: FieldMode,
    found: u8,
    body: &[u8],
) -> Result<(), DecodeError> {
    check_salt(salt, mode, found, |h| {
        ValueSink::write(h, body);
        Ok(())
    })
}

/// Writes the hash prefix of the sources `feed` gives into `out`.
#[inline(always)]
pub fn write_hash_prefix(
    hash: HashPrefix,
    out: &mut [u8],
    feed: impl FnOnce(&mut HashPrefixHasher) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let mut h = hash.hasher();
    feed(&mut h)?;
    h.finish_into(out);
    Ok(())
}

/// Checks a decoded key's hash prefix against the MD5 of its decoded sources.
#[inline(always)]
pub fn check_hash_prefix(
    hash: HashPrefix,
    found: &[u8],
    feed: impl FnOnce(&mut HashPrefixHasher) -> Result<(), EncodeError>,
) -> Result<(), DecodeError> {
    let mut h = hash.hasher();
    feed(&mut h).map_err(source_error)?;
    let expected = h.finish();
    if expected.get(..found.len()) != Some(found) {
        return Err(DecodeError::new(DecodeErrorKind::WrongHashPrefix, 0));
    }
    Ok(())
}

/// A decoded source whose value bytes cannot be produced (only hand-written `KeyField`s can fail so).
#[cold]
fn source_error(_: EncodeError) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::Invalid("a salt or hash source could not produce its value bytes"),
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

/// Writes the salt bucket into the reserved prefix ([`Salt::write_bucket`]).
#[inline(always)]
pub fn write_salt(salt: Salt, bucket: u8, out: &mut [u8]) {
    salt.write_bucket(bucket, out);
}

/// Reads the salt bucket from a key's prefix ([`Salt::read_bucket`]).
#[inline(always)]
pub fn read_salt(salt: Salt, prefix: &[u8]) -> Result<u8, DecodeError> {
    salt.read_bucket(prefix)
}

/// Whether a field type has a text format.
pub const fn has_text_form(shape: FieldShape) -> bool {
    !matches!(shape.text_rule(), TextRule::None)
}

/// A value to show in `explain`: `Debug` when the type has it, a placeholder otherwise (chosen by
/// method resolution: `(&Show(&v)).show()` finds `ShowDebug` first, then `ShowOpaque` by autoref).
#[cfg(feature = "alloc")]
pub struct Show<'a, T: ?Sized>(pub &'a T);

/// `Show` for types with `Debug`.
#[cfg(feature = "alloc")]
pub trait ShowDebug {
    fn show(&self) -> alloc::string::String;
}

#[cfg(feature = "alloc")]
impl<T: core::fmt::Debug + ?Sized> ShowDebug for Show<'_, T> {
    fn show(&self) -> alloc::string::String {
        alloc::format!("{:?}", self.0)
    }
}

/// `Show` for types without `Debug`.
#[cfg(feature = "alloc")]
pub trait ShowOpaque {
    fn show(&self) -> alloc::string::String;
}

#[cfg(feature = "alloc")]
impl<T: ?Sized> ShowOpaque for &Show<'_, T> {
    fn show(&self) -> alloc::string::String {
        alloc::string::String::from("(no Debug)")
    }
}

/// The value shown for a prefix: the salt bucket, or the hash prefix.
#[cfg(feature = "alloc")]
pub fn show_prefix(prefix: Prefix, bytes: &[u8]) -> alloc::string::String {
    match prefix {
        Prefix::Salt(salt) => match read_salt(salt, bytes) {
            Ok(b) => alloc::format!("bucket {b} of {}", salt.buckets()),
            Err(_) => alloc::string::String::from("(not a bucket)"),
        },
        Prefix::Hash(_) => alloc::string::String::from("md5 prefix of the sources"),
        Prefix::None => alloc::string::String::new(),
    }
}

/// The offset of every segment: `lead` (the prefix and its delimiter), then each length before it
/// and a delimiter after each; `None` from the first variable length on.
pub const fn offsets<const N: usize>(
    lens: [Option<usize>; N],
    lead: usize,
    delimiter: usize,
) -> [Option<usize>; N] {
    let mut out = [None; N];
    let mut at = Some(lead);
    let mut i = 0;
    while i < N {
        out[i] = at;
        at = match (at, lens[i]) {
            (Some(a), Some(n)) => match a.checked_add(n) {
                Some(end) => end.checked_add(delimiter),
                None => None,
            },
            _ => None,
        };
        i += 1;
    }
    out
}

/// `K::explain`: the explanation of `key`, a key of `name`, with no segment yet.
#[cfg(feature = "alloc")]
#[inline]
pub fn explain_start(name: &'static str, key: &[u8]) -> Explained {
    Explained::new(name, key)
}

/// `K::explain`: adds the segment of `len` bytes at `*at` and moves `*at` past it and `delimiter`.
#[cfg(feature = "alloc")]
#[inline]
pub fn explain_segment(
    explained: &mut Explained,
    key: &[u8],
    at: &mut usize,
    segment: &'static str,
    len: usize,
    value: alloc::string::String,
    delimiter: usize,
) {
    let bytes = key.get(*at..at.saturating_add(len)).unwrap_or_default();
    explained.push(segment, bytes, value);
    *at = at.saturating_add(len).saturating_add(delimiter);
}

/// `K::explain`: adds the prefix's bytes, showing what they are.
#[cfg(feature = "alloc")]
#[inline]
pub fn explain_prefix(explained: &mut Explained, prefix: Prefix, bytes: &[u8]) {
    let label = match prefix {
        Prefix::Hash(_) => "hash",
        _ => "salt",
    };
    explained.push(label, bytes, show_prefix(prefix, bytes));
}

/// `K::explain`: adds the tag's bytes (with the delimiter after it).
#[cfg(feature = "alloc")]
#[inline]
pub fn explain_tag(explained: &mut Explained, tag: Tag, key: &[u8]) {
    let bytes = key.get(..tag.encoded_len()).unwrap_or_default();
    explained.push("tag", bytes, crate::hbase::to_string_binary(tag.bytes()));
}
