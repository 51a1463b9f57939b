//! A nullable Phoenix column (`Option<T>` in a `#[rowkey(phoenix)]` key): `None` is no bytes at
//! all (Phoenix's NULL), `Some` the value alone. Every Phoenix type with a NULL writes its values
//! non-empty (an empty string is refused), so `None` and `Some` stay apart.

use crate::error::{DecodeError, EncodeError};
use crate::field::FieldMode;
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

/// Writes nothing: a value is itself, and NULL no bytes.
#[inline(always)]
pub(crate) fn encode_tag(
    _some: bool,
    _out: &mut [u8],
    _mode: FieldMode,
) -> Result<usize, EncodeError> {
    Ok(0)
}

/// Whether a value starts at `input` (not NULL); no bytes taken.
#[inline(always)]
pub(crate) fn decode_tag(input: &[u8], mode: FieldMode) -> Result<(bool, usize), DecodeError> {
    Ok((!null(input, mode), 0))
}
