//! Content padded to a fixed `width` with `00` (a text key pads a string with spaces, in
//! `text/content.rs`). Content must not end in its padding byte, so the padding is stripped
//! unambiguously. The padding bytes are named in `format.rs`.

use crate::codec::out_prefix;
use crate::error::{EncodeError, EncodeErrorKind};

pub(crate) use crate::format::{strip_padding as strip, PAD};

pub(crate) fn encode_padded(
    content: &[u8],
    out: &mut [u8],
    width: usize,
    reverse: bool,
) -> Result<usize, EncodeError> {
    if content.len() > width {
        return Err(EncodeError::new(EncodeErrorKind::TooWide { width }));
    }
    let stored_last = if reverse {
        content.first()
    } else {
        content.last()
    };
    if stored_last == Some(&PAD) {
        return Err(EncodeError::new(EncodeErrorKind::EndsWithPad));
    }
    let dst = out_prefix(out, width)?;
    let (body, pad) = dst.split_at_mut(content.len());
    body.copy_from_slice(content);
    if reverse {
        body.reverse();
    }
    pad.fill(PAD);
    Ok(width)
}
