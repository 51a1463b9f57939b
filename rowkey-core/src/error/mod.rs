//! Errors name the key type, the field and the problem, so a failed write or a corrupt row can be traced
//! to one declaration without a debugger.
//!
//! Field codecs report a bare [`EncodeErrorKind`] or [`DecodeErrorKind`]; the generated code then
//! locates the error (key type, field, byte offset) on its way out. Neither type allocates, so both
//! work without `alloc`.

use core::fmt;

use crate::words::Count;

/// Why a key could not be encoded.
///
/// ```
/// use rowkey::{EncodeErrorKind, FieldMode, KeyField};
/// let mut buf = [0u8; 2];
/// let err = 7u32.encode(&mut buf, FieldMode::LAST).unwrap_err();
/// assert_eq!(err.kind(), EncodeErrorKind::BufferTooSmall { needed: 4, available: 2 });
///
/// // Generated code names the key type and the field on the error's way out.
/// #[derive(rowkey::RowKey)]
/// struct Event { user_id: u32, #[rowkey(width = 1)] seq: u32 }
/// use rowkey::RowKey;
/// let err = Event { user_id: 7, seq: 300 }.to_vec().unwrap_err();
/// assert_eq!(err.kind(), EncodeErrorKind::TooWide { width: 1 });
/// assert_eq!((err.key(), err.field()), ("Event", "seq"));
/// assert!(err.to_string().contains("`Event.seq`"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeError {
    key: &'static str,
    field: &'static str,
    kind: EncodeErrorKind,
}

/// What went wrong while encoding.
///
/// ```
/// use rowkey::{EncodeErrorKind, FieldMode, KeyField};
/// let mut buf = [0u8; 8];
/// let (width1, text) = (FieldMode::LAST.with_width(1), FieldMode::INNER.with_text(":"));
/// let kind = |r: Result<usize, rowkey::EncodeError>| r.unwrap_err().kind();
/// // 300 does not fit one byte.
/// assert_eq!(kind(300u32.encode(&mut buf, width1)), EncodeErrorKind::TooWide { width: 1 });
/// // Text layouts write numbers as unsigned digits, and segments end at the delimiter.
/// assert_eq!(kind((-1i32).encode(&mut buf, text)), EncodeErrorKind::Negative);
/// assert_eq!(kind("a:b".encode(&mut buf, text)), EncodeErrorKind::DelimiterInField);
/// // Padded with 00, content ending in 00 could not be told apart from the padding.
/// let padded = FieldMode::LAST.with_width(4);
/// assert_eq!(kind(b"a\0"[..].encode(&mut buf, padded)), EncodeErrorKind::EndsWithPad);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The output buffer is shorter than the key.
    BufferTooSmall {
        /// Bytes the whole key needs.
        needed: usize,
        /// Bytes the buffer has.
        available: usize,
    },
    /// The value does not fit the field's `width` (bytes in the binary format, digits in text).
    TooWide {
        /// The declared width.
        width: usize,
    },
    /// Fixed-width content may not end in the pad byte: it could not be told apart from padding.
    EndsWithPad,
    /// The key is longer than a store's row limit: HBase's ([`crate::limits::HBASE`]) when
    /// encoding, or the one a store adapter checks ([`crate::limits`]).
    RowTooLong {
        /// The encoded length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A negative number in a text layout, whose numbers are unsigned decimal digits.
    Negative,
    /// A text field that another segment follows contains the delimiter.
    DelimiterInField,
    /// A writer-chosen salt bucket is not below the bucket count.
    BucketOutOfRange {
        /// The bucket given.
        bucket: u8,
        /// The layout's bucket count.
        buckets: u16,
    },
    /// The field's type does not support the way the layout uses it (only reachable through a
    /// hand-written [`KeyField`](crate::KeyField) implementation; the derive rejects such layouts when
    /// it compiles them).
    Unsupported(&'static str),
    /// A value Apache Phoenix cannot hold in the column a `#[rowkey(phoenix)]` field maps to
    /// (an `UNSIGNED_INT` above `i32::MAX`, an empty `VARCHAR` in a `NOT NULL` column, ...): why.
    NotInPhoenix(&'static str),
}

impl EncodeError {
    /// An error of `kind`, not yet located in a key.
    ///
    /// ```
    /// use rowkey::{EncodeError, EncodeErrorKind};
    /// let err = EncodeError::new(EncodeErrorKind::TooWide { width: 2 });
    /// assert_eq!(err.kind(), EncodeErrorKind::TooWide { width: 2 });
    /// assert_eq!((err.key(), err.field()), ("", "")); // not located yet
    /// assert_eq!(err, EncodeErrorKind::TooWide { width: 2 }.into());
    /// ```
    #[cold]
    pub const fn new(kind: EncodeErrorKind) -> Self {
        EncodeError {
            key: "",
            field: "",
            kind,
        }
    }

    /// The problem.
    ///
    /// ```
    /// use rowkey::{EncodeErrorKind, FieldMode, KeyField};
    /// let mut buf = [0u8; 19];
    /// let err = (-5i64).encode(&mut buf, FieldMode::LAST.with_text(":")).unwrap_err();
    /// assert_eq!(err.kind(), EncodeErrorKind::Negative);
    /// assert!(err.to_string().contains("negative"));
    /// ```
    pub const fn kind(&self) -> EncodeErrorKind {
        self.kind
    }

    /// The key type whose field failed, or `""` when the error was not located.
    ///
    /// ```
    /// use rowkey::{EncodeError, EncodeErrorKind, RowKey};
    /// assert_eq!(EncodeError::new(EncodeErrorKind::EndsWithPad).key(), "");
    /// #[derive(RowKey)]
    /// struct Page { #[rowkey(width = 1)] size: u32 }
    /// assert_eq!(Page { size: 300 }.to_vec().unwrap_err().key(), "Page");
    /// ```
    pub const fn key(&self) -> &'static str {
        self.key
    }

    /// The field that failed (the innermost one for nested keys), or `""` for errors of the whole key.
    ///
    /// ```
    /// use rowkey::{EncodeErrorKind, RowKey};
    /// #[derive(RowKey)]
    /// #[rowkey(max_len = 8)]
    /// struct Page { #[rowkey(width = 1)] size: u32, url: String }
    /// let wide = Page { size: 300, url: "/".into() }.to_vec().unwrap_err();
    /// assert_eq!(wide.field(), "size");
    /// let long = Page { size: 3, url: "/a/long/path".into() }.to_vec().unwrap_err();
    /// assert_eq!(long.kind(), EncodeErrorKind::RowTooLong { len: 13, max: 8 });
    /// assert_eq!((long.key(), long.field()), ("Page", ""));
    /// ```
    pub const fn field(&self) -> &'static str {
        self.field
    }

    /// Names the field the error came from, unless a nested key already named a deeper one.
    #[cold]
    #[must_use]
    pub(crate) fn in_field(mut self, key: &'static str, field: &'static str) -> Self {
        locate(&mut self.key, &mut self.field, key, field);
        self
    }

    /// Names the key type for errors of the whole key (buffer size, row limit).
    #[cold]
    #[must_use]
    pub(crate) fn in_key(mut self, key: &'static str) -> Self {
        locate(&mut self.key, &mut self.field, key, "");
        self
    }
}

impl From<EncodeErrorKind> for EncodeError {
    fn from(kind: EncodeErrorKind) -> Self {
        EncodeError::new(kind)
    }
}

/// Names the key (and the field, empty for an error of the whole key) an error came from, unless
/// a nested key already named a deeper one: the rule of both errors' `in_field` and `in_key`.
#[inline(always)]
fn locate(
    at_key: &mut &'static str,
    at_field: &mut &'static str,
    key: &'static str,
    field: &'static str,
) {
    if at_key.is_empty() {
        *at_key = key;
        *at_field = field;
    }
}

fn write_location(f: &mut fmt::Formatter<'_>, key: &str, field: &str) -> fmt::Result {
    match (key.is_empty(), field.is_empty()) {
        (true, _) => Ok(()),
        (false, true) => write!(f, "`{key}`: "),
        (false, false) => write!(f, "`{key}.{field}`: "),
    }
}

/// `6 buckets (00 to 05)`: a bucket count and the salts it allows, in hex as salt bytes are shown
/// (`hex`) or in decimal.
fn write_buckets(f: &mut fmt::Formatter<'_>, buckets: u16, hex: bool) -> fmt::Result {
    write!(f, "{}", Count(usize::from(buckets), "bucket"))?;
    let last = buckets.saturating_sub(1);
    match (hex, last) {
        (true, 0) => f.write_str(" (00 only)"),
        (true, _) => write!(f, " (00 to {last:02X})"),
        (false, 0) => f.write_str(" (0 only)"),
        (false, _) => write!(f, " (0 to {last})"),
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot encode row key: ")?;
        write_location(f, self.key, self.field)?;
        fmt::Display::fmt(&self.kind, f)
    }
}

impl fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EncodeErrorKind::BufferTooSmall { needed, available } => write!(
                f,
                "output buffer holds {} but the key needs {needed}",
                Count(available, "byte")
            ),
            EncodeErrorKind::TooWide { width } => {
                write!(f, "value does not fit the field's width of {width}")
            }
            EncodeErrorKind::EndsWithPad => f.write_str(
                "fixed-width content ends in the pad byte and could not be told apart from padding",
            ),
            EncodeErrorKind::RowTooLong { len, max } => write!(
                f,
                "key is {}, longer than the row limit of {max}",
                Count(len, "byte")
            ),
            EncodeErrorKind::Negative => {
                f.write_str("negative numbers cannot be written in a text layout")
            }
            EncodeErrorKind::DelimiterInField => f.write_str(
                "the text contains the layout's delimiter, and another segment follows it",
            ),
            EncodeErrorKind::BucketOutOfRange { bucket, buckets } => {
                write!(f, "salt bucket {bucket} is out of range: the layout has ")?;
                write_buckets(f, buckets, false)
            }
            EncodeErrorKind::Unsupported(what) => write!(f, "unsupported: {what}"),
            EncodeErrorKind::NotInPhoenix(why) => write!(f, "not storable in Phoenix: {why}"),
        }
    }
}

/// Why bytes could not be decoded as a key.
///
/// ```
/// use rowkey::{DecodeErrorKind, DecodeField, FieldMode};
/// // A u32 field that starts 2 bytes into a key with only 3 bytes left.
/// let err = u32::decode_field(&[0x00, 0x00, 0x01], FieldMode::LAST).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::Truncated { needed: 4, available: 3 });
///
/// // Generated code names the key type and the field, and counts the offset from the key's start.
/// #[derive(rowkey::RowKey, Debug)]
/// struct Event { user: u16, flag: bool }
/// let err = Event::decode(&[0x00, 0x07, 0x02]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(2));
/// assert_eq!((err.key(), err.field(), err.offset()), ("Event", "flag", 2));
/// assert!(err.to_string().contains("`Event.flag`"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    key: &'static str,
    field: &'static str,
    offset: usize,
    kind: DecodeErrorKind,
}

/// What is wrong with the bytes.
///
/// ```
/// use rowkey::{DecodeErrorKind, DecodeField, FieldMode};
/// use FieldMode as M;
/// let kind = |e: rowkey::DecodeError| e.kind();
/// assert_eq!(kind(bool::decode_field(&[2], M::LAST).unwrap_err()), DecodeErrorKind::InvalidBool(2));
/// let tag = Option::<u8>::decode_field(&[7, 0], M::LAST).unwrap_err();
/// assert_eq!(kind(tag), DecodeErrorKind::InvalidOptionTag(7));
/// // An escaped string must end with `00 01`, and a `00` inside it must be followed by `FF`.
/// let unterminated = String::decode_field(b"abc", M::INNER).unwrap_err();
/// assert_eq!(kind(unterminated), DecodeErrorKind::Unterminated);
/// let bad = String::decode_field(&[0x61, 0x00, 0x02], M::INNER).unwrap_err();
/// assert_eq!(kind(bad), DecodeErrorKind::BadEscape { found: 2 });
/// // "a\0b" escaped cannot be borrowed as a `&str`: its bytes are not the content.
/// let escaped = <&str>::decode_field(&[0x61, 0x00, 0xFF, 0x62, 0x00, 0x01], M::INNER).unwrap_err();
/// assert_eq!(kind(escaped), DecodeErrorKind::NotBorrowable);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The key ends inside a field.
    Truncated {
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left in the key.
        available: usize,
    },
    /// An escaped string or byte field has no `00 01` terminator.
    Unterminated,
    /// A `00` inside an escaped field is followed by something other than `FF` or `01`.
    BadEscape {
        /// The byte after the `00` (as stored, before any `desc` inversion).
        found: u8,
    },
    /// The key goes on after its last field.
    TrailingBytes {
        /// How many bytes are left over.
        count: usize,
    },
    /// A string field is not valid UTF-8.
    InvalidUtf8,
    /// A `bool` byte other than `00` or `01`.
    InvalidBool(u8),
    /// A 32-bit value that is not a Unicode scalar value.
    InvalidChar(u32),
    /// An `Option` tag other than `00` (None) or `01` (Some).
    InvalidOptionTag(u8),
    /// Text that is not what the text format puts there (digits, a delimiter).
    InvalidText(&'static str),
    /// A byte that is not the discriminant of any variant of the enum.
    UnknownDiscriminant {
        /// The byte found.
        value: u8,
        /// The enum's name.
        enum_name: &'static str,
    },
    /// The key does not start with the tag of its type (a struct's `tag`), or with the tag of
    /// any variant (an enum key): it is a key of another type, or of a variant this build does
    /// not know.
    UnknownTag {
        /// The key type's name.
        name: &'static str,
    },
    /// The salt byte is not the bucket the key's sources give: the key was written with another
    /// layout or salt function, or corrupted.
    WrongSalt {
        /// The bucket computed from the decoded sources.
        expected: u8,
        /// The salt byte in the key (in a text layout, the bucket its digits give).
        found: u8,
        /// Whether the layout is text: its salt is decimal digits, shown as such.
        text: bool,
    },
    /// The hash prefix is not the MD5 prefix of the key's sources.
    WrongHashPrefix,
    /// The key is longer than the layout's row limit (`max_len`, or HBase's 32767): encoding
    /// refuses such a key, so no value decodes from it.
    RowTooLong {
        /// The key's length.
        len: usize,
        /// The layout's row limit.
        max: usize,
    },
    /// The salt byte is not below the layout's bucket count: no salt of the layout gives it.
    /// Checked before [`WrongSalt`](DecodeErrorKind::WrongSalt), which is for a salt byte in
    /// range.
    BucketOutOfRange {
        /// The salt byte in the key (in a text layout, the bucket its digits give).
        bucket: u8,
        /// The layout's bucket count.
        buckets: u16,
        /// Whether the layout is text: its salt is decimal digits, shown as such.
        text: bool,
    },
    /// The field borrows from the key (`&str`, `&[u8]`) but its bytes are escaped, inverted or
    /// reversed and cannot be borrowed; use `Cow` or an owned type.
    NotBorrowable,
    /// A field value the type itself rejects (hand-written [`DecodeField`](crate::DecodeField)
    /// implementations).
    Invalid(&'static str),
}

impl DecodeError {
    /// An error of `kind` at `offset` bytes into the field, not yet located in a key.
    ///
    /// ```
    /// use rowkey::{DecodeError, DecodeErrorKind};
    /// let err = DecodeError::new(DecodeErrorKind::InvalidBool(2), 0);
    /// assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(2));
    /// assert_eq!((err.key(), err.field(), err.offset()), ("", "", 0));
    /// ```
    #[cold]
    pub const fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError {
            key: "",
            field: "",
            offset,
            kind,
        }
    }

    /// The problem.
    ///
    /// ```
    /// use rowkey::{DecodeErrorKind, DecodeField, FieldMode};
    /// let err = String::decode_field(&[0xFF], FieldMode::LAST).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::InvalidUtf8);
    /// assert!(err.to_string().contains("UTF-8"));
    /// ```
    pub const fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The key type whose field failed, or `""` when the error was not located.
    ///
    /// ```
    /// use rowkey::{DecodeError, DecodeErrorKind, RowKey};
    /// assert_eq!(DecodeError::new(DecodeErrorKind::InvalidUtf8, 0).key(), "");
    /// #[derive(RowKey, Debug)]
    /// struct Page { id: u8, url: String }
    /// assert_eq!(Page::decode(&[1, 0xFF]).unwrap_err().key(), "Page");
    /// ```
    pub const fn key(&self) -> &'static str {
        self.key
    }

    /// The field that failed (the innermost one for nested keys), or `""` for errors of the whole key.
    ///
    /// ```
    /// use rowkey::{DecodeErrorKind, RowKey};
    /// #[derive(RowKey, Debug)]
    /// struct Page { id: u8, flag: bool }
    /// assert_eq!(Page::decode(&[1, 2]).unwrap_err().field(), "flag");
    /// let trailing = Page::decode(&[1, 0, 9]).unwrap_err();
    /// assert_eq!(trailing.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
    /// assert_eq!((trailing.key(), trailing.field()), ("Page", ""));
    /// ```
    pub const fn field(&self) -> &'static str {
        self.field
    }

    /// The byte offset in the key where the problem was found.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey, Debug)]
    /// struct Page { id: u64, url: String }
    /// // Byte 1 of `url`, which starts at byte 8 of the key: not UTF-8.
    /// let err = Page::decode(&[0, 0, 0, 0, 0, 0, 0, 1, b'a', 0xFF]).unwrap_err();
    /// assert_eq!(err.offset(), 9);
    /// assert!(err.to_string().ends_with("(at byte 9)"));
    /// ```
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Moves the error `start` bytes further into the key and names its field, unless a nested key
    /// already named a deeper one.
    #[cold]
    #[must_use]
    pub(crate) fn in_field(mut self, key: &'static str, field: &'static str, start: usize) -> Self {
        self.offset += start;
        locate(&mut self.key, &mut self.field, key, field);
        self
    }

    /// Names the key type for errors of the whole key (trailing bytes).
    #[cold]
    #[must_use]
    pub(crate) fn in_key(mut self, key: &'static str) -> Self {
        locate(&mut self.key, &mut self.field, key, "");
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot decode row key: ")?;
        write_location(f, self.key, self.field)?;
        fmt::Display::fmt(&self.kind, f)?;
        write!(f, " (at byte {})", self.offset)
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeErrorKind::Truncated { needed, available } => {
                let left = Count(available, "byte");
                write!(
                    f,
                    "key ends early: the field needs {} but {left} {} left",
                    Count(needed, "byte"),
                    left.is()
                )
            }
            DecodeErrorKind::Unterminated => {
                f.write_str("escaped field has no 00 01 terminator before the end of the key")
            }
            DecodeErrorKind::BadEscape { found } => write!(
                f,
                "bad escape: 00 followed by {found:02X} (expected FF or 01; inverted under desc)"
            ),
            DecodeErrorKind::TrailingBytes { count } => {
                write!(f, "{} left over after the last field", Count(count, "byte"))
            }
            DecodeErrorKind::InvalidUtf8 => f.write_str("string field is not valid UTF-8"),
            DecodeErrorKind::InvalidBool(b) => write!(f, "bool byte {b:02X} is neither 00 nor 01"),
            DecodeErrorKind::InvalidChar(c) => {
                write!(f, "{c:#X} is not a Unicode scalar value")
            }
            DecodeErrorKind::InvalidOptionTag(b) => {
                write!(f, "Option tag {b:02X} is neither 00 (None) nor 01 (Some)")
            }
            DecodeErrorKind::InvalidText(what) => write!(f, "malformed text: {what}"),
            DecodeErrorKind::UnknownDiscriminant { value, enum_name } => {
                write!(
                    f,
                    "{value} is not the discriminant of any variant of `{enum_name}`"
                )
            }
            DecodeErrorKind::UnknownTag { name } => {
                write!(f, "the key does not start with a tag of `{name}`")
            }
            DecodeErrorKind::WrongSalt {
                expected,
                found,
                text: false,
            } => write!(
                f,
                "salt byte {found:02X} does not match the bucket of the key's fields ({expected:02X})"
            ),
            DecodeErrorKind::WrongSalt {
                expected,
                found,
                text: true,
            } => write!(
                f,
                "salt {found} does not match the bucket of the key's fields, {expected}"
            ),
            DecodeErrorKind::WrongHashPrefix => {
                f.write_str("hash prefix does not match the MD5 of the key's fields")
            }
            DecodeErrorKind::RowTooLong { len, max } => write!(
                f,
                "key of {} is longer than the layout's row limit of {max} (max_len)",
                Count(len, "byte")
            ),
            DecodeErrorKind::BucketOutOfRange {
                bucket,
                buckets,
                text: false,
            } => {
                write!(f, "salt byte {bucket:02X} is out of range: the key has ")?;
                write_buckets(f, buckets, true)
            }
            DecodeErrorKind::BucketOutOfRange {
                bucket,
                buckets,
                text: true,
            } => {
                write!(f, "salt {bucket} is out of range: the key has ")?;
                write_buckets(f, buckets, false)
            }
            DecodeErrorKind::NotBorrowable => f.write_str(
                "the field borrows from the key but its bytes are escaped, inverted or reversed; \
                 use Cow or an owned type",
            ),
            DecodeErrorKind::Invalid(what) => write!(f, "invalid value: {what}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}

#[cfg(feature = "std")]
impl std::error::Error for DecodeError {}

#[cfg(test)]
mod tests;
