//! Where and how a field sits in a key: [`FieldMode`], the one value every codec is written
//! against. The derive names each field's mode as a constant, so after inlining every mode check
//! folds away.

use crate::format::KeyFormat;
use crate::time::unit::TimeUnit;

/// Where and how a field is written: its declared `width`, `desc`, `reverse`, and whether another
/// field follows it (then variable-length content must be self-delimiting).
///
/// Built with const methods so the derive can name every field's mode as a constant:
///
/// ```
/// use rowkey::FieldMode;
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
    /// The key's byte format, chosen once per key: every field of a key is written in it.
    key_format: KeyFormat,
    unit: TimeUnit,
    /// A chrono time's `format` (strftime syntax), written instead of its count in text layouts.
    format: Option<&'static str>,
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
    /// Decoding checks neither the salt byte (even against the bucket count) nor a hash prefix:
    /// how `explain_best_effort` shows the fields of a key whose prefix is not theirs.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // explaining needs `alloc`
    Unchecked,
}

impl FieldMode {
    /// The last field of a key, ascending, natural width: variable-length content runs raw to the
    /// end of the key.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let mut buf = [0u8; 8];
    /// // Nothing follows: a string is its raw content, with no terminator.
    /// let n = "ab".encode(&mut buf, FieldMode::LAST)?;
    /// assert_eq!(&buf[..n], b"ab");
    /// assert!(!FieldMode::LAST.is_delimited());
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub const LAST: FieldMode = FieldMode {
        width: 0,
        desc: false,
        reverse: false,
        delimited: false,
        salt: SaltChoice::Computed,
        key_format: KeyFormat::Binary,
        unit: TimeUnit::Millis,
        format: None,
    };

    /// A field that other fields follow, ascending, natural width.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let mut buf = [0u8; 8];
    /// // Another field follows: `00` becomes `00 FF` and the content ends with `00 01`.
    /// let n = "a\0b".encode(&mut buf, FieldMode::INNER)?;
    /// assert_eq!(&buf[..n], [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01]);
    /// assert!(FieldMode::INNER.is_delimited());
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub const INNER: FieldMode = FieldMode {
        width: 0,
        desc: false,
        reverse: false,
        delimited: true,
        salt: SaltChoice::Computed,
        key_format: KeyFormat::Binary,
        unit: TimeUnit::Millis,
        format: None,
    };

    /// The same mode with a fixed `width` (`0` means the natural width).
    ///
    /// ```
    /// use rowkey::{EncodeErrorKind, FieldMode, KeyField};
    /// let two = FieldMode::LAST.with_width(2);
    /// let mut buf = [0u8; 4];
    /// assert_eq!(7u32.encode(&mut buf, two)?, 2);
    /// assert_eq!(&buf[..2], [0x00, 0x07]);
    /// // 0x1_0000 needs three bytes: an error, never truncated.
    /// let err = 0x1_0000u32.encode(&mut buf, two).unwrap_err();
    /// assert_eq!(err.kind(), EncodeErrorKind::TooWide { width: 2 });
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_width(self, width: usize) -> Self {
        FieldMode { width, ..self }
    }

    /// The same mode, descending.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let desc = FieldMode::LAST.with_desc();
    /// let (mut one, mut two) = ([0u8; 2], [0u8; 2]);
    /// 1u16.encode(&mut one, desc)?;
    /// 2u16.encode(&mut two, desc)?;
    /// assert_eq!(one, [0xFF, 0xFE]); // `00 01` with every byte inverted
    /// assert!(two < one);            // 2 sorts before 1
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_desc(self) -> Self {
        FieldMode { desc: true, ..self }
    }

    /// The same mode, stored reversed.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let mut buf = [0u8; 3];
    /// 0x0102u16.encode(&mut buf, FieldMode::LAST.with_reverse())?;
    /// assert_eq!(buf[..2], [0x02, 0x01]);
    /// let n = "abc".encode(&mut buf, FieldMode::LAST.with_reverse())?;
    /// assert_eq!(&buf[..n], b"cba");
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_reverse(self) -> Self {
        FieldMode {
            reverse: true,
            ..self
        }
    }

    /// The same mode, for a time field counted in `unit` (milliseconds unless the field says
    /// `unit = "..."`).
    ///
    /// ```
    /// use rowkey::{FieldMode, TimeUnit};
    /// assert_eq!(FieldMode::LAST.unit(), TimeUnit::Millis);
    /// assert_eq!(FieldMode::LAST.with_unit(TimeUnit::Micros).unit(), TimeUnit::Micros);
    /// ```
    #[inline]
    #[must_use]
    pub const fn with_unit(self, unit: TimeUnit) -> Self {
        FieldMode { unit, ..self }
    }

    /// The unit a time field counts in.
    #[inline]
    pub const fn unit(self) -> TimeUnit {
        self.unit
    }

    /// The same mode, for a chrono time written in text layouts as chrono formats it with `format`
    /// (strftime syntax), which must have one length for every time (the `format` attribute of the
    /// `rowkey` crate lists the specifiers).
    ///
    /// ```
    /// use rowkey::FieldMode;
    /// assert_eq!(FieldMode::LAST.with_format("%Y%m%d").format(), Some("%Y%m%d"));
    /// ```
    #[inline]
    #[must_use]
    pub const fn with_format(self, format: &'static str) -> Self {
        FieldMode {
            format: Some(format),
            ..self
        }
    }

    /// A chrono time's `format`, if the field has one.
    #[inline]
    pub const fn format(self) -> Option<&'static str> {
        self.format
    }

    /// The same mode in the text format, whose segments are joined by `delimiter`: how a
    /// `KeyField` of your own can be tried in a text layout (the fields of a
    /// `#[rowkey(text, delimiter = ":")]` key are written in such a mode).
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let text = FieldMode::LAST.with_text(":");
    /// let mut buf = [0u8; 10];
    /// // Zero-padded to the 10 digits of u32::MAX (4294967295), or to `width` digits.
    /// let n = 42u32.encode(&mut buf, text)?;
    /// assert_eq!(&buf[..n], b"0000000042");
    /// let n = 42u32.encode(&mut buf, text.with_width(4))?;
    /// assert_eq!(&buf[..n], b"0042");
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[must_use]
    pub const fn with_text(self, delimiter: &'static str) -> Self {
        FieldMode {
            key_format: KeyFormat::Text(delimiter),
            ..self
        }
    }

    /// The same mode in the byte format `key_format`: how a `KeyField` of your own can be tried
    /// in any format (the derive writes every field of a key in the key's format).
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField, KeyFormat};
    /// let mut buf = [0u8; 8];
    /// let n = (-1i32).encode(&mut buf, FieldMode::LAST.in_format(KeyFormat::Phoenix))?;
    /// assert_eq!(&buf[..n], [0x7F, 0xFF, 0xFF, 0xFF]); // Phoenix's INTEGER -1
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn in_format(self, key_format: KeyFormat) -> Self {
        FieldMode { key_format, ..self }
    }

    /// The key's byte format, which this field is written in.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyFormat};
    /// assert_eq!(FieldMode::INNER.key_format(), KeyFormat::Binary);
    /// assert_eq!(FieldMode::INNER.with_text("").key_format(), KeyFormat::Text(""));
    /// ```
    #[inline]
    pub const fn key_format(self) -> KeyFormat {
        self.key_format
    }

    /// Whether the field is written in the text format.
    ///
    /// ```
    /// use rowkey::FieldMode;
    /// assert!(FieldMode::LAST.with_text(":").is_text());
    /// assert!(FieldMode::LAST.with_text("").is_text()); // segments simply concatenated
    /// assert!(!FieldMode::LAST.is_text());
    /// ```
    #[inline]
    pub const fn is_text(self) -> bool {
        // A match here rather than a call: layouts evaluate this at compile time, where every
        // call is a frame of the interpreter (the same holds for the three below).
        matches!(self.key_format, KeyFormat::Text(_))
    }

    /// The text format's delimiter (empty in the binary format).
    ///
    /// ```
    /// use rowkey::FieldMode;
    /// assert_eq!(FieldMode::INNER.with_text(":").delimiter(), ":");
    /// assert_eq!(FieldMode::INNER.with_text("").delimiter(), "");
    /// assert_eq!(FieldMode::INNER.delimiter(), "");
    /// ```
    #[inline]
    pub const fn delimiter(self) -> &'static str {
        match self.key_format {
            KeyFormat::Text(d) => d,
            _ => "",
        }
    }

    /// For a salted key: write `bucket` as the salt byte instead of the computed one
    /// (`SaltedKey::encode_into_bucket`; generated code reaches it through `__private`).
    #[must_use]
    pub(crate) const fn with_chosen_bucket(self, bucket: u8) -> Self {
        FieldMode {
            salt: SaltChoice::Chosen(bucket),
            ..self
        }
    }

    /// For a salted key: accept any bucket below the bucket count when decoding
    /// (`decode_any_bucket`, for keys a writer salted into a bucket of its choice; a hash prefix
    /// goes unchecked too).
    #[must_use]
    pub(crate) const fn with_any_bucket(self) -> Self {
        FieldMode {
            salt: SaltChoice::Any,
            ..self
        }
    }

    /// For a salted or hash-prefixed key: decode without checking the prefix at all (a salt byte
    /// past the bucket count included), as `explain_best_effort` shows a key whose prefix is not
    /// its fields'.
    #[must_use]
    #[cfg(feature = "alloc")]
    pub(crate) const fn with_prefix_unchecked(self) -> Self {
        FieldMode {
            salt: SaltChoice::Unchecked,
            ..self
        }
    }

    /// Whether decoding leaves the prefix unchecked ([`FieldMode::with_prefix_unchecked`]).
    #[inline]
    pub(crate) const fn skips_prefix_check(self) -> bool {
        matches!(self.salt, SaltChoice::Unchecked)
    }

    /// The bucket the writer chose, if it chose one.
    #[inline]
    pub(crate) const fn chosen_bucket(self) -> Option<u8> {
        match self.salt {
            SaltChoice::Chosen(b) => Some(b),
            _ => None,
        }
    }

    /// Whether decoding accepts any bucket.
    #[inline]
    pub(crate) const fn accepts_any_bucket(self) -> bool {
        matches!(self.salt, SaltChoice::Any)
    }

    /// The mode in which a field's value bytes (the input of salts and hashes) are written: its
    /// width, ascending, not reversed, as the last field (strings and bytes: their content).
    /// A type that overrides [`KeyField::value_bytes`](crate::KeyField::value_bytes) (one whose
    /// value bytes can be longer than 64 bytes) writes its value bytes in this mode: the one
    /// public use of it outside the derive.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let stored = FieldMode::INNER.with_width(2).with_desc().with_reverse();
    /// assert_eq!(stored.value_mode(), FieldMode::LAST.with_width(2));
    /// let mut buf = [0u8; 2];
    /// 7u32.encode(&mut buf, stored.value_mode())?;
    /// assert_eq!(buf, [0x00, 0x07]); // big-endian in 2 bytes, before `desc` and `reverse`
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn value_mode(self) -> FieldMode {
        FieldMode {
            key_format: self.key_format,
            unit: self.unit,
            format: self.format,
            ..FieldMode::LAST.with_width(self.width)
        }
    }

    /// The declared width, if any.
    ///
    /// ```
    /// use rowkey::FieldMode;
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
    /// use rowkey::FieldMode;
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
    /// use rowkey::FieldMode;
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
    /// use rowkey::FieldMode;
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
    /// use rowkey::FieldMode;
    /// assert!(FieldMode::INNER.escapes());
    /// assert!(!FieldMode::LAST.escapes());                 // raw to the end of the key
    /// assert!(!FieldMode::INNER.with_width(8).escapes());  // padded to 8 bytes instead
    /// assert!(!FieldMode::INNER.with_text(":").escapes()); // the delimiter ends it
    /// ```
    #[inline]
    pub const fn escapes(self) -> bool {
        self.width == 0 && self.is_delimited() && matches!(self.key_format, KeyFormat::Binary)
    }

    /// The same mode in Apache Phoenix's bytes (`#[rowkey(phoenix)]`): the generated code's.
    #[inline]
    #[must_use]
    pub(crate) const fn with_phoenix(self) -> Self {
        FieldMode {
            key_format: KeyFormat::Phoenix,
            ..self
        }
    }

    /// Whether the field is written as Apache Phoenix writes its column (`#[rowkey(phoenix)]`):
    /// variable-length content bare, with the separators between columns written by the key
    /// around it, and numbers in Phoenix's encodings.
    #[inline]
    pub(crate) const fn is_phoenix(self) -> bool {
        matches!(self.key_format, KeyFormat::Phoenix)
    }

    /// The mode of a field declared with `inner` inside a nested key placed with `self`.
    ///
    /// Inverting a whole nested key inverts each of its fields, so `desc` composes by exclusive or;
    /// a nested key that is delimited or descending needs every field of it delimited.
    #[inline]
    #[must_use]
    pub(crate) const fn nest(self, inner: FieldMode) -> FieldMode {
        FieldMode {
            width: inner.width,
            desc: self.desc ^ inner.desc,
            reverse: inner.reverse,
            delimited: inner.delimited || self.delimited || self.desc,
            salt: SaltChoice::Computed,
            key_format: inner.key_format,
            unit: inner.unit,
            format: inner.format,
        }
    }

    /// The natural form of a field in this mode's format: last, ascending, natural width. The
    /// form a value's order is read from when `self` cannot store it.
    #[inline]
    pub(crate) const fn natural(self) -> FieldMode {
        FieldMode {
            key_format: self.key_format,
            unit: self.unit,
            format: self.format,
            ..FieldMode::LAST
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mode_accepts_any_bucket_until_a_bucket_is_chosen() {
        assert!(FieldMode::LAST.with_any_bucket().accepts_any_bucket());
        // Without it, the salt byte is checked.
        assert!(!FieldMode::LAST.accepts_any_bucket());
        // Choosing a bucket replaces accepting any: a mode has one salt choice.
        assert!(!FieldMode::LAST
            .with_any_bucket()
            .with_chosen_bucket(1)
            .accepts_any_bucket());
    }

    #[test]
    fn a_mode_that_skips_the_prefix_check_is_not_one_that_accepts_any_bucket() {
        let unchecked = FieldMode::LAST.with_prefix_unchecked();
        assert!(unchecked.skips_prefix_check() && !unchecked.accepts_any_bucket());
        assert!(!FieldMode::LAST.with_any_bucket().skips_prefix_check());
        assert!(!FieldMode::LAST.skips_prefix_check());
    }

    #[test]
    fn nesting_composes_desc_by_exclusive_or_and_delimits_inside_a_delimited_key() {
        // A `desc` field inside a nested key that is itself `desc`: the inversions cancel.
        let outer = FieldMode::INNER.with_desc();
        let field = outer.nest(FieldMode::LAST.with_desc());
        assert!(!field.is_desc());
        // The nested key is followed by more fields, so its last field must end itself.
        assert!(field.is_delimited());
        assert!(!FieldMode::LAST.nest(FieldMode::LAST).is_delimited());
    }
}
