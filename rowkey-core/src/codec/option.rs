//! `Option<T>`: a tag byte, `00` for `None` and `01` for `Some`, then the value. `None` sorts first.

use super::{put, take_into};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField};
use crate::prefix::ValueSink;

const NONE: u8 = 0x00;
const SOME: u8 = 0x01;

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

    #[inline]
    fn encoded_len(&self, mode: FieldMode) -> usize {
        match self {
            None => 1,
            Some(v) => 1 + v.encoded_len(mode),
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

    /// A `Some` below every storable `Some` stands after `None`; otherwise the value inside
    /// answers, behind the `Some` tag.
    fn encode_stand_in(&self, out: &mut [u8], mode: FieldMode) -> Option<usize> {
        let v = self.as_ref()?;
        if v.beyond_width(mode).is_some_and(|o| o.is_lt()) {
            return put(&[NONE], out, tag_mode(mode)).ok();
        }
        let n = v.encode_stand_in(out.get_mut(1..)?, mode)?;
        put(&[SOME], out, tag_mode(mode)).ok()?;
        Some(1 + n)
    }

    /// Above every stored value when the value inside is. A `Some` below every storable `Some` is
    /// still above `None`, which is stored too, so it is not below everything: no answer.
    #[inline]
    fn beyond_width(&self, mode: FieldMode) -> Option<core::cmp::Ordering> {
        self.as_ref()
            .and_then(|v| v.beyond_width(mode))
            .filter(|o| o.is_gt())
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
}

impl<'k, T: DecodeField<'k>> DecodeField<'k> for Option<T> {
    #[inline]
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        let mut tag = [0u8];
        take_into(input, &mut tag, tag_mode(mode))?;
        match tag[0] {
            NONE => Ok((None, 1)),
            SOME => {
                let (v, n) = T::decode(&input[1..], mode).map_err(|e| e.in_field("", "", 1))?;
                Ok((Some(v), 1 + n))
            }
            other => Err(DecodeError::new(
                DecodeErrorKind::InvalidOptionTag(other),
                0,
            )),
        }
    }
}
