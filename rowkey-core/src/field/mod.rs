//! A key is a sequence of fields, and every field type knows how to write itself in any position of a
//! key: as the last field or before others, ascending or `desc`, at its natural width or a declared one.
//!
//! [`KeyField`] and [`DecodeField`] are the extension point: implement them to key on your own types.
//! The derive wires each field to these traits with a constant [`FieldMode`]; after inlining, the
//! mode checks fold away and each field compiles to the straight-line code of its one position.

pub(crate) mod column_type;
pub(crate) mod layout;
pub(crate) mod mode;
pub(crate) mod no_range;
pub(crate) mod shape;

pub use mode::FieldMode;
pub use shape::{FieldShape, TextRule, WidthRule};
pub(crate) use shape::{Form, ValueKind};

use crate::error::{DecodeError, EncodeError, EncodeErrorKind};
use crate::format::{invert, strip_padding, NONE, PAD, SOME};
use crate::sink::ValueSink;
use layout::Layout;

/// A type that can be one field of a row key (the encoding half).
///
/// Implemented for integers, `bool`, `char`, floats, `[u8; N]`, strings, byte strings, `Option<T>`,
/// `uuid::Uuid` (feature `uuid`), and every type deriving `RowKey`. Implement it (with
/// [`DecodeField`]) to key on your own types; the simplest way is to delegate to a type that already
/// has the order you want:
///
/// ```
/// use rowkey::{DecodeError, DecodeField, EncodeError, FieldMode, FieldShape, KeyField};
///
/// /// Milliseconds since the epoch, keyed like an `i64`.
/// #[derive(Debug, PartialEq)]
/// struct Millis(i64);
///
/// impl KeyField for Millis {
///     const SHAPE: FieldShape = <i64 as KeyField>::SHAPE;
///     fn field_len(&self, mode: FieldMode) -> usize {
///         self.0.field_len(mode)
///     }
///     fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
///         self.0.encode(out, mode)
///     }
/// }
///
/// impl<'k> DecodeField<'k> for Millis {
///     fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
///         i64::decode_field(input, mode).map(|(v, n)| (Millis(v), n))
///     }
/// }
///
/// let mut buf = [0u8; 8];
/// let n = Millis(-1).encode(&mut buf, FieldMode::LAST)?;
/// assert_eq!(&buf[..n], &[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
/// assert_eq!(Millis::decode_field(&buf, FieldMode::LAST)?, (Millis(-1), 8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Scan planning asks three more questions of a field type, with answers the provided methods read
/// from `SHAPE`, so a type that copies a built-in type's `SHAPE` and delegates `encode` to it (as
/// above) plans exactly as that type does: which stored value stands in for a value with no
/// encoding (`encode_stand_in`), whether a value lies beyond every storable one (`beyond_width`),
/// and whether `encode` rounds (`stores_exactly`). They are hidden from these docs; a type whose
/// shape cannot tell (`FieldShape::fixed`) may leave them: a bound the planner cannot place is
/// dropped, and the plan is wider than the query (`is_exact()` false), never narrower. `matches()`
/// stays exactly the query when the type is `PartialOrd + DecodeField + Clone + Send + Sync +
/// 'static` with a `PartialOrd` that agrees with its bytes: it decodes the field and compares it
/// with the dropped bound. Without those it is as wide as the ranges.
///
/// The contract an implementation keeps: the bytes sort as the values do; `encode` writes exactly
/// `field_len(mode)` bytes and returns that count, or [`EncodeErrorKind::BufferTooSmall`]
/// (with any `needed`) when `out` is shorter; in a mode where [`FieldMode::is_delimited`] holds,
/// `decode` finds the end of the field from its own bytes; and nothing panics.
///
/// [`EncodeErrorKind::BufferTooSmall`]: crate::EncodeErrorKind::BufferTooSmall
pub trait KeyField {
    /// Length facts, and which attributes the type accepts.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField, WidthRule};
    /// assert_eq!(<u64 as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(8));
    /// assert_eq!(<bool as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(1));
    /// assert_eq!(<char as KeyField>::SHAPE.fixed_len(FieldMode::LAST), Some(4));
    /// assert_eq!(<i32 as KeyField>::SHAPE.width_rule(), WidthRule::Narrow { max: 4 });
    /// ```
    const SHAPE: FieldShape;

    /// The layout of a field type that is a key itself (a type deriving `RowKey`), so that a
    /// key's layout describes the nested key's segments too; `None` for the other types.
    #[doc(hidden)]
    const NESTED_LAYOUT: Option<&'static Layout> = None;

    /// The number of bytes [`encode`](KeyField::encode) writes in `mode`.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// // Last: the 3 bytes as they are. Inner: 61 00 FF 62 00 01.
    /// assert_eq!("a\0b".field_len(FieldMode::LAST), 3);
    /// assert_eq!("a\0b".field_len(FieldMode::INNER), 6);
    /// assert_eq!(Some(7u32).field_len(FieldMode::LAST), 5);
    /// assert_eq!(None::<u32>.field_len(FieldMode::LAST), 1);
    /// ```
    fn field_len(&self, mode: FieldMode) -> usize;

    /// Writes the field at the start of `out` and returns the number of bytes written.
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// // ("a\0b", 7u8) is 61 00 FF 62 00 01 07: fields are written one after another.
    /// let mut key = [0u8; 7];
    /// let n = "a\0b".encode(&mut key, FieldMode::INNER)?;
    /// let m = 7u8.encode(&mut key[n..], FieldMode::LAST)?;
    /// assert_eq!((n, m), (6, 1));
    /// assert_eq!(key, [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01, 0x07]);
    /// // Signed integers flip the sign bit, so -1 sorts before 0.
    /// (-1i32).encode(&mut key, FieldMode::LAST)?;
    /// assert_eq!(key[..4], [0x7F, 0xFF, 0xFF, 0xFF]);
    /// # Ok::<(), rowkey::EncodeError>(())
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
    /// use rowkey::{FieldMode, KeyField, ValueSink};
    /// struct Collect(Vec<u8>);
    /// impl ValueSink for Collect {
    ///     fn write(&mut self, bytes: &[u8]) { self.0.extend_from_slice(bytes) }
    /// }
    /// let mut src = Collect(Vec::new());
    /// 7u32.value_bytes(FieldMode::INNER.with_desc(), &mut src)?; // big-endian, before `desc`
    /// "ab".value_bytes(FieldMode::INNER, &mut src)?;             // the content, no terminator
    /// assert_eq!(src.0, [0, 0, 0, 7, b'a', b'b']);
    /// # Ok::<(), rowkey::EncodeError>(())
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

    #[doc(hidden)] // a scan planner hook: its contract is above, its defaults fit most types
    /// For a value with no encoding of its own in `mode` that still falls among the values the field
    /// stores: writes the encoding of the stored value just below it, so that the value lies
    /// strictly between that one and the next. Scan planning turns a range bound `>= v` into
    /// `> stand-in` and `<= v` into `<= stand-in`, instead of planning nothing. `None` when
    /// there is no such value.
    ///
    /// Strings and bytes padded to `width`: content longer than the width, or ending in `00`
    /// (which reads back as padding), stands after the content cut to `width` with its trailing
    /// `00`s dropped. `Option`: a `Some` below every storable `Some` stands after `None`.
    ///
    /// The provided implementation reads this from `Self::SHAPE` and the value's natural encoding
    /// (last, ascending, natural width), so an impl that copies another type's `SHAPE` and
    /// delegates `encode` to it inherits its answers with no code of its own. Override it only for
    /// a type whose shape cannot tell (such as [`FieldShape::fixed`]).
    ///
    /// ```
    /// use rowkey::{FieldMode, KeyField};
    /// let w3 = FieldMode::INNER.with_width(3);
    /// let mut out = [0u8; 8];
    /// // "abcdef" has no 3-byte encoding; every 3-byte content above "abc" is above it too.
    /// assert_eq!("abcdef".encode_stand_in(&mut out, w3), Some(3));
    /// assert_eq!(out[..3], *b"abc");
    /// assert_eq!("abc".encode_stand_in(&mut out, w3), None); // it has an encoding of its own
    /// ```
    fn encode_stand_in(&self, out: &mut [u8], mode: FieldMode) -> Option<usize> {
        stand_in_by_shape(self, out, mode)
    }

    #[doc(hidden)] // a scan planner hook: its contract is above, its defaults fit most types
    /// For a value the field cannot store in `mode` (too wide for its `width`, or for a text
    /// number, negative or longer than its digits): whether it lies below (`Less`) or above
    /// (`Greater`) every value the field can store. Scan planning uses it to clamp a range bound
    /// such as `..=u64::MAX` on a narrowed integer instead of treating it as matching nothing.
    /// `None` when the value fits, or the type has no such order.
    ///
    /// Like [`encode_stand_in`](KeyField::encode_stand_in), the provided implementation reads the
    /// answer from `Self::SHAPE` (a narrowed integer, signed or not; a text number), so a delegating
    /// impl inherits it. When neither method answers for a bound that cannot be encoded, the planner
    /// drops that bound: the plan is wider, not exact, and no row is lost.
    ///
    /// ```
    /// use core::cmp::Ordering;
    /// use rowkey::{FieldMode, KeyField};
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
        beyond_by_shape(self, mode)
    }

    #[doc(hidden)] // a scan planner hook: its contract is above, its defaults fit most types
    /// Whether `encode` writes the value as it is (`true`), or rounds it to a value the field
    /// stores (a time finer than the field's `unit`, truncated). Scan planning keeps a range
    /// exact over the stored values: a lower bound `>= v` that is rounded down becomes `> v`'s
    /// stored value, and an upper bound `< v` becomes `<=` it, so no stored value within the
    /// range is left out and none outside comes in. Equality binds the value as it is written.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use rowkey::{FieldMode, KeyField};
    /// let ms = FieldMode::LAST; // milliseconds
    /// assert!((UNIX_EPOCH + Duration::from_millis(1_500)).stores_exactly(ms));
    /// assert!(!(UNIX_EPOCH + Duration::from_micros(1_500_500)).stores_exactly(ms));
    /// assert!(7u32.stores_exactly(ms));
    /// ```
    fn stores_exactly(&self, mode: FieldMode) -> bool {
        let _ = mode;
        true
    }
}

/// A type that can be read back from one field of a row key (the decoding half).
///
/// `'k` is the lifetime of the key bytes: `&'k str` and `Cow<'k, str>` borrow from them.
///
/// ```
/// use rowkey::{DecodeField, FieldMode};
/// // 61 00 FF 62 00 01 07: an escaped string that another field follows, then a u8.
/// let key = [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01, 0x07];
/// let (s, n) = String::decode_field(&key, FieldMode::INNER)?;
/// let (v, m) = u8::decode_field(&key[n..], FieldMode::LAST)?;
/// assert_eq!((s.as_str(), n, v, m), ("a\0b", 6, 7, 1));
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
pub trait DecodeField<'k>: KeyField + Sized {
    /// Reads the field from the start of `input` and returns it with the number of bytes it took.
    ///
    /// ```
    /// use rowkey::{DecodeErrorKind, DecodeField, FieldMode};
    /// // The count tells the next field where to start.
    /// assert_eq!(u16::decode_field(&[0x01, 0x02, 0xFF], FieldMode::INNER)?, (0x0102, 2));
    /// // The raw content of a last field is borrowed from the key.
    /// assert_eq!(<&str>::decode_field(b"web-2", FieldMode::LAST)?, ("web-2", 5));
    /// let err = u32::decode_field(&[0x00, 0x01], FieldMode::LAST).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::Truncated { needed: 4, available: 2 });
    /// # Ok::<(), rowkey::DecodeError>(())
    /// ```
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError>;
}

// Where a value the field cannot store lies among the values it can, read from the type's
// `FieldShape` and the value's natural encoding: the defaults of the scan planner's hooks
// (`KeyField::beyond_width`, `KeyField::encode_stand_in`), which a delegating impl inherits with
// the shape it copies. Here, beside the trait, so that the shapes below never reach back up.

/// Where a value that `mode` cannot store lies among the values it can, read from the type's shape
/// and the value's natural encoding (ascending, natural width): the default of
/// [`KeyField::beyond_width`], which a delegating impl inherits with
/// the shape it copies.
pub(crate) fn beyond_by_shape<T: KeyField + ?Sized>(
    value: &T,
    mode: FieldMode,
) -> Option<core::cmp::Ordering> {
    use core::cmp::Ordering;
    let shape = T::SHAPE;
    let mut buf = [0u8; 64];
    match value.encode(&mut buf, mode) {
        Ok(_) => return None,
        Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => return None,
        Err(_) => {}
    }
    // The three formats' answers are here rather than in their folders: `field` stands below
    // the codecs (which name its shapes and modes), and this answers `KeyField::beyond_width`,
    // a public method with a type's own shape, not a format's.
    if mode.is_phoenix() {
        return column_type::beyond(value, mode);
    }
    let natural = value.encode(&mut buf, mode.natural());
    if mode.is_text() {
        // A text number that does not fit its digits has more of them, or is negative (which
        // has no natural text form at all).
        return match (shape.text_rule, shape.tags) {
            (TextRule::Digits(_), 0) => Some(match natural {
                Ok(_) => Ordering::Greater,
                Err(_) => Ordering::Less,
            }),
            _ => None,
        };
    }
    let WidthRule::Narrow { .. } = shape.width else {
        return None;
    };
    let inner = some_tags(&buf[..natural.ok()?], shape.tags)?;
    let below = shape.signed && inner.first().is_some_and(|&b| b < 0x80);
    match (below, shape.tags) {
        (false, _) => Some(Ordering::Greater),
        (true, 0) => Some(Ordering::Less),
        // A `Some` below every storable `Some` is still above `None`: not below everything.
        (true, _) => None,
    }
}

/// The stand-in of a value that `mode` cannot store (see
/// [`KeyField::encode_stand_in`]), read from the type's shape and
/// the value's natural encoding, written into `out`; `None` when there is none or `out` is short.
pub(crate) fn stand_in_by_shape<T: KeyField + ?Sized>(
    value: &T,
    out: &mut [u8],
    mode: FieldMode,
) -> Option<usize> {
    let shape = T::SHAPE;
    // Reversed fields give up their order (no ranges), and text strings are filtered by content.
    // (Asked here, not of the format, for the reason `beyond_by_shape` gives.)
    if mode.is_text() || mode.is_reverse() {
        return None;
    }
    match value.encode(out, mode) {
        Ok(_) => return None,
        Err(e) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => return None,
        Err(_) => {}
    }
    let natural = value.encode(out, mode.natural()).ok()?;
    let tags = shape.tags;
    some_tags(&out[..natural], tags)?;
    let len = match shape.width {
        // Below every storable `Some`: right after `None` (behind the outer `Some`s).
        WidthRule::Narrow { .. } if tags > 0 => {
            let below = shape.signed && out.get(tags).is_some_and(|&b| b < 0x80);
            if !below {
                return None;
            }
            out[tags - 1] = NONE;
            tags
        }
        // Padded content longer than the width, or ending in the padding byte, stands right
        // after the content cut to the width with its trailing padding dropped.
        WidthRule::Pad => {
            let width = mode.width()?;
            let end = tags + width;
            if out.len() < end {
                return None;
            }
            let cut = natural.min(end);
            let kept = tags + strip_padding(&out[tags..cut], PAD).len();
            out[kept..end].fill(PAD);
            end
        }
        _ => return None,
    };
    if mode.is_desc() {
        invert(&mut out[..len]);
    }
    Some(len)
}

/// The bytes after `tags` leading `Some` tags, or `None` when a tag is `None`.
fn some_tags(natural: &[u8], tags: usize) -> Option<&[u8]> {
    if natural.len() < tags {
        return None;
    }
    let (head, rest) = natural.split_at(tags);
    head.iter().all(|&t| t == SOME).then_some(rest)
}
