//! Runtime support for the code `#[derive(RowKey)]` generates: writing and reading fields in
//! sequence, locating errors, and the const arithmetic of layout lengths. Not a public API: reached
//! through `rowkey::__private`, and free to change between releases.

use crate::codec::{out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField};
use crate::hbase::MAX_ROW_LENGTH;
use crate::key::RowKey;

/// Writes fields one after another into an output buffer.
pub struct KeyWriter<'o> {
    out: &'o mut [u8],
    pos: usize,
}

impl<'o> KeyWriter<'o> {
    #[inline(always)]
    pub fn new(out: &'o mut [u8]) -> Self {
        KeyWriter { out, pos: 0 }
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

    #[inline(always)]
    pub fn byte(&mut self, b: u8) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        out_prefix(rest, 1)?[0] = b;
        self.pos += 1;
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
}

impl<'k> KeyReader<'k> {
    #[inline(always)]
    pub fn new(input: &'k [u8]) -> Self {
        KeyReader { input, pos: 0 }
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

    #[inline(always)]
    pub fn byte(&mut self) -> Result<u8, DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let b = take(rest, 1).map_err(|e| e.in_field("", "", self.pos))?[0];
        self.pos += 1;
        Ok(b)
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
    let available = out.len();
    let n = match key.encode(out, FieldMode::LAST) {
        Ok(n) => n,
        Err(e) => return Err(locate_encode_error(e, key, available, name)),
    };
    if n > MAX_ROW_LENGTH {
        return Err(row_too_long(n, name));
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
fn row_too_long(len: usize, name: &'static str) -> EncodeError {
    EncodeError::new(EncodeErrorKind::RowTooLong {
        len,
        max: MAX_ROW_LENGTH,
    })
    .in_key(name)
}

/// `DecodeKey::decode` of a derived key: the key is its own field, and must use every byte.
#[inline(always)]
pub fn decode_key<'k, K: DecodeField<'k>>(
    input: &'k [u8],
    name: &'static str,
) -> Result<K, DecodeError> {
    let (key, n) = K::decode(input, FieldMode::LAST).map_err(|e| e.in_key(name))?;
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

/// Whether a fixed length is within HBase's row limit.
pub const fn within_row_limit(fixed: Option<usize>) -> bool {
    match fixed {
        Some(n) => n <= MAX_ROW_LENGTH,
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

/// Encodes a fieldless enum's discriminant.
#[inline(always)]
pub fn encode_discriminant(d: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    crate::codec::put(&[d], out, mode)
}

/// Reads a fieldless enum's discriminant byte.
#[inline(always)]
pub fn decode_discriminant(input: &[u8], mode: FieldMode) -> Result<u8, DecodeError> {
    let mut b = [0u8];
    crate::codec::take_into(input, &mut b, mode)?;
    Ok(b[0])
}

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
