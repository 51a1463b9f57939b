//! Text segments whose bytes do not sort as their content: a string that other segments follow
//! (its content can hold bytes below the delimiter) or one padded with spaces. A plan over such a
//! segment covers every key with the bound fields before it, and reads the segment's content to
//! decide each key: a filter, so the plan is not exact.

use core::ops::Bound;

use super::bound::EncodedRange;
use super::keybuf::KeyBuf;
use crate::codec::text::delimit::{find, runs_into};
use crate::field::{FieldMode, KeyField, TextRule};
use crate::format::{strip_padding as strip, TEXT_PAD};
use crate::sink::ValueSink;

/// A condition on a text segment's content.
#[derive(Clone)]
pub(crate) enum TextFilter {
    Range(Bound<KeyBuf>, Bound<KeyBuf>),
    Prefix(KeyBuf),
}

impl TextFilter {
    /// The filter of a range on a string segment, from its bounds' content.
    pub(crate) fn range<T: KeyField + ?Sized>(
        start: Bound<&T>,
        end: Bound<&T>,
        mode: FieldMode,
    ) -> TextFilter {
        let content = |b: Bound<&T>| -> Bound<KeyBuf> {
            match b {
                Bound::Included(v) => Bound::Included(content_of(v, mode)),
                Bound::Excluded(v) => Bound::Excluded(content_of(v, mode)),
                Bound::Unbounded => Bound::Unbounded,
            }
        };
        TextFilter::Range(content(start), content(end))
    }

    pub(crate) fn accepts(&self, content: &[u8]) -> bool {
        match self {
            TextFilter::Prefix(p) => content.starts_with(p.as_slice()),
            TextFilter::Range(lo, hi) => {
                (match lo {
                    Bound::Included(l) => content >= l.as_slice(),
                    Bound::Excluded(l) => content > l.as_slice(),
                    Bound::Unbounded => true,
                }) && (match hi {
                    Bound::Included(h) => content <= h.as_slice(),
                    Bound::Excluded(h) => content < h.as_slice(),
                    Bound::Unbounded => true,
                })
            }
        }
    }
}

/// Whether a text segment's bytes fail to sort as its value: a string that other segments follow
/// or one padded with spaces.
pub(crate) fn segment_unordered<T: KeyField + ?Sized>(mode: FieldMode) -> bool {
    mode.is_text()
        && matches!(T::SHAPE.text_rule(), TextRule::Str)
        && (mode.is_delimited() || mode.width().is_some())
}

/// The content of the text segment at the start of `rest`: its `width` bytes without their
/// padding, or everything up to the delimiter.
pub(crate) fn segment_content<'k>(
    rest: &'k [u8],
    width: Option<usize>,
    delimiter: &str,
) -> &'k [u8] {
    match width {
        Some(w) => strip(rest.get(..w).unwrap_or(rest), TEXT_PAD),
        None => &rest[..find(rest, delimiter.as_bytes()).unwrap_or(rest.len())],
    }
}

/// The content bytes of a string bound (its value bytes).
fn content_of<T: KeyField + ?Sized>(v: &T, mode: FieldMode) -> KeyBuf {
    struct Collect(KeyBuf);
    impl ValueSink for Collect {
        fn write(&mut self, bytes: &[u8]) {
            self.0.extend(bytes);
        }
    }
    let mut c = Collect(KeyBuf::new());
    let _ = v.value_bytes(mode, &mut c);
    c.0
}

/// What "content starts with `prefix`" on a text string segment asks of a plan.
pub(crate) enum TextPrefix {
    /// Nothing can match (the prefix holds the delimiter, or is longer than the width).
    Nothing,
    /// The segment's bytes start with the prefix.
    Range(EncodedRange),
    /// The segment's bytes may start with the prefix when its content does not (padding spaces,
    /// or the delimiter after a shorter content): the filter reads the content (of the segment's
    /// width, or up to the delimiter).
    Filter(TextFilter, Option<usize>),
}

/// "Content starts with `prefix`" on a text string segment placed with `mode`.
pub(crate) fn prefix_of_segment(prefix: &[u8], mode: FieldMode) -> TextPrefix {
    let delimiter = mode.delimiter().as_bytes();
    let delimited = mode.is_delimited() && !delimiter.is_empty();
    if delimited && find(prefix, delimiter).is_some() {
        return TextPrefix::Nothing;
    }
    match mode.width() {
        // A shorter content, then the start of the delimiter, has bytes that start with the
        // prefix too: the filter reads the content.
        None if delimited && runs_into(prefix, delimiter) => {
            TextPrefix::Filter(TextFilter::Prefix(KeyBuf::from_slice(prefix)), None)
        }
        Some(w) if prefix.len() > w => TextPrefix::Nothing,
        Some(w) if prefix.last() == Some(&TEXT_PAD) => {
            TextPrefix::Filter(TextFilter::Prefix(KeyBuf::from_slice(prefix)), Some(w))
        }
        _ => TextPrefix::Range(EncodedRange::starting_with(prefix)),
    }
}
