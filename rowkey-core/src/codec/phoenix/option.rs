//! A nullable Phoenix column (`Option<T>` in a `#[rowkey(phoenix)]` key): `None` is no bytes at
//! all (Phoenix's NULL), `Some` the value alone. Every Phoenix type with a NULL writes its values
//! non-empty (an empty string is refused), so `None` and `Some` stay apart.

use crate::error::{DecodeError, EncodeError};
use crate::field::{FieldMode, KeyField};
use crate::format::PHOENIX_SEPARATOR;

/// Whether a Phoenix column starts NULL at `input`: nothing, then the separator (`00` even when
/// descending) or the key's end.
#[inline(always)]
fn null(input: &[u8], mode: FieldMode) -> bool {
    match input.first() {
        None => true,
        Some(&b) => mode.is_delimited() && b == PHOENIX_SEPARATOR,
    }
}

#[inline(always)]
pub(crate) fn option_len<T: KeyField>(v: Option<&T>, mode: FieldMode) -> usize {
    v.map_or(0, |v| v.field_len(mode))
}

#[inline(always)]
pub(crate) fn encode_option<T: KeyField>(
    v: Option<&T>,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    v.map_or(Ok(0), |v| v.encode(out, mode))
}

// Inlined whole, with the value's decoder: called out of line, the value's decoder was a sixth
// of decoding a Phoenix key.
#[inline(always)]
pub(crate) fn decode_option<'k, T>(
    input: &'k [u8],
    mode: FieldMode,
    decode: impl FnOnce(&'k [u8], FieldMode) -> Result<(T, usize), DecodeError>,
) -> Result<(Option<T>, usize), DecodeError> {
    if null(input, mode) {
        return Ok((None, 0));
    }
    decode(input, mode).map(|(v, n)| (Some(v), n))
}
