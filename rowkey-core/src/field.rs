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
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let mut buf = [0u8; 8];
    /// // Nothing follows: a string is its raw content, with no terminator.
    /// let n = "ab".encode(&mut buf, FieldMode::LAST)?;
    /// assert_eq!(&buf[..n], b"ab");
    /// assert!(!FieldMode::LAST.is_delimited());
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    pub const LAST: FieldMode = FieldMode {
        width: 0,
        desc: false,
        reverse: false,
        delimited: false,
        salt: SaltChoice::Computed,
        text: None,
    };

    /// A field that other fields follow, ascending, natural width.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let mut buf = [0u8; 8];
    /// // Another field follows: `00` becomes `00 FF` and the content ends with `00 01`.
    /// let n = "a\0b".encode(&mut buf, FieldMode::INNER)?;
    /// assert_eq!(&buf[..n], [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01]);
    /// assert!(FieldMode::INNER.is_delimited());
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    pub const INNER: FieldMode = FieldMode {
        width: 0,
        desc: false,
        reverse: false,
        delimited: true,
        salt: SaltChoice::Computed,
        text: None,
    };

    /// The same mode with a fixed `width` (`0` means the natural width).
    ///
    /// ```
    /// use rowkey_core::{EncodeErrorKind, FieldMode, KeyField};
    /// let two = FieldMode::LAST.with_width(2);
    /// let mut buf = [0u8; 4];
    /// assert_eq!(7u32.encode(&mut buf, two)?, 2);
    /// assert_eq!(&buf[..2], [0x00, 0x07]);
    /// // 0x1_0000 needs three bytes: an error, never truncated.
    /// let err = 0x1_0000u32.encode(&mut buf, two).unwrap_err();
    /// assert_eq!(err.kind(), EncodeErrorKind::TooWide { width: 2 });
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_width(self, width: usize) -> Self {
        FieldMode { width, ..self }
    }

    /// The same mode, descending.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let desc = FieldMode::LAST.with_desc();
    /// let (mut one, mut two) = ([0u8; 2], [0u8; 2]);
    /// 1u16.encode(&mut one, desc)?;
    /// 2u16.encode(&mut two, desc)?;
    /// assert_eq!(one, [0xFF, 0xFE]); // `00 01` with every byte inverted
    /// assert!(two < one);            // 2 sorts before 1
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_desc(self) -> Self {
        FieldMode { desc: true, ..self }
    }

    /// The same mode, stored reversed.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let mut buf = [0u8; 3];
    /// 0x0102u16.encode(&mut buf, FieldMode::LAST.with_reverse())?;
    /// assert_eq!(buf[..2], [0x02, 0x01]);
    /// let n = "abc".encode(&mut buf, FieldMode::LAST.with_reverse())?;
    /// assert_eq!(&buf[..n], b"cba");
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_reverse(self) -> Self {
        FieldMode {
            reverse: true,
            ..self
        }
    }

    /// The same mode in the text format, whose segments are joined by `delimiter`.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let text = FieldMode::LAST.with_text(":");
    /// let mut buf = [0u8; 10];
    /// // Zero-padded to the 10 digits of u32::MAX (4294967295), or to `width` digits.
    /// let n = 42u32.encode(&mut buf, text)?;
    /// assert_eq!(&buf[..n], b"0000000042");
    /// let n = 42u32.encode(&mut buf, text.with_width(4))?;
    /// assert_eq!(&buf[..n], b"0042");
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_text(self, delimiter: &'static str) -> Self {
        FieldMode {
            text: Some(delimiter),
            ..self
        }
    }

    /// Whether the field is written in the text format.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert!(FieldMode::LAST.with_text(":").is_text());
    /// assert!(FieldMode::LAST.with_text("").is_text()); // segments simply concatenated
    /// assert!(!FieldMode::LAST.is_text());
    /// ```
    #[inline]
    pub const fn is_text(self) -> bool {
        self.text.is_some()
    }

    /// The text format's delimiter (empty in the binary format).
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert_eq!(FieldMode::INNER.with_text(":").delimiter(), ":");
    /// assert_eq!(FieldMode::INNER.with_text("").delimiter(), "");
    /// assert_eq!(FieldMode::INNER.delimiter(), "");
    /// ```
    #[inline]
    pub const fn delimiter(self) -> &'static str {
        match self.text {
            Some(d) => d,
            None => "",
        }
    }

    /// For a salted key: write `bucket` as the salt byte instead of the computed one.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// let mode = FieldMode::LAST.with_chosen_bucket(3);
    /// assert_eq!(mode.chosen_bucket(), Some(3));
    /// assert_eq!(FieldMode::LAST.chosen_bucket(), None); // computed from the sources
    /// ```
    #[must_use]
    pub const fn with_chosen_bucket(self, bucket: u8) -> Self {
        FieldMode {
            salt: SaltChoice::Chosen(bucket),
            ..self
        }
    }

    /// For a salted key: accept any bucket below the bucket count when decoding.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// let mode = FieldMode::LAST.with_any_bucket();
    /// assert!(mode.accepts_any_bucket());
    /// assert!(!FieldMode::LAST.accepts_any_bucket()); // the salt byte is checked
    /// ```
    #[must_use]
    pub const fn with_any_bucket(self) -> Self {
        FieldMode {
            salt: SaltChoice::Any,
            ..self
        }
    }

    /// The bucket the writer chose, if it chose one.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert_eq!(FieldMode::LAST.with_chosen_bucket(7).chosen_bucket(), Some(7));
    /// assert_eq!(FieldMode::LAST.with_any_bucket().chosen_bucket(), None);
    /// assert_eq!(FieldMode::LAST.chosen_bucket(), None);
    /// ```
    #[inline]
    pub const fn chosen_bucket(self) -> Option<u8> {
        match self.salt {
            SaltChoice::Chosen(b) => Some(b),
            _ => None,
        }
    }

    /// Whether decoding accepts any bucket.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert!(FieldMode::LAST.with_any_bucket().accepts_any_bucket());
    /// // Choosing a bucket replaces accepting any: a mode has one salt choice.
    /// assert!(!FieldMode::LAST.with_any_bucket().with_chosen_bucket(1).accepts_any_bucket());
    /// ```
    #[inline]
    pub const fn accepts_any_bucket(self) -> bool {
        matches!(self.salt, SaltChoice::Any)
    }

    /// The mode in which a field's value bytes (the input of salts and hashes) are written: its
    /// width, ascending, not reversed, as the last field (strings and bytes: their content).
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let stored = FieldMode::INNER.with_width(2).with_desc().with_reverse();
    /// assert_eq!(stored.value_mode(), FieldMode::LAST.with_width(2));
    /// let mut buf = [0u8; 2];
    /// 7u32.encode(&mut buf, stored.value_mode())?;
    /// assert_eq!(buf, [0x00, 0x07]); // big-endian in 2 bytes, before `desc` and `reverse`
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn value_mode(self) -> FieldMode {
        FieldMode {
            text: self.text,
            ..FieldMode::LAST.with_width(self.width)
        }
    }

    /// The declared width, if any.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert_eq!(FieldMode::LAST.width(), None);
    /// assert_eq!(FieldMode::LAST.with_width(4).width(), Some(4));
    /// assert_eq!(FieldMode::LAST.with_width(0).width(), None); // 0: the natural width
    /// ```
    #[inline]
    pub const fn width(self) -> Option<usize> {
        if self.width == 0 {
            None
        } else {
            Some(self.width)
        }
    }

    /// Whether every byte of the field is inverted so it sorts descending.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert!(FieldMode::INNER.with_desc().is_desc());
    /// assert!(!FieldMode::INNER.is_desc());
    /// assert!(!FieldMode::INNER.with_reverse().is_desc());
    /// ```
    #[inline]
    pub const fn is_desc(self) -> bool {
        self.desc
    }

    /// Whether the field is stored reversed.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert!(FieldMode::LAST.with_reverse().is_reverse());
    /// assert!(!FieldMode::LAST.is_reverse());
    /// assert!(!FieldMode::LAST.with_desc().is_reverse());
    /// ```
    #[inline]
    pub const fn is_reverse(self) -> bool {
        self.reverse
    }

    /// Whether the field's end must be found from its own bytes: another field follows it, or it
    /// sits inside a descending region (inverted raw content would not sort in reverse).
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert!(FieldMode::INNER.is_delimited());
    /// assert!(!FieldMode::LAST.is_delimited());
    /// // A descending last field too: inverted raw content would not sort in reverse.
    /// assert!(FieldMode::LAST.with_desc().is_delimited());
    /// ```
    #[inline]
    pub const fn is_delimited(self) -> bool {
        self.delimited || self.desc
    }

    /// Variable-length content in this mode takes the escaped form `... 00 01` (binary format).
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// assert!(FieldMode::INNER.escapes());
    /// assert!(!FieldMode::LAST.escapes());                 // raw to the end of the key
    /// assert!(!FieldMode::INNER.with_width(8).escapes());  // padded to 8 bytes instead
    /// assert!(!FieldMode::INNER.with_text(":").escapes()); // the delimiter ends it
    /// ```
    #[inline]
    pub const fn escapes(self) -> bool {
        self.width == 0 && self.is_delimited() && self.text.is_none()
    }

    /// The mode of a field declared with `inner` inside a nested key placed with `self`.
    ///
    /// Inverting a whole nested key inverts each of its fields, so `desc` composes by exclusive or;
    /// a nested key that is delimited or descending needs every field of it delimited.
    ///
    /// ```
    /// use rowkey_core::FieldMode;
    /// // A `desc` field inside a nested key that is itself `desc`: the inversions cancel.
    /// let outer = FieldMode::INNER.with_desc();
    /// let field = outer.nest(FieldMode::LAST.with_desc());
    /// assert!(!field.is_desc());
    /// // The nested key is followed by more fields, so its last field must end itself.
    /// assert!(field.is_delimited());
    /// assert!(!FieldMode::LAST.nest(FieldMode::LAST).is_delimited());
    /// ```
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
///
/// ```
/// use rowkey_core::{KeyField, WidthRule};
/// assert_eq!(<u32 as KeyField>::SHAPE.width_rule(), WidthRule::Narrow { max: 4 });
/// assert_eq!(<str as KeyField>::SHAPE.width_rule(), WidthRule::Pad);
/// assert_eq!(<bool as KeyField>::SHAPE.width_rule(), WidthRule::None);
/// ```
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
///
/// ```
/// use rowkey_core::{KeyField, TextRule};
/// assert_eq!(<u8 as KeyField>::SHAPE.text_rule(), TextRule::Digits(3)); // 255
/// assert_eq!(<i64 as KeyField>::SHAPE.text_rule(), TextRule::Digits(19)); // 9223372036854775807
/// assert_eq!(<str as KeyField>::SHAPE.text_rule(), TextRule::Str);
/// assert_eq!(<f64 as KeyField>::SHAPE.text_rule(), TextRule::None);
/// ```
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
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FieldShape, KeyField};
    /// let shape = FieldShape::fixed(4);
    /// assert_eq!(shape.fixed_len(FieldMode::INNER), Some(4));
    /// assert!(!shape.accepts_width(2));
    /// assert!(!shape.is_reversible());
    /// assert_eq!(shape, <char as KeyField>::SHAPE);
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FieldShape, TextRule};
    /// let shape = FieldShape::integer(2).with_text_digits(5); // a u16: 65535 has 5 digits
    /// assert_eq!(shape.text_rule(), TextRule::Digits(5));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_text(":")), Some(5));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), Some(2));
    /// ```
    #[must_use]
    pub const fn with_text_digits(self, digits: usize) -> Self {
        FieldShape {
            text: TextRule::Digits(digits),
            ..self
        }
    }

    /// How the type is written in text layouts.
    ///
    /// ```
    /// use rowkey_core::{FieldShape, KeyField, TextRule};
    /// assert_eq!(<u16 as KeyField>::SHAPE.text_rule(), TextRule::Digits(5)); // 65535
    /// assert_eq!(<String as KeyField>::SHAPE.text_rule(), TextRule::Str);
    /// assert_eq!(FieldShape::fixed(1).text_rule(), TextRule::None);
    /// ```
    pub const fn text_rule(self) -> TextRule {
        self.text
    }

    /// An integer of `len` bytes: `width` narrows it, `reverse` applies.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FieldShape};
    /// let shape = FieldShape::integer(4); // a u32
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), Some(4));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_width(3)), Some(3));
    /// assert!(shape.accepts_width(1) && shape.accepts_width(4) && !shape.accepts_width(5));
    /// assert!(shape.is_reversible());
    /// ```
    pub const fn integer(len: usize) -> Self {
        FieldShape {
            width: WidthRule::Narrow { max: len },
            reversible: true,
            ..FieldShape::fixed(len)
        }
    }

    /// Strings and bytes: variable, padded by `width`, reversible.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FieldShape, WidthRule};
    /// let shape = FieldShape::bytes();
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), None);
    /// assert_eq!(shape.max_len(FieldMode::INNER), None);
    /// assert_eq!(shape.fixed_len(FieldMode::INNER.with_width(16)), Some(16));
    /// assert_eq!(shape.width_rule(), WidthRule::Pad);
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::{FieldShape, KeyField};
    /// let shape = FieldShape::fixed(16);
    /// assert!(!shape.is_reversible());
    /// assert!(shape.reversible().is_reversible());
    /// assert_eq!(<[u8; 16] as KeyField>::SHAPE, shape.reversible()); // bytes reverse
    /// ```
    #[must_use]
    pub const fn reversible(self) -> Self {
        FieldShape {
            reversible: true,
            ..self
        }
    }

    /// A key whose fields add up to `fixed` and `max`, behind `prefix`.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FieldShape, Prefix, Salt, SaltHash};
    /// let salt = Salt::new(16, SaltHash::Md5).unwrap();
    /// // A u64 and a u32 (12 bytes) behind a one-byte salt.
    /// let shape = FieldShape::record(Some(12), Some(12), Prefix::Salt(salt));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), Some(13));
    /// assert_eq!(shape.prefix(), Prefix::Salt(salt));
    /// // A key ending in a string has neither a fixed length nor a bound.
    /// assert_eq!(FieldShape::record(None, None, Prefix::None).max_len(FieldMode::LAST), None);
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::{FieldShape, HashPrefix, KeyField, Prefix};
    /// assert_eq!(<u64 as KeyField>::SHAPE.prefix(), Prefix::None);
    /// let md5 = Prefix::Hash(HashPrefix::new(4).unwrap());
    /// assert_eq!(FieldShape::record(Some(8), Some(8), md5).prefix(), md5);
    /// ```
    pub const fn prefix(self) -> Prefix {
        self.prefix
    }

    /// `Option<T>` for a `T` of this shape: one tag byte in front.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, FieldShape, KeyField};
    /// let shape = FieldShape::integer(4).optional(); // Option<u32>: `00`, or `01` and 4 bytes
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), None);
    /// assert_eq!(shape.max_len(FieldMode::LAST), Some(5));
    /// assert_eq!(shape.max_len(FieldMode::LAST.with_width(2)), Some(3));
    /// assert_eq!(shape, <Option<u32> as KeyField>::SHAPE);
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::{FieldShape, KeyField, WidthRule};
    /// assert_eq!(<u64 as KeyField>::SHAPE.width_rule(), WidthRule::Narrow { max: 8 });
    /// assert_eq!(<Vec<u8> as KeyField>::SHAPE.width_rule(), WidthRule::Pad);
    /// assert_eq!(FieldShape::fixed(1).width_rule(), WidthRule::None);
    /// ```
    pub const fn width_rule(self) -> WidthRule {
        self.width
    }

    /// Whether `reverse` applies.
    ///
    /// ```
    /// use rowkey_core::KeyField;
    /// assert!(<u32 as KeyField>::SHAPE.is_reversible()); // its bytes reversed
    /// assert!(<str as KeyField>::SHAPE.is_reversible()); // its content reversed
    /// assert!(!<bool as KeyField>::SHAPE.is_reversible());
    /// ```
    pub const fn is_reversible(self) -> bool {
        self.reversible
    }

    /// Whether the type accepts `width = w`.
    ///
    /// ```
    /// use rowkey_core::KeyField;
    /// let shape = <u16 as KeyField>::SHAPE;
    /// assert!(shape.accepts_width(1) && shape.accepts_width(2));
    /// assert!(!shape.accepts_width(3)); // wider than the integer
    /// assert!(!shape.accepts_width(0));
    /// assert!(<str as KeyField>::SHAPE.accepts_width(100)); // padded
    /// assert!(!<bool as KeyField>::SHAPE.accepts_width(1));
    /// ```
    pub const fn accepts_width(self, w: usize) -> bool {
        match self.width {
            WidthRule::None => false,
            WidthRule::Narrow { max } => w >= 1 && w <= max,
            WidthRule::Pad => w >= 1,
        }
    }

    /// The length of every encoding in `mode`, when it is always the same.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let shape = <u32 as KeyField>::SHAPE;
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), Some(4));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_width(3)), Some(3));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_text(":")), Some(10)); // 4294967295
    /// assert_eq!(<str as KeyField>::SHAPE.fixed_len(FieldMode::LAST), None);
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// assert_eq!(<Option<u16> as KeyField>::SHAPE.max_len(FieldMode::LAST), Some(3)); // tag + 2
    /// assert_eq!(<str as KeyField>::SHAPE.max_len(FieldMode::INNER), None);
    /// assert_eq!(<str as KeyField>::SHAPE.max_len(FieldMode::INNER.with_width(8)), Some(8));
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// assert_eq!(<u64 as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(8));
    /// assert_eq!(<bool as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(1));
    /// assert_eq!(<char as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(4));
    /// assert!(<i32 as KeyField>::SHAPE.accepts_width(2));
    /// ```
    const SHAPE: FieldShape;

    /// The number of bytes [`encode`](KeyField::encode) writes in `mode`.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// // Last: the 3 bytes as they are. Inner: 61 00 FF 62 00 01.
    /// assert_eq!("a\0b".encoded_len(FieldMode::LAST), 3);
    /// assert_eq!("a\0b".encoded_len(FieldMode::INNER), 6);
    /// assert_eq!(Some(7u32).encoded_len(FieldMode::LAST), 5);
    /// assert_eq!(None::<u32>.encoded_len(FieldMode::LAST), 1);
    /// ```
    fn encoded_len(&self, mode: FieldMode) -> usize;

    /// Writes the field at the start of `out` and returns the number of bytes written.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// // ("a\0b", 7u8) is 61 00 FF 62 00 01 07: fields are written one after another.
    /// let mut key = [0u8; 7];
    /// let n = "a\0b".encode(&mut key, FieldMode::INNER)?;
    /// let m = 7u8.encode(&mut key[n..], FieldMode::LAST)?;
    /// assert_eq!((n, m), (6, 1));
    /// assert_eq!(key, [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01, 0x07]);
    /// // Signed integers flip the sign bit, so -1 sorts before 0.
    /// (-1i32).encode(&mut key, FieldMode::LAST)?;
    /// assert_eq!(key[..4], [0x7F, 0xFF, 0xFF, 0xFF]);
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError>;

    /// Feeds the field's *value bytes*, the input of salts and hash prefixes, to `sink`: the content
    /// of strings and bytes, and for other types their encoding in [`FieldMode::value_mode`]
    /// (numbers: fixed-width big-endian, narrowed to `width`, before `desc` or `reverse`).
    ///
    /// The provided implementation encodes into a 64-byte stack buffer; types whose value bytes can
    /// be longer override it.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField, ValueSink};
    /// struct Collect(Vec<u8>);
    /// impl ValueSink for Collect {
    ///     fn write(&mut self, bytes: &[u8]) { self.0.extend_from_slice(bytes) }
    /// }
    /// let mut src = Collect(Vec::new());
    /// 7u32.value_bytes(FieldMode::INNER.with_desc(), &mut src)?; // big-endian, before `desc`
    /// "ab".value_bytes(FieldMode::INNER, &mut src)?;             // the content, no terminator
    /// assert_eq!(src.0, [0, 0, 0, 7, b'a', b'b']);
    /// # Ok::<(), rowkey_core::EncodeError>(())
    /// ```
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

    /// For a value with no encoding of its own in `mode` that still falls among the values the field
    /// stores: writes the encoding of the stored value just below it, so that the value lies
    /// strictly between that one and the next. Scan planning turns a range bound `>= v` into
    /// `> stand-in` and `<= v` into `<= stand-in`, instead of planning nothing. `None` (the
    /// default) when there is no such value.
    ///
    /// Strings and bytes padded to `width`: content longer than the width, or ending in `00`
    /// (which reads back as padding), stands after the content cut to `width` with its trailing
    /// `00`s dropped. `Option`: a `Some` below every storable `Some` stands after `None`.
    ///
    /// ```
    /// use rowkey_core::{FieldMode, KeyField};
    /// let w3 = FieldMode::INNER.with_width(3);
    /// let mut out = [0u8; 8];
    /// // "abcdef" has no 3-byte encoding; every 3-byte content above "abc" is above it too.
    /// assert_eq!("abcdef".encode_stand_in(&mut out, w3), Some(3));
    /// assert_eq!(out[..3], *b"abc");
    /// assert_eq!("abc".encode_stand_in(&mut out, w3), None); // it has an encoding of its own
    /// ```
    fn encode_stand_in(&self, out: &mut [u8], mode: FieldMode) -> Option<usize> {
        let _ = (out, mode);
        None
    }

    /// For a value the field cannot store in `mode` (too wide for its `width`, or for a text
    /// number, negative or longer than its digits): whether it lies below (`Less`) or above
    /// (`Greater`) every value the field can store. Scan planning uses it to clamp a range bound
    /// such as `..=u64::MAX` on a narrowed integer instead of treating it as matching nothing.
    /// `None` (the default) when the value fits, or the type has no such order.
    ///
    /// ```
    /// use core::cmp::Ordering;
    /// use rowkey_core::{FieldMode, KeyField};
    /// let w2 = FieldMode::LAST.with_width(2);
    /// assert_eq!(70_000u32.beyond_width(w2), Some(Ordering::Greater));
    /// assert_eq!((-40_000i32).beyond_width(w2), Some(Ordering::Less));
    /// assert_eq!(7u32.beyond_width(w2), None);
    /// // A text number of 4 digits holds 0..=9999.
    /// let digits = FieldMode::LAST.with_text(":").with_width(4);
    /// assert_eq!(10_000u32.beyond_width(digits), Some(Ordering::Greater));
    /// assert_eq!((-1i64).beyond_width(FieldMode::LAST.with_text(":")), Some(Ordering::Less));
    /// ```
    fn beyond_width(&self, mode: FieldMode) -> Option<core::cmp::Ordering> {
        let _ = mode;
        None
    }
}

/// A type that can be read back from one field of a row key (the decoding half).
///
/// `'k` is the lifetime of the key bytes: `&'k str` and `Cow<'k, str>` borrow from them.
///
/// ```
/// use rowkey_core::{DecodeField, FieldMode};
/// // 61 00 FF 62 00 01 07: an escaped string that another field follows, then a u8.
/// let key = [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01, 0x07];
/// let (s, n) = String::decode(&key, FieldMode::INNER)?;
/// let (v, m) = u8::decode(&key[n..], FieldMode::LAST)?;
/// assert_eq!((s.as_str(), n, v, m), ("a\0b", 6, 7, 1));
/// # Ok::<(), rowkey_core::DecodeError>(())
/// ```
pub trait DecodeField<'k>: KeyField + Sized {
    /// Reads the field from the start of `input` and returns it with the number of bytes it took.
    ///
    /// ```
    /// use rowkey_core::{DecodeErrorKind, DecodeField, FieldMode};
    /// // The count tells the next field where to start.
    /// assert_eq!(u16::decode(&[0x01, 0x02, 0xFF], FieldMode::INNER)?, (0x0102, 2));
    /// // The raw content of a last field is borrowed from the key.
    /// assert_eq!(<&str>::decode(b"web-2", FieldMode::LAST)?, ("web-2", 5));
    /// let err = u32::decode(&[0x00, 0x01], FieldMode::LAST).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::Truncated { needed: 4, available: 2 });
    /// # Ok::<(), rowkey_core::DecodeError>(())
    /// ```
    fn decode(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError>;
}
