//! What a field type is, known when the program compiles: [`FieldShape`], its lengths and which
//! attributes it accepts. The derive checks a layout against its fields' shapes, and the scan
//! planner reads from a shape where a bound the field cannot store lies among the values it can.

mod form;
mod value_kind;

pub(crate) use form::Form;
pub(crate) use value_kind::ValueKind;

use super::mode::FieldMode;
use crate::prefix::Prefix;
use crate::time::strftime::Takes;

/// Which `width` a field type accepts.
///
/// ```
/// use rowkey::{KeyField, WidthRule};
/// assert_eq!(<u32 as KeyField>::SHAPE.width_rule(), WidthRule::Narrow { max: 4 });
/// assert_eq!(<str as KeyField>::SHAPE.width_rule(), WidthRule::Pad);
/// assert_eq!(<bool as KeyField>::SHAPE.width_rule(), WidthRule::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
/// use rowkey::{FieldMode, FieldShape, KeyField};
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
    pub(super) width: WidthRule,
    reversible: bool,
    /// A custom type (`fixed`) that says it inverts its own bytes under `desc`.
    inverts: bool,
    pub(super) tags: usize,
    /// An integer whose encoding flips the sign bit: zero sits in the middle of its bytes.
    pub(super) signed: bool,
    /// Which codec family writes it, for describing its encoding.
    form: Form,
    prefix: Prefix,
    pub(super) text_rule: TextRule,
    /// Which chrono `format`s the type takes.
    formats: Takes,
    /// Which Rust type the bytes hold, where the codec family leaves it open.
    value: ValueKind,
}

/// How a field type is written in the text format.
///
/// ```
/// use rowkey::{KeyField, TextRule};
/// assert_eq!(<u8 as KeyField>::SHAPE.text_rule(), TextRule::Digits(3)); // 255
/// assert_eq!(<i64 as KeyField>::SHAPE.text_rule(), TextRule::Digits(19)); // 9223372036854775807
/// assert_eq!(<str as KeyField>::SHAPE.text_rule(), TextRule::Str);
/// assert_eq!(<f64 as KeyField>::SHAPE.text_rule(), TextRule::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextRule {
    /// Not in text layouts.
    None,
    /// Zero-padded decimal of this many digits (an integer's MAX), or `width` digits.
    Digits(usize),
    /// A string: its content, or padded with spaces to `width`.
    Str,
    /// Exactly this many characters that sort as the value does (a digest in hex).
    Chars(usize),
}

impl TextRule {
    /// The most digits a text number can have: those of `u128::MAX`.
    pub const MAX_DIGITS: usize = crate::num::MAX_DIGITS;
}

impl FieldShape {
    /// Always `len` bytes; no `width`, no `reverse` (bool, char, enums).
    ///
    /// ```
    /// use rowkey::{FieldMode, FieldShape, KeyField, WidthRule};
    /// let shape = FieldShape::fixed(4);
    /// assert_eq!(shape.fixed_len(FieldMode::INNER), Some(4));
    /// assert_eq!(shape.width_rule(), WidthRule::None);
    /// // A char is 4 bytes too (and described as one in `LAYOUT`).
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), <char as KeyField>::SHAPE.fixed_len(FieldMode::LAST));
    /// ```
    pub const fn fixed(len: usize) -> Self {
        FieldShape {
            fixed: Some(len),
            max: Some(len),
            width: WidthRule::None,
            reversible: false,
            inverts: false,
            tags: 0,
            signed: false,
            form: Form::Custom,
            prefix: Prefix::None,
            text_rule: TextRule::None,
            formats: Takes::Nothing,
            value: ValueKind::Plain,
        }
    }

    /// The same shape, written in text layouts as `digits` zero-padded decimal digits.
    ///
    /// ```
    /// use rowkey::{FieldMode, FieldShape, TextRule};
    /// let shape = FieldShape::integer(2).with_text_digits(5); // a u16: 65535 has 5 digits
    /// assert_eq!(shape.text_rule(), TextRule::Digits(5));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_text(":")), Some(5));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), Some(2));
    /// ```
    #[must_use]
    pub const fn with_text_digits(self, digits: usize) -> Self {
        FieldShape {
            text_rule: TextRule::Digits(digits),
            ..self
        }
    }

    /// The same shape, written in text layouts as exactly `len` characters that sort as the value
    /// does (as a digest's lowercase hex does).
    ///
    /// ```
    /// use rowkey::{FieldMode, FieldShape, TextRule};
    /// let shape = FieldShape::fixed(4).with_text_chars(8); // 4 bytes, 8 hex digits
    /// assert_eq!(shape.text_rule(), TextRule::Chars(8));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_text(":")), Some(8));
    /// ```
    #[must_use]
    pub const fn with_text_chars(self, len: usize) -> Self {
        FieldShape {
            text_rule: TextRule::Chars(len),
            ..self
        }
    }

    /// The same shape, for a time type that takes the chrono `format`s `takes` names.
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    pub(crate) const fn with_formats(self, takes: Takes) -> Self {
        FieldShape {
            formats: takes,
            ..self
        }
    }

    /// Whether the type can be written with the chrono `format` `fmt` (strftime syntax) and read
    /// back: chrono's types, with a fixed-length format that keeps what they need. The derive's
    /// check of `format = ".."`, through the hidden module.
    pub(crate) const fn accepts_format(self, fmt: &str) -> bool {
        crate::time::strftime::fits(fmt, self.formats)
    }

    /// Whether the type is a time, counted in the field's `unit`: what tools reading a layout
    /// (the key lab's advice on time-first keys) ask of a segment's shape.
    ///
    /// ```
    /// use rowkey::KeyField;
    /// assert!(<std::time::SystemTime as KeyField>::SHAPE.is_time());
    /// assert!(!<u64 as KeyField>::SHAPE.is_time());
    /// ```
    pub const fn is_time(self) -> bool {
        matches!(self.form, Form::Time)
    }

    /// How the type is written in text layouts.
    ///
    /// ```
    /// use rowkey::{FieldShape, KeyField, TextRule};
    /// assert_eq!(<u16 as KeyField>::SHAPE.text_rule(), TextRule::Digits(5)); // 65535
    /// assert_eq!(<String as KeyField>::SHAPE.text_rule(), TextRule::Str);
    /// assert_eq!(FieldShape::fixed(1).text_rule(), TextRule::None);
    /// ```
    pub const fn text_rule(self) -> TextRule {
        self.text_rule
    }

    /// An integer of `len` bytes: `width` narrows it, `reverse` applies.
    ///
    /// ```
    /// use rowkey::{FieldMode, FieldShape, WidthRule};
    /// let shape = FieldShape::integer(4); // a u32
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), Some(4));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_width(3)), Some(3));
    /// assert_eq!(shape.width_rule(), WidthRule::Narrow { max: 4 }); // `width` 1..=4
    /// ```
    pub const fn integer(len: usize) -> Self {
        FieldShape {
            form: Form::Int,
            width: WidthRule::Narrow { max: len },
            reversible: true,
            ..FieldShape::fixed(len)
        }
    }

    /// A signed integer of `len` bytes (two's complement with the sign bit flipped): as
    /// [`integer`](FieldShape::integer), and the scan planner knows that a value too wide for a
    /// narrowed `width` lies below every storable one when it is negative.
    ///
    /// ```
    /// use core::cmp::Ordering;
    /// use rowkey::{FieldMode, FieldShape, KeyField};
    /// assert_eq!(<i32 as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(4));
    /// assert_eq!(FieldShape::signed_integer(4).width_rule(), FieldShape::integer(4).width_rule());
    /// assert_eq!((-70_000i32).beyond_width(FieldMode::LAST.with_width(2)), Some(Ordering::Less));
    /// ```
    pub const fn signed_integer(len: usize) -> Self {
        FieldShape {
            signed: true,
            ..FieldShape::integer(len)
        }
    }

    /// Strings and bytes: variable, padded by `width`, reversible.
    ///
    /// ```
    /// use rowkey::{FieldMode, FieldShape, WidthRule};
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
            inverts: false,
            tags: 0,
            signed: false,
            form: Form::Content,
            prefix: Prefix::None,
            text_rule: TextRule::Str,
            formats: Takes::Nothing,
            value: ValueKind::Plain,
        }
    }

    /// The same shape, with `reverse` allowed: `#[rowkey(reverse)]` on a field of the type compiles
    /// (without it, the derive refuses `reverse` on the field).
    ///
    /// ```
    /// use rowkey::{DecodeError, DecodeField, EncodeError, FieldMode, FieldShape, KeyField, RowKey};
    ///
    /// /// A 16-byte id whose bytes may be stored reversed.
    /// struct Id([u8; 16]);
    /// impl KeyField for Id {
    ///     const SHAPE: FieldShape = FieldShape::fixed(16).reversible();
    ///     fn field_len(&self, mode: FieldMode) -> usize { self.0.field_len(mode) }
    ///     fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
    ///         self.0.encode(out, mode)
    ///     }
    /// }
    /// impl<'de> DecodeField<'de> for Id {
    ///     fn decode_field(input: &'de [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
    ///         <[u8; 16]>::decode_field(input, mode).map(|(b, n)| (Id(b), n))
    ///     }
    /// }
    ///
    /// #[derive(RowKey)]
    /// struct Row {
    ///     #[rowkey(reverse)]
    ///     id: Id,
    /// }
    /// ```
    #[must_use]
    pub const fn reversible(self) -> Self {
        FieldShape {
            reversible: true,
            ..self
        }
    }

    /// A value that ends itself (its bytes say where it stops), of at most `max` bytes: no width,
    /// no reverse, no text form (`rust_decimal::Decimal`).
    #[cfg(feature = "decimal")]
    pub(crate) const fn self_delimiting(max: usize, form: Form) -> Self {
        FieldShape {
            fixed: None,
            max: Some(max),
            width: WidthRule::None,
            reversible: false,
            inverts: false,
            tags: 0,
            signed: false,
            form,
            prefix: Prefix::None,
            text_rule: TextRule::None,
            formats: Takes::Nothing,
            value: ValueKind::Plain,
        }
    }

    /// A key whose fields add up to `fixed` and `max`, behind `prefix`.
    pub(crate) const fn record(fixed: Option<usize>, max: Option<usize>, prefix: Prefix) -> Self {
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
            inverts: false,
            tags: 0,
            signed: false,
            form: Form::Record,
            prefix,
            text_rule: TextRule::None,
            formats: Takes::Nothing,
            value: ValueKind::Plain,
        }
    }

    /// The key's prefix component (only keys have one; it cannot be nested).
    ///
    /// ```
    /// use rowkey::{HashPrefix, KeyField, Prefix, RowKey};
    /// assert_eq!(<u64 as KeyField>::SHAPE.prefix(), Prefix::None);
    /// #[derive(RowKey)]
    /// struct Page { #[rowkey(hash_prefix(len = 4))] url: String }
    /// let md5 = Prefix::Hash(HashPrefix::new(4).unwrap());
    /// assert_eq!(<Page as KeyField>::SHAPE.prefix(), md5);
    /// ```
    pub const fn prefix(self) -> Prefix {
        self.prefix
    }

    /// `Option<T>` for a `T` of this shape: one tag byte in front.
    ///
    /// ```
    /// use rowkey::{FieldMode, FieldShape, KeyField};
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
            signed: self.signed,
            form: self.form,
            inverts: self.inverts,
            prefix: self.prefix,
            text_rule: TextRule::None,
            // A `format` is text, and text layouts take no `Option`.
            formats: Takes::Nothing,
            value: self.value,
        }
    }

    /// The same custom shape, for a type whose `encode` and `decode_field` honour
    /// [`FieldMode::is_desc`] themselves: under `desc` they write and read every byte inverted,
    /// so the field sorts descending. Without it, `#[rowkey(desc)]` on the type does not compile:
    /// a `fixed` shape says nothing about the mode, and a type that ignored it would sort
    /// ascending while `LAYOUT` said descending, and scans would plan ranges that hold nothing.
    /// (A type that copies a built-in type's `SHAPE` and delegates to it needs nothing: the
    /// built-in type honours the mode.)
    ///
    /// (`#[rowkey(desc)]` on a field of a `fixed` shape without it is a compile error that says so.)
    #[must_use]
    pub const fn inverts_under_desc(self) -> Self {
        FieldShape {
            inverts: true,
            ..self
        }
    }

    /// Whether `#[rowkey(desc)]` applies to the type: built-in types, and custom ones whose shape
    /// says [`inverts_under_desc`](FieldShape::inverts_under_desc). The derive's check, through
    /// the hidden module.
    pub(crate) const fn accepts_desc(self) -> bool {
        self.inverts || !matches!(self.form, Form::Custom)
    }

    /// The same shape, holding values of the Rust type `value`.
    pub(crate) const fn with_value(self, value: ValueKind) -> Self {
        FieldShape { value, ..self }
    }

    pub(crate) const fn value(self) -> ValueKind {
        self.value
    }

    /// The same shape, described as codec family `form`.
    pub(crate) const fn with_form(self, form: Form) -> Self {
        FieldShape { form, ..self }
    }

    pub(crate) const fn form(self) -> Form {
        self.form
    }

    pub(crate) const fn is_signed(self) -> bool {
        self.signed
    }

    pub(crate) const fn tags(self) -> usize {
        self.tags
    }

    #[cfg(feature = "lock")]
    /// The natural length of every encoding (no `width`, binary), when it is fixed.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) const fn natural_len(self) -> Option<usize> {
        self.fixed
    }

    #[cfg(feature = "lock")]
    /// The longest encoding at the natural width, binary, when there is a longest.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) const fn natural_max(self) -> Option<usize> {
        self.max
    }

    #[cfg(feature = "lock")]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) const fn inverts(self) -> bool {
        self.inverts
    }

    /// Which `width` the type accepts.
    ///
    /// ```
    /// use rowkey::{FieldShape, KeyField, WidthRule};
    /// assert_eq!(<u64 as KeyField>::SHAPE.width_rule(), WidthRule::Narrow { max: 8 });
    /// assert_eq!(<Vec<u8> as KeyField>::SHAPE.width_rule(), WidthRule::Pad);
    /// assert_eq!(FieldShape::fixed(1).width_rule(), WidthRule::None);
    /// ```
    pub const fn width_rule(self) -> WidthRule {
        self.width
    }

    /// Whether `reverse` applies. The derive's check, through the hidden module.
    pub(crate) const fn is_reversible(self) -> bool {
        self.reversible
    }

    /// Whether the type accepts `width = w`. The derive's check, through the hidden module.
    pub(crate) const fn accepts_width(self, w: usize) -> bool {
        match self.width {
            WidthRule::None => false,
            WidthRule::Narrow { max } => w >= 1 && w <= max,
            WidthRule::Pad => w >= 1,
        }
    }

    /// The length of every encoding in `mode`, when it is always the same.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let shape = <u32 as KeyField>::SHAPE;
    /// assert_eq!(shape.fixed_len(FieldMode::LAST), Some(4));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_width(3)), Some(3));
    /// assert_eq!(shape.fixed_len(FieldMode::LAST.with_text(":")), Some(10)); // 4294967295
    /// assert_eq!(<str as KeyField>::SHAPE.fixed_len(FieldMode::LAST), None);
    /// ```
    pub const fn fixed_len(self, mode: FieldMode) -> Option<usize> {
        // Branches on the format rather than asking it: a const fn (layouts evaluate lengths
        // at compile time, where a trait's method cannot be called), and `field` stands below
        // the codecs that hold the formats' rules.
        if let Some(len) = self.phoenix_time_len(mode) {
            return Some(len);
        }
        if let (Some(format), false) = (mode.format(), matches!(self.formats, Takes::Nothing)) {
            return Some(crate::time::strftime::len_of(format));
        }
        if mode.is_text() {
            return match (self.text_rule, mode.width()) {
                (TextRule::Digits(_) | TextRule::Str, Some(w)) => Some(w),
                (TextRule::Digits(d), None) => Some(d),
                (TextRule::Chars(n), _) => Some(n),
                _ => None,
            };
        }
        match mode.width() {
            Some(w) if self.tags == 0 => Some(w),
            Some(_) => None,
            None => self.fixed,
        }
    }

    /// A time in a Phoenix layout: `TIMESTAMP` (`unit = "ns"`) takes 12 bytes, the rest 8.
    const fn phoenix_time_len(self, mode: FieldMode) -> Option<usize> {
        if !mode.is_phoenix() || !matches!(self.form, Form::Time) {
            return None;
        }
        Some(mode.unit().phoenix_len())
    }

    /// An upper bound of the encoded length in `mode`, when there is one.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// assert_eq!(<Option<u16> as KeyField>::SHAPE.max_len(FieldMode::LAST), Some(3)); // tag + 2
    /// assert_eq!(<str as KeyField>::SHAPE.max_len(FieldMode::INNER), None);
    /// assert_eq!(<str as KeyField>::SHAPE.max_len(FieldMode::INNER.with_width(8)), Some(8));
    /// ```
    pub const fn max_len(self, mode: FieldMode) -> Option<usize> {
        if let Some(len) = self.phoenix_time_len(mode) {
            return Some(len);
        }
        if mode.is_text() {
            return self.fixed_len(mode);
        }
        match mode.width() {
            Some(w) => w.checked_add(self.tags),
            None => self.max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::FieldMode;
    use crate::prefix::{HashPrefix, Salt, SaltHash};

    #[test]
    fn a_records_shape_is_its_fields_behind_its_prefix() {
        let salt = Salt::new(16, SaltHash::Md5).unwrap();
        // A u64 and a u32 (12 bytes) behind a one-byte salt.
        let shape = FieldShape::record(Some(12), Some(12), Prefix::Salt(salt));
        assert_eq!(shape.fixed_len(FieldMode::LAST), Some(13));
        assert_eq!(shape.prefix(), Prefix::Salt(salt));
        let md5 = Prefix::Hash(HashPrefix::new(4).unwrap());
        assert_eq!(FieldShape::record(Some(8), Some(8), md5).prefix(), md5);
        // A key ending in a string has neither a fixed length nor a bound.
        let open = FieldShape::record(None, None, Prefix::None);
        assert_eq!(open.max_len(FieldMode::LAST), None);
    }

    #[test]
    fn each_type_takes_the_attributes_its_shape_says() {
        use crate::field::KeyField;
        let u16_shape = <u16 as KeyField>::SHAPE;
        assert!(u16_shape.accepts_width(1) && u16_shape.accepts_width(2));
        assert!(!u16_shape.accepts_width(3)); // wider than the integer
        assert!(!u16_shape.accepts_width(0));
        assert!(<str as KeyField>::SHAPE.accepts_width(100)); // padded
        assert!(!<bool as KeyField>::SHAPE.accepts_width(1));
        assert!(<u32 as KeyField>::SHAPE.is_reversible()); // its bytes reversed
        assert!(<str as KeyField>::SHAPE.is_reversible()); // its content reversed
        assert!(!<bool as KeyField>::SHAPE.is_reversible());
        assert!(<i64 as KeyField>::SHAPE.accepts_desc());
        assert!(!FieldShape::fixed(4).accepts_desc()); // a custom type that does not say it inverts
        assert!(FieldShape::fixed(4).inverts_under_desc().accepts_desc());
        assert!(!FieldShape::fixed(16).is_reversible());
        assert!(FieldShape::fixed(16).reversible().is_reversible());
        assert!(<[u8; 16] as KeyField>::SHAPE.is_reversible()); // bytes reverse
        let u32_shape = FieldShape::integer(4);
        assert!(u32_shape.accepts_width(1) && u32_shape.accepts_width(4));
        assert!(!u32_shape.accepts_width(5) && u32_shape.is_reversible());
        #[cfg(feature = "std")]
        assert!(!<std::time::SystemTime as KeyField>::SHAPE.accepts_format("%y%m%d"));
        #[cfg(feature = "chrono")]
        {
            assert!(<chrono::NaiveDate as KeyField>::SHAPE.accepts_format("%y%m%d"));
            assert!(!<chrono::NaiveDate as KeyField>::SHAPE.accepts_format("%H%M"));
        }
    }
}
