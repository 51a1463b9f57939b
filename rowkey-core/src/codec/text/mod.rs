//! The text format ([`KeyFormat::Text`](crate::KeyFormat::Text), `#[rowkey(text)]`): numbers as
//! zero-padded decimal (`number.rs`), strings as themselves padded with spaces (`content.rs`),
//! segments ended by the delimiter (`delimit.rs`, which the planner's text filters read too),
//! digests in hex (`hex.rs`). The delimiter between two fields is written by the walk from the
//! layout (`walk/frame.rs`), which says where it stands.

pub(crate) mod content;
pub(crate) mod delimit;
pub(crate) mod hex;
pub(crate) mod number;

use super::content::{Bytes, Content};
use super::Format;
use crate::error::{DecodeError, EncodeError};
use crate::field::FieldMode;

/// The text format's codec.
#[derive(Debug)]
pub enum Text {}

impl Format for Text {
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

    /// A text segment is read up to its delimiter by the general path.
    #[inline(always)]
    fn borrow_content(_input: &[u8], _mode: FieldMode) -> Option<(&[u8], usize)> {
        None
    }

    #[inline(always)]
    fn decode_content(
        input: &[u8],
        string: bool,
        mode: FieldMode,
    ) -> Result<(Bytes<'_>, usize), DecodeError> {
        if string {
            content::decode_str(input, mode)
        } else {
            // A byte string has no text form (encoding refuses one); its decoder reads the
            // binary format's bytes.
            super::binary::content::decode_content(input, mode)
        }
    }
}
