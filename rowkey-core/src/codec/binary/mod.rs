//! rowkey's binary format ([`KeyFormat::Binary`](crate::KeyFormat::Binary)), the default: its
//! rules for variable-length content, escaped when another field follows (`escape.rs`), padded
//! with `00` to a `width` (`pad.rs`), raw at the end of the key (`content.rs`). Nothing stands
//! between its fields. The fixed-width families' big-endian, sign-flipped bytes are still written
//! in `fixed.rs` for every format that shares them.

pub(crate) mod content;
pub(crate) mod escape;
pub(crate) mod pad;

use super::content::{Bytes, Content};
use super::Format;
use crate::error::{DecodeError, EncodeError};
use crate::field::FieldMode;

/// The binary format's codec.
#[derive(Debug)]
pub enum Binary {}

impl Format for Binary {
    #[inline(always)]
    fn content_len(content: Content<'_>, mode: FieldMode) -> usize {
        content::content_len(content.bytes(), mode)
    }

    #[inline(always)]
    fn encode_content(
        content: Content<'_>,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        content::encode_content(content, out, mode)
    }

    #[inline(always)]
    fn borrow_content(input: &[u8], mode: FieldMode) -> Option<(&[u8], usize)> {
        content::borrow_content(input, mode)
    }

    #[inline(always)]
    fn decode_content(
        input: &[u8],
        _string: bool,
        mode: FieldMode,
    ) -> Result<(Bytes<'_>, usize), DecodeError> {
        content::decode_content(input, mode)
    }
}
