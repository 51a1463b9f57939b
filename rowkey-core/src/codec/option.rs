//! `Option<T>`: a tag byte, `00` for `None` and `01` for `Some`, then the value. `None` sorts first.
//! In a `#[rowkey(phoenix)]` key, a nullable column: `None` is no bytes at all (Phoenix's NULL),
//! `Some` the value alone.

use super::{put, take_into};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField};
use crate::sink::ValueSink;

use crate::format::{NONE, PHOENIX_SEPARATOR, SOME};

/// The tag is a fixed-width field of its own: `desc` inverts it, `reverse` has nothing to reverse.
const fn tag_mode(mode: FieldMode) -> FieldMode {
    if mode.is_desc() {
        FieldMode::INNER.with_desc()
    } else {
        FieldMode::INNER
    }
}

impl<T: KeyField> KeyField for Option<T> {
    const SHAPE: FieldShape = T::SHAPE.optional();
    const NESTED_LAYOUT: Option<&'static crate::describe::layout::Layout> = T::NESTED_LAYOUT;

    #[inline]
    fn field_len(&self, mode: FieldMode) -> usize {
        let tag = usize::from(!mode.is_phoenix());
        match self {
            None => tag,
            Some(v) => tag + v.field_len(mode),
        }
    }

    #[inline(always)]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if mode.is_phoenix() {
            // Every Phoenix type with a NULL writes its values non-empty (an empty string is
            // refused), so `None` and `Some` stay apart.
            return self.as_ref().map_or(Ok(0), |v| v.encode(out, mode));
        }
        match self {
            None => put(&[NONE], out, tag_mode(mode)),
            Some(v) => {
                put(&[SOME], out, tag_mode(mode))?;
                Ok(1 + v.encode(&mut out[1..], mode)?)
            }
        }
    }

    #[inline]
    fn value_bytes<S: ValueSink + ?Sized>(
        &self,
        mode: FieldMode,
        sink: &mut S,
    ) -> Result<(), EncodeError> {
        match self {
            None => {
                sink.write(&[NONE]);
                Ok(())
            }
            Some(v) => {
                sink.write(&[SOME]);
                v.value_bytes(mode, sink)
            }
        }
    }

    #[inline]
    fn stores_exactly(&self, mode: FieldMode) -> bool {
        self.as_ref().map_or(true, |v| v.stores_exactly(mode))
    }
}

impl<'k, T: DecodeField<'k>> DecodeField<'k> for Option<T> {
    #[inline]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        // Phoenix's NULL read here rather than through `decode_option`'s closure: the call of
        // `T`'s decoder through it stayed out of line, a sixth of decoding a Phoenix key.
        if mode.is_phoenix() {
            if phoenix_null(input, mode) {
                return Ok((None, 0));
            }
            return T::decode_field(input, mode).map(|(v, n)| (Some(v), n));
        }
        decode_option(input, mode, T::decode_field)
    }
}

/// Whether a Phoenix column starts NULL at `input`: nothing, then the separator (`00` even when
/// descending) or the key's end.
#[inline(always)]
fn phoenix_null(input: &[u8], mode: FieldMode) -> bool {
    match input.first() {
        None => true,
        Some(&b) => mode.is_delimited() && b == PHOENIX_SEPARATOR,
    }
}

/// Reads an `Option`'s tag, then the value with `decode` when it is `Some`: the `Option` codec,
/// for `DecodeField` and for the values a schema reads at run time (`rowkey::schema`).
#[inline]
pub(crate) fn decode_option<'k, T>(
    input: &'k [u8],
    mode: FieldMode,
    decode: impl FnOnce(&'k [u8], FieldMode) -> Result<(T, usize), DecodeError>,
) -> Result<(Option<T>, usize), DecodeError> {
    if mode.is_phoenix() {
        return if phoenix_null(input, mode) {
            Ok((None, 0))
        } else {
            decode(input, mode).map(|(v, n)| (Some(v), n))
        };
    }
    let mut tag = [0u8];
    take_into(input, &mut tag, tag_mode(mode))?;
    match tag[0] {
        NONE => Ok((None, 1)),
        SOME => {
            let (v, n) = decode(&input[1..], mode).map_err(|e| e.in_field("", "", 1))?;
            Ok((Some(v), 1 + n))
        }
        other => Err(DecodeError::new(
            DecodeErrorKind::InvalidOptionTag(other),
            0,
        )),
    }
}
