//! `uuid::Uuid` (feature `uuid`): its 16 bytes, big-endian as `Uuid::as_bytes` gives them, so
//! version-7 UUIDs sort by time. `reverse` spreads sequential ones.

use super::{put, take_into, unsupported_width};
use crate::error::{DecodeError, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, Form, KeyField, ValueKind};

impl KeyField for uuid::Uuid {
    const SHAPE: FieldShape = FieldShape::fixed(16)
        .reversible()
        .with_form(Form::ByteArray)
        .with_value(ValueKind::Uuid);

    #[inline]
    fn field_len(&self, _mode: FieldMode) -> usize {
        16
    }

    #[inline]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if mode.width().is_some() {
            return Err(unsupported_width());
        }
        put(self.as_bytes(), out, mode)
    }
}

impl<'k> DecodeField<'k> for uuid::Uuid {
    #[inline]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        let mut buf = [0u8; 16];
        take_into(input, &mut buf, mode)?;
        Ok((uuid::Uuid::from_bytes(buf), 16))
    }
}
