//! A key is a sequence of fields, and every field type knows how to write itself in any position of a
//! key: as the last field or before others, ascending or `desc`, at its natural width or a declared one.
//!
//! [`KeyField`] and [`DecodeField`] are the extension point: implement them to key on your own types.
//! The derive wires each field to these traits with a constant [`FieldMode`]; after inlining, the
//! mode checks fold away and each field compiles to the straight-line code of its one position.

use crate::error::{DecodeError, EncodeError, EncodeErrorKind};
use crate::prefix::{Prefix, ValueSink};

/// Where and how a field is written: its declared `width`, `desc`, `reverse`, and whether another
/// field follows it (then variable-length content must be self-delimiting).
///
/// Built with const methods so the derive can name every field's mode as a constant:
///
/// ```
/// use rowkey_core::FieldMode;
/// const TS: FieldMode = FieldMode::INNER.with_desc();
/// assert!(TS.is_desc() && TS.is_delimited());
/// assert_eq!(FieldMode::LAST.with_width(4).width(), Some(4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldMode {
    width: usize,
    desc: bool,
    reverse: bool,
    delimited: bool,
    salt: SaltChoice,
    /// The text format (DESIGN §6), and the delimiter between its segments.
    text: Option<&'static str>,
}

/// Who chooses the salt bucket of a key: the salt function, or the writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SaltChoice {
    /// The bucket is computed from the sources, and checked on decode.
    Computed,
    /// The writer chose this bucket (random or round-robin salting).
    Chosen(u8),
    /// Decoding accepts any bucket below the bucket count.
    Any,
}

impl FieldMode {
    /// The last field of a key, ascending, natural width: variable-length content runs raw to the
    /// end of the key.
    pub const LAST: FieldMode = FieldMode {
        width: 0,
        desc: false,
        reverse: false,
        delimited: false,
        salt: SaltChoice::Computed,
        text: None,
    };

    /// A field that other fields follow, ascending, natural width.
    pub const INNER: FieldMode = FieldMode {
        width: 0,
        desc: false,
        reverse: false,
        delimited: true,
        salt: SaltChoice::Computed,
        text: None,
    };

    /// The same mode with a fixed `width` (`0` means the natural width).
    #[must_use]
    pub const fn with_width(self, width: usize) -> Self {
        FieldMode { width, ..self }
    }

    /// The same mode, descending.
    #[must_use]
    pub const fn with_desc(self) -> Self {
        FieldMode { desc: true, ..self }
    }

    /// The same mode, stored reversed.
    #[must_use]
    pub const fn with_reverse(self) -> Self {
        FieldMode {
            reverse: true,
            ..self
        }
    }

    /// The same mode in the text format, whose segments are joined by `delimiter`.
    #[must_use]
    pub const fn with_text(self, delimiter: &'static str) -> Self {
        FieldMode {
            text: Some(delimiter),
            ..self
        }
    }

    /// Whether the field is written in the text format.
    #[inline]
    pub const fn is_text(self) -> bool {
        self.text.is_some()
    }

    /// The text format's delimiter (empty in the binary format).
    #[inline]
    pub const fn delimiter(self) -> &'static str {
        match self.text {
            Some(d) => d,
            None => "",
        }
    }

    /// For a salted key: write `bucket` as the salt byte instead of the computed one.
    #[must_use]
    pub const fn with_chosen_bucket(self, bucket: u8) -> Self {
        FieldMode {
            salt: SaltChoice::Chosen(bucket),
            ..self
        }
    }

    /// For a salted key: accept any bucket below the bucket count when decoding.
    #[must_use]
    pub const fn with_any_bucket(self) -> Self {
        FieldMode {
            salt: SaltChoice::Any,
            ..self
        }
    }

    /// The bucket the writer chose, if it chose one.
    #[inline]
    pub const fn chosen_bucket(self) -> Option<u8> {
        match self.salt {
            SaltChoice::Chosen(b) => Some(b),
            _ => None,
        }
    }

    /// Whether decoding accepts any bucket.
    #[inline]
    pub const fn accepts_any_bucket(self) -> bool {
        matches!(self.salt, SaltChoice::Any)
    }

    /// The mode in which a field's value bytes (the input of salts and hashes) are written: its
    /// width, ascending, not reversed, as the last field (strings and bytes: their content).
    #[inline]
    #[must_use]
    pub const fn value_mode(self) -> FieldMode {
        FieldMode {
            text: self.text,
            ..FieldMode::LAST.with_width(self.width)
        }
    }

    /// The declared width, if any.
    #[inline]
    pub const fn width(self) -> Option<usize> {
        if self.width == 0 {
            None
        } else {
            Some(self.width)
        }
    }

    /// Whether every byte of the field is inverted so it sorts descending.
    #[inline]
    pub const fn is_desc(self) -> bool {
        self.desc
    }

    /// Whether the field is stored reversed.
    #[inline]
    pub const fn is_reverse(self) -> bool {
        self.reverse
    }

    /// Whether the field's end must be found from its own bytes: another field follows it, or it
    /// sits inside a descending region (inverted raw content would not sort in reverse).
    #[inline]
    pub const fn is_delimited(self) -> bool {
        self.delimited || self.desc
    }

    /// Variable-length content in this mode takes the escaped form `... 00 01` (binary format).
    #[inline]
    pub const fn escapes(self) -> bool {
        self.width == 0 && self.is_delimited() && self.text.is_none()
    }

    /// The mode of a field declared with `inner` inside a nested key placed with `self`.
    ///
    /// Inverting a whole nested key inverts each of its fields, so `desc` composes by exclusive or;
    /// a nested key that is delimited or descending needs every field of it delimited.
    #[inline]
    #[must_use]
    pub const fn nest(self, inner: FieldMode) -> FieldMode {
        FieldMode {
            width: inner.width,
            desc: self.desc ^ inner.desc,
            reverse: inner.reverse,
            delimited: inner.delimited || self.delimited || self.desc,
            salt: SaltChoice::Computed,
            text: inner.text,
        }
    }
}

/// Which `width` a field type accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WidthRule {
    /// `width` does not apply.
    None,
    /// Integers: narrowed to `width` bytes, at most `max`.
    Narrow {
        /// The natural size, the widest allowed.
        max: usize,
    },
    /// Strings and bytes: padded to `width` bytes.
    Pad,
}

/// Length facts of a field type, known when the program compiles.
///
/// ```
/// use rowkey_core::{FieldMode, FieldShape, KeyField};
/// assert_eq!(<u32 as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(4));
/// assert_eq!(<u32 as KeyField>::SHAPE.fixed_len(FieldMode::LAST.with_width(2)), Some(2));
/// assert_eq!(<Option<u32> as KeyField>::SHAPE.max_len(FieldMode::LAST), Some(5));
/// assert_eq!(<String as KeyField>::SHAPE.fixed_len(FieldMode::LAST.with_width(8)), Some(8));
/// assert_eq!(<String as KeyField>::SHAPE.max_len(FieldMode::LAST), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldShape {
    fixed: Option<usize>,
    max: Option<usize>,
    width: WidthRule,
    reversible: bool,
    tags: usize,
    prefix: Prefix,
    text: TextRule,
}

/// How a field type is written in the text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRule {
    /// Not in text layouts.
    None,
    /// Zero-padded decimal of this many digits (an integer's MAX), or `width` digits.
    Digits(usize),
    /// A string: its content, or padded with spaces to `width`.
    Str,
}

impl FieldShape {
    /// Always `len` bytes; no `width`, no `reverse` (bool, char, enums).
    pub const fn fixed(len: usize) -> Self {
        FieldShape {
            fixed: Some(len),
            max: Some(len),
            width: WidthRule::None,
            reversible: false,
            tags: 0,
            prefix: Prefix::None,
            text: TextRule::None,
        }
    }

    /// The same shape, written in text layouts as `digits` zero-padded decimal digits.
    #[must_use]
    pub const fn with_text_digits(self, digits: usize) -> Self {
        FieldShape {
            text: TextRule::Digits(digits),
            ..self
        }
    }

    /// How the type is written in text layouts.
    pub const fn text_rule(self) -> TextRule {
        self.text
    }

    /// An integer of `len` bytes: `width` narrows it, `reverse` applies.
    pub const fn integer(len: usize) -> Self {
        FieldShape {
            width: WidthRule::Narrow { max: len },
            reversible: true,
            ..FieldShape::fixed(len)
        }
    }

    /// Strings and bytes: variable, padded by `width`, reversible.
    pub const fn bytes() -> Self {
        FieldShape {
            fixed: None,
            max: None,
            width: WidthRule::Pad,
            reversible: true,
            tags: 0,
            prefix: Prefix::None,
            text: TextRule::Str,
        }
    }

    /// The same shape, with `reverse` allowed.
    #[must_use]
    pub const fn reversible(self) -> Self {
        FieldShape {
            reversible: true,
            ..self
        }
    }

    /// A key whose fields add up to `fixed` and `max`, behind `prefix`.
    pub const fn record(fixed: Option<usize>, max: Option<usize>, prefix: Prefix) -> Self {
        let p = prefix.encoded_len();
        FieldShape {
            fixed: match fixed {
                Some(n) => n.checked_add(p),
                None => None,
            },
            max: match max {
                Some(n) => n.checked_add(p),
                None => None,
            },
            width: WidthRule::None,
            reversible: false,
            tags: 0,
            prefix,
            text: TextRule::None,
        }
    }

    /// The key's prefix component (only keys have one; it cannot be nested).
    pub const fn prefix(self) -> Prefix {
        self.prefix
    }

    /// `Option<T>` for a `T` of this shape: one tag byte in front.
    #[must_use]
    pub const fn optional(self) -> Self {
        FieldShape {
            fixed: None,
            max: match self.max {
                Some(m) => m.checked_add(1),
                None => None,
            },
            width: self.width,
            reversible: self.reversible,
            tags: self.tags + 1,
            prefix: self.prefix,
            text: TextRule::None,
        }
    }

    /// Which `width` the type accepts.
    pub const fn width_rule(self) -> WidthRule {
        self.width
    }

    /// Whether `reverse` applies.
    pub const fn is_reversible(self) -> bool {
        self.reversible
    }

    /// Whether the type accepts `width = w`.
    pub const fn accepts_width(self, w: usize) -> bool {
        match self.width {
            WidthRule::None => false,
            WidthRule::Narrow { max } => w >= 1 && w <= max,
            WidthRule::Pad => w >= 1,
        }
    }

    /// The length of every encoding in `mode`, when it is always the same.
    pub const fn fixed_len(self, mode: FieldMode) -> Option<usize> {
        if mode.is_text() {
            return match (self.text, mode.width()) {
                (TextRule::Digits(_) | TextRule::Str, Some(w)) => Some(w),
                (TextRule::Digits(d), None) => Some(d),
                _ => None,
            };
        }
        match mode.width() {
            Some(w) if self.tags == 0 => Some(w),
            Some(_) => None,
            None => self.fixed,
        }
    }

    /// An upper bound of the encoded length in `mode`, when there is one.
    pub const fn max_len(self, mode: FieldMode) -> Option<usize> {
        if mode.is_text() {
            return self.fixed_len(mode);
        }
        match mode.width() {
            Some(w) => w.checked_add(self.tags),
            None => self.max,
        }
    }
}

/// A type that can be one field of a row key (the encoding half).
///
/// Implemented for integers, `bool`, `char`, floats, `[u8; N]`, strings, byte strings, `Option<T>`,
/// `uuid::Uuid` (feature `uuid`), and every type deriving `RowKey`. Implement it (with
/// [`DecodeField`]) to key on your own types; the simplest way is to delegate to a type that already
/// has the order you want:
///
/// ```
/// use rowkey_core::{DecodeError, DecodeField, EncodeError, FieldMode, FieldShape, KeyField};
///
/// /// Milliseconds since the epoch, keyed like an `i64`.
/// #[derive(Debug, PartialEq)]
/// struct Millis(i64);
///
/// impl KeyField for Millis {
///     const SHAPE: FieldShape = <i64 as KeyField>::SHAPE;
///     fn encoded_len(&self, mode: FieldMode) -> usize {
///         self.0.encoded_len(mode)
///     }
///     fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
///         self.0.encode(out, mode)
///     }
/// }
///
/// impl<'k> DecodeField<'k> for Millis {
///     fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
///         i64::decode(input, mode).map(|(v, n)| (Millis(v), n))
///     }
/// }
///
/// let mut buf = [0u8; 8];
/// let n = Millis(-1).encode(&mut buf, FieldMode::LAST)?;
/// assert_eq!(&buf[..n], &[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
/// assert_eq!(Millis::decode(&buf, FieldMode::LAST)?, (Millis(-1), 8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The contract an implementation keeps: the bytes sort as the values do; `encode` writes exactly
/// `encoded_len(mode)` bytes and returns that count, or [`EncodeErrorKind::BufferTooSmall`]
/// (with any `needed`) when `out` is shorter; in a mode where [`FieldMode::is_delimited`] holds,
/// `decode` finds the end of the field from its own bytes; and nothing panics.
///
/// [`EncodeErrorKind::BufferTooSmall`]: crate::EncodeErrorKind::BufferTooSmall
pub trait KeyField {
    /// Length facts, and which attributes the type accepts.
    const SHAPE: FieldShape;

    /// The number of bytes [`encode`](KeyField::encode) writes in `mode`.
    fn encoded_len(&self, mode: FieldMode) -> usize;

    /// Writes the field at the start of `out` and returns the number of bytes written.
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError>;

    /// Feeds the field's *value bytes*, the input of salts and hash prefixes, to `sink`: the content
    /// of strings and bytes, and for other types their encoding in [`FieldMode::value_mode`]
    /// (numbers: fixed-width big-endian, narrowed to `width`, before `desc` or `reverse`).
    ///
    /// The provided implementation encodes into a 64-byte stack buffer; types whose value bytes can
    /// be longer override it.
    fn value_bytes<S: ValueSink + ?Sized>(
        &self,
        mode: FieldMode,
        sink: &mut S,
    ) -> Result<(), EncodeError> {
        let mut buf = [0u8; 64];
        match self.encode(&mut buf, mode.value_mode()) {
            Ok(n) => {
                sink.write(&buf[..n]);
                Ok(())
            }
            Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => {
                Err(EncodeError::new(EncodeErrorKind::Unsupported(
                    "a salt or hash source longer than 64 bytes needs its own `KeyField::value_bytes`",
                )))
            }
            Err(e) => Err(e),
        }
    }
}

/// A type that can be read back from one field of a row key (the decoding half).
///
/// `'k` is the lifetime of the key bytes: `&'k str` and `Cow<'k, str>` borrow from them.
pub trait DecodeField<'k>: KeyField + Sized {
    /// Reads the field from the start of `input` and returns it with the number of bytes it took.
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError>;
}
