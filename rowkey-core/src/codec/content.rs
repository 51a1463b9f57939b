//! Decoded content of strings and bytes: borrowed from the key whenever the stored bytes are the
//! content itself, owned (with `alloc`) when it had to be unescaped, inverted or reversed.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::error::DecodeError;
#[cfg(not(feature = "alloc"))]
use crate::error::DecodeErrorKind;
#[cfg(feature = "alloc")]
use crate::format::{invert, strip_padding};

/// Content to write: a string's (UTF-8, which text keys write character by character) or a byte
/// string's.
#[derive(Clone, Copy)]
pub(crate) enum Content<'a> {
    Str(&'a str),
    Bytes(&'a [u8]),
}

impl<'a> Content<'a> {
    /// The content's bytes.
    #[inline(always)]
    pub(crate) fn bytes(self) -> &'a [u8] {
        match self {
            Content::Str(s) => s.as_bytes(),
            Content::Bytes(b) => b,
        }
    }

    /// Whether the content is a string's.
    #[inline(always)]
    pub(crate) fn is_str(self) -> bool {
        matches!(self, Content::Str(_))
    }
}

/// Decoded content: borrowed from the key when the stored bytes are the content itself.
pub(crate) enum Bytes<'k> {
    Borrowed(&'k [u8]),
    #[cfg(feature = "alloc")]
    Owned(Vec<u8>),
}

#[cfg(feature = "alloc")]
pub(crate) fn owned<'k>(content: Buf) -> Result<Bytes<'k>, DecodeError> {
    Ok(Bytes::Owned(content))
}

#[cfg(not(feature = "alloc"))]
pub(crate) fn owned<'k>(_content: Buf) -> Result<Bytes<'k>, DecodeError> {
    Err(DecodeError::new(DecodeErrorKind::NotBorrowable, 0))
}

/// Without `alloc` there is nowhere to put unescaped content; this stands in for `Vec` so the decoder
/// is written once and reports [`DecodeErrorKind::NotBorrowable`].
#[cfg(not(feature = "alloc"))]
pub(crate) struct NoVec;

#[cfg(not(feature = "alloc"))]
impl NoVec {
    pub(crate) fn new() -> Self {
        NoVec
    }
    pub(crate) fn from_slice(_: &[u8]) -> Self {
        NoVec
    }
    pub(crate) fn push(&mut self, _: u8) {}
    pub(crate) fn reverse_in_place(&mut self) {}
    pub(crate) fn invert_in_place(&mut self) {}
    pub(crate) fn strip_padding(&mut self, _pad: u8) {}
}

#[cfg(feature = "alloc")]
pub(crate) type Buf = Vec<u8>;
#[cfg(not(feature = "alloc"))]
pub(crate) type Buf = NoVec;

#[cfg(feature = "alloc")]
pub(crate) trait BufExt {
    fn from_slice(src: &[u8]) -> Self;
    fn reverse_in_place(&mut self);
    fn invert_in_place(&mut self);
    fn strip_padding(&mut self, pad: u8);
}

#[cfg(feature = "alloc")]
impl BufExt for Vec<u8> {
    fn from_slice(src: &[u8]) -> Self {
        src.to_vec()
    }
    fn reverse_in_place(&mut self) {
        self.reverse();
    }
    fn invert_in_place(&mut self) {
        invert(self);
    }
    fn strip_padding(&mut self, pad: u8) {
        let end = strip_padding(self, pad).len();
        self.truncate(end);
    }
}
