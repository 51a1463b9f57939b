//! Errors name the key type, the field and the problem, so a failed write or a corrupt row can be traced
//! to one declaration without a debugger.
//!
//! Field codecs report a bare [`EncodeErrorKind`] or [`DecodeErrorKind`]; the generated code then
//! locates the error (key type, field, byte offset) on its way out. Neither type allocates, so both
//! work without `alloc`.

use core::fmt;

/// Why a key could not be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeError {
    key: &'static str,
    field: &'static str,
    kind: EncodeErrorKind,
}

/// What went wrong while encoding.
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
    /// The key is longer than HBase's row limit ([`crate::hbase::MAX_ROW_LENGTH`]).
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
}

impl EncodeError {
    /// An error of `kind`, not yet located in a key.
    #[cold]
    pub const fn new(kind: EncodeErrorKind) -> Self {
        EncodeError {
            key: "",
            field: "",
            kind,
        }
    }

    /// The problem.
    pub const fn kind(&self) -> EncodeErrorKind {
        self.kind
    }

    /// The key type whose field failed, or `""` when the error was not located.
    pub const fn key(&self) -> &'static str {
        self.key
    }

    /// The field that failed (the innermost one for nested keys), or `""` for errors of the whole key.
    pub const fn field(&self) -> &'static str {
        self.field
    }

    /// Names the field the error came from, unless a nested key already named a deeper one.
    #[cold]
    #[must_use]
    pub fn in_field(mut self, key: &'static str, field: &'static str) -> Self {
        if self.key.is_empty() {
            self.key = key;
            self.field = field;
        }
        self
    }

    /// Names the key type for errors of the whole key (buffer size, row limit).
    #[cold]
    #[must_use]
    pub fn in_key(mut self, key: &'static str) -> Self {
        if self.key.is_empty() {
            self.key = key;
        }
        self
    }
}

impl From<EncodeErrorKind> for EncodeError {
    fn from(kind: EncodeErrorKind) -> Self {
        EncodeError::new(kind)
    }
}

fn write_location(f: &mut fmt::Formatter<'_>, key: &str, field: &str) -> fmt::Result {
    match (key.is_empty(), field.is_empty()) {
        (true, _) => Ok(()),
        (false, true) => write!(f, "`{key}`: "),
        (false, false) => write!(f, "`{key}.{field}`: "),
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
                "output buffer holds {available} bytes but the key needs {needed}"
            ),
            EncodeErrorKind::TooWide { width } => {
                write!(f, "value does not fit the field's width of {width}")
            }
            EncodeErrorKind::EndsWithPad => f.write_str(
                "fixed-width content ends in the pad byte and could not be told apart from padding",
            ),
            EncodeErrorKind::RowTooLong { len, max } => {
                write!(f, "key is {len} bytes, longer than the row limit of {max}")
            }
            EncodeErrorKind::Negative => {
                f.write_str("negative numbers cannot be written in a text layout")
            }
            EncodeErrorKind::DelimiterInField => f.write_str(
                "the text contains the layout's delimiter, and another segment follows it",
            ),
            EncodeErrorKind::BucketOutOfRange { bucket, buckets } => {
                write!(
                    f,
                    "salt bucket {bucket} is not below the layout's {buckets} buckets"
                )
            }
            EncodeErrorKind::Unsupported(what) => write!(f, "unsupported: {what}"),
        }
    }
}

/// Why bytes could not be decoded as a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    key: &'static str,
    field: &'static str,
    offset: usize,
    kind: DecodeErrorKind,
}

/// What is wrong with the bytes.
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
    /// The salt byte is not the bucket the key's sources give: the key was written with another
    /// layout or salt function, or corrupted.
    WrongSalt {
        /// The bucket computed from the decoded sources.
        expected: u8,
        /// The salt byte in the key.
        found: u8,
    },
    /// The hash prefix is not the MD5 prefix of the key's sources.
    WrongHashPrefix,
    /// The salt byte is not below the layout's bucket count.
    BucketOutOfRange {
        /// The salt byte in the key.
        bucket: u8,
        /// The layout's bucket count.
        buckets: u16,
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
    pub const fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The key type whose field failed, or `""` when the error was not located.
    pub const fn key(&self) -> &'static str {
        self.key
    }

    /// The field that failed (the innermost one for nested keys), or `""` for errors of the whole key.
    pub const fn field(&self) -> &'static str {
        self.field
    }

    /// The byte offset in the key where the problem was found.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Moves the error `start` bytes further into the key and names its field, unless a nested key
    /// already named a deeper one.
    #[cold]
    #[must_use]
    pub fn in_field(mut self, key: &'static str, field: &'static str, start: usize) -> Self {
        self.offset += start;
        if self.key.is_empty() {
            self.key = key;
            self.field = field;
        }
        self
    }

    /// Names the key type for errors of the whole key (trailing bytes).
    #[cold]
    #[must_use]
    pub fn in_key(mut self, key: &'static str) -> Self {
        if self.key.is_empty() {
            self.key = key;
        }
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
            DecodeErrorKind::Truncated { needed, available } => write!(
                f,
                "key ends early: the field needs {needed} bytes but {available} are left"
            ),
            DecodeErrorKind::Unterminated => {
                f.write_str("escaped field has no 00 01 terminator before the end of the key")
            }
            DecodeErrorKind::BadEscape { found } => write!(
                f,
                "bad escape: 00 followed by {found:02X} (expected FF or 01; inverted under desc)"
            ),
            DecodeErrorKind::TrailingBytes { count } => {
                write!(f, "{count} bytes left over after the last field")
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
            DecodeErrorKind::WrongSalt { expected, found } => write!(
                f,
                "salt byte {found:02X} does not match the bucket of the key's fields ({expected:02X})"
            ),
            DecodeErrorKind::WrongHashPrefix => {
                f.write_str("hash prefix does not match the MD5 of the key's fields")
            }
            DecodeErrorKind::BucketOutOfRange { bucket, buckets } => write!(
                f,
                "salt byte {bucket} is not below the layout's {buckets} buckets"
            ),
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
