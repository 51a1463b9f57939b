//! Tags: constant bytes that open every key of a type, so several key types share one ordered key
//! space (FoundationDB's subspaces, TiDB's `t{id}_r` and `t{id}_i`), and the bytes that tell the
//! variants of an enum key apart.
//!
//! A tag comes before everything else in the key, the salt or hash prefix included, so each key
//! type keeps a contiguous part of the table. In text layouts it is the first segment: the tag,
//! then the delimiter when more follows. Every rule about a tag's bytes lives here; the derive
//! and the planner call it.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// The constant bytes that open every key of a type (or of one variant of an enum key), with the
/// text delimiter that follows them.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// #[rowkey(tag = b"evt/")]
/// struct Event {
///     id: u32,
/// }
///
/// assert_eq!(Event::LAYOUT.tag.bytes(), b"evt/");
/// assert_eq!(Event { id: 7 }.to_vec()?, b"evt/\x00\x00\x00\x07");
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag {
    bytes: &'static [u8],
    delimiter: &'static str,
}

impl Tag {
    /// No tag: keys start with their prefix or first field.
    pub const NONE: Tag = Tag {
        bytes: &[],
        delimiter: "",
    };

    /// The tag `bytes`, followed in the key by `delimiter` (a text layout's, when more segments
    /// follow; empty in binary layouts). Generated code calls it through `__private::tag`.
    pub(crate) const fn new(bytes: &'static [u8], delimiter: &'static str) -> Tag {
        Tag { bytes, delimiter }
    }

    /// The tag's bytes, without the delimiter.
    pub const fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    /// The delimiter written after the tag.
    pub const fn delimiter(&self) -> &'static str {
        self.delimiter
    }

    /// Whether there is no tag.
    pub const fn is_none(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes the tag takes in a key, its delimiter included.
    ///
    /// ```
    /// use rowkey::{RowKey, Tag};
    /// #[derive(RowKey)]
    /// #[rowkey(text, delimiter = "#", tag = "evt")]
    /// struct Event { id: u32 }
    /// assert_eq!(Event::LAYOUT.tag.encoded_len(), 4); // `evt#`
    /// assert_eq!(Tag::NONE.encoded_len(), 0);
    /// ```
    pub const fn encoded_len(&self) -> usize {
        if self.bytes.is_empty() {
            0
        } else {
            self.bytes.len() + self.delimiter.len()
        }
    }

    /// Whether `key` starts with the tag (always true without one).
    #[inline(always)]
    pub fn opens(&self, key: &[u8]) -> bool {
        self.is_none()
            || (key.starts_with(self.bytes)
                && key
                    .get(self.bytes.len()..)
                    .is_some_and(|rest| rest.starts_with(self.delimiter.as_bytes())))
    }

    /// `key` after the tag, or `None` when it does not start with it.
    #[inline(always)]
    pub fn strip<'k>(&self, key: &'k [u8]) -> Option<&'k [u8]> {
        if self.opens(key) {
            key.get(self.encoded_len()..)
        } else {
            None
        }
    }

    /// Writes the tag at the start of `out` and returns its length.
    #[inline(always)]
    pub(crate) fn write(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        let n = self.encoded_len();
        let dst = crate::buf::out_prefix(out, n)?;
        let (tag, delimiter) = dst.split_at_mut(self.bytes.len());
        tag.copy_from_slice(self.bytes);
        delimiter.copy_from_slice(self.delimiter.as_bytes());
        Ok(n)
    }

    /// Checks that `input` starts with the tag of the key type `name` and returns its length.
    #[inline(always)]
    pub(crate) fn read(&self, input: &[u8], name: &'static str) -> Result<usize, DecodeError> {
        if self.opens(input) {
            Ok(self.encoded_len())
        } else {
            Err(DecodeError::new(DecodeErrorKind::UnknownTag { name }, 0))
        }
    }

    /// The tag joined to `rest`, the key after it.
    #[cfg(feature = "alloc")]
    pub(crate) fn join(&self, rest: &[u8]) -> alloc::vec::Vec<u8> {
        let mut key = alloc::vec::Vec::with_capacity(self.encoded_len() + rest.len());
        key.extend_from_slice(self.bytes);
        if !self.is_none() {
            key.extend_from_slice(self.delimiter.as_bytes());
        }
        key.extend_from_slice(rest);
        key
    }
}

/// The bytes of the tag `tag = n` (an integer, 0..=255): the byte itself, or in text layouts its
/// three decimal digits, as a fieldless enum's discriminant is written there.
pub fn byte_tag(n: u8, text: bool) -> ByteTag {
    if text {
        ByteTag {
            bytes: [b'0' + n / 100, b'0' + n / 10 % 10, b'0' + n % 10],
            len: 3,
        }
    } else {
        ByteTag {
            bytes: [n, 0, 0],
            len: 1,
        }
    }
}

/// The bytes of an integer tag, from [`byte_tag`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteTag {
    bytes: [u8; 3],
    len: usize,
}

impl ByteTag {
    /// The tag's bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The first pair `(earlier, later)` of `tags` in which one is a prefix of the other (equal tags
/// included), or `None` when they are prefix-free: then the tag at the start of a key names its
/// variant, and keys of different variants never interleave.
pub fn prefix_clash(tags: &[&[u8]]) -> Option<(usize, usize)> {
    for later in 0..tags.len() {
        for earlier in 0..later {
            let (a, b) = (tags[earlier], tags[later]);
            if a.starts_with(b) || b.starts_with(a) {
                return Some((earlier, later));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_tag_is_a_byte_or_three_digits() {
        assert_eq!(byte_tag(7, false).as_slice(), [7]);
        assert_eq!(byte_tag(7, true).as_slice(), b"007");
    }

    #[test]
    fn tags_that_prefix_each_other_clash() {
        assert_eq!(prefix_clash(&[b"u/", b"o/", b"ord"]), None);
        assert_eq!(prefix_clash(&[b"o", b"u/", b"ord"]), Some((0, 2)));
    }
}
