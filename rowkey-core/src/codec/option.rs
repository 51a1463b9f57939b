//! `Option<T>`: a tag byte, `00` for `None` and `01` for `Some`, then the value. `None` sorts first.

use super::{put, take_into};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField};
use crate::sink::ValueSink;

use crate::format::{NONE, SOME};

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
        match self {
            None => 1,
            Some(v) => 1 + v.field_len(mode),
        }
    }

    #[inline]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
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
        decode_option(input, mode, T::decode_field)
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
