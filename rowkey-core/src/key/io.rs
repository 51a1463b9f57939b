//! How a whole key is written and read: the key is its own field in the last position, with the
//! buffer checked once, the row limit, and every byte consumed. `RowKey::encode_into` and
//! `DecodeKey::decode` of every derived key, and what a salted key's writer and `explain` call
//! in another mode.

use super::RowKey;
use crate::buf::too_small;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode};

/// `RowKey::encode_into` of a derived key: the key is its own field in the last position.
#[inline(always)]
pub fn encode_key<K: RowKey + ?Sized>(key: &K, out: &mut [u8]) -> Result<usize, EncodeError> {
    encode_key_in(key, out, FieldMode::LAST)
}

/// [`RowKey::encode_into`] in `mode` (which may carry a writer-chosen salt bucket).
#[inline(always)]
pub fn encode_key_in<K: RowKey + ?Sized>(
    key: &K,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let name = K::LAYOUT.name;
    // The bytes every key starts with before a field of varying length.
    let head = const { K::LAYOUT.head_len() };
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
    // Keys of varying length check the buffer for their head once, up front: the leading
    // fields' own checks fold into it, as a hand-written encoder checks its buffer once.
    if out.len() < head {
        return Err(locate_encode_error(
            too_small(head, available),
            key,
            available,
            name,
        ));
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
fn decode_too_long(len: usize, max: usize, name: &'static str) -> DecodeError {
    DecodeError::new(DecodeErrorKind::RowTooLong { len, max }, 0).in_key(name)
}

#[cold]
fn row_too_long(len: usize, max: usize, name: &'static str) -> EncodeError {
    EncodeError::new(EncodeErrorKind::RowTooLong { len, max }).in_key(name)
}

/// `DecodeKey::decode` of a derived key: the key is its own field, and must use every byte, and be
/// no longer than the layout's row limit, as encoding requires.
#[inline(always)]
pub fn decode_key<'k, K: DecodeField<'k> + RowKey>(input: &'k [u8]) -> Result<K, DecodeError> {
    decode_key_in(input, FieldMode::LAST)
}

/// [`DecodeKey::decode`](super::DecodeKey::decode) in `mode` (which may accept any salt bucket).
#[inline(always)]
pub fn decode_key_in<'k, K: DecodeField<'k> + RowKey>(
    input: &'k [u8],
    mode: FieldMode,
) -> Result<K, DecodeError> {
    let name = K::LAYOUT.name;
    // A key of a fixed layout's exact length takes a copy of the decoder specialised to that
    // length, with every field's bounds check folded away; other lengths take the general one,
    // which locates the error.
    if let Some(len) = const { K::SHAPE.fixed_len(FieldMode::LAST) } {
        if input.len() == len {
            if let Ok((key, _)) = K::decode_field(input, mode) {
                return Ok(key);
            }
        }
    }
    // A fixed layout within the limit (the derive checks it) took the path above.
    if input.len() > K::ROW_LIMIT {
        return Err(decode_too_long(input.len(), K::ROW_LIMIT, name));
    }
    let (key, n) = K::decode_field(input, mode).map_err(|e| e.in_key(name))?;
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
