//! `K::explain`: a stored key shown part by part, each part's bytes beside its value.

use crate::describe::explain::Explained;
use crate::describe::layout::Layout;
use crate::field::KeyField;
use crate::walk::{phoenix, Fields, Visit};

/// A value to show in `explain`: `Debug` when the type has it, a placeholder otherwise (chosen by
/// method resolution: `(&Show(&v)).show()` finds `ShowDebug` first, then `ShowOpaque` by autoref).
#[allow(missing_debug_implementations)] // a probe of method resolution, never shown
pub struct Show<'a, T: ?Sized>(pub &'a T);

/// `Show` for types with `Debug`.
pub trait ShowDebug {
    fn show(&self) -> alloc::string::String;
}

impl<T: core::fmt::Debug + ?Sized> ShowDebug for Show<'_, T> {
    fn show(&self) -> alloc::string::String {
        alloc::format!("{:?}", self.0)
    }
}

/// `Show` for types without `Debug`.
pub trait ShowOpaque {
    fn show(&self) -> alloc::string::String;
}

impl<T: ?Sized> ShowOpaque for &Show<'_, T> {
    fn show(&self) -> alloc::string::String {
        alloc::string::String::from("(no Debug)")
    }
}

/// `K::explain`: the explanation of `key`, a key of `name`, with no segment yet.
#[inline]
pub fn explain_start(name: &'static str, key: &[u8]) -> Explained {
    Explained::new(name, key)
}

/// `K::explain`: adds each field's segment, `(name, length, value shown)`, in key order: the
/// first at `at` (after the tag, the prefix and its delimiter), each after the one before and a
/// delimiter of `delimiter` bytes. One call per key, so an `explain` costs the compiler little.
pub fn explain_segments<const N: usize>(
    explained: &mut Explained,
    key: &[u8],
    mut at: usize,
    delimiter: usize,
    segments: [(&'static str, usize, alloc::string::String); N],
) {
    for (segment, len, value) in segments {
        let bytes = key.get(at..at.saturating_add(len)).unwrap_or_default();
        explained.push(segment, bytes, value);
        at = at.saturating_add(len).saturating_add(delimiter);
    }
}

/// `K::explain`: the explanation of `key`, a key of `layout` whose decoded fields are `fields`,
/// each shown as `shown` says: its tag, its prefix, then each field's bytes (the key walk's
/// delimiters between them) beside its value. One call per key.
pub fn explain_record<F: Fields, const N: usize>(
    layout: &'static Layout,
    key: &[u8],
    fields: &F,
    shown: [alloc::string::String; N],
) -> Explained {
    /// Where each field's bytes lie, found as the walk writes them: after the text delimiter
    /// before it, or after Phoenix's separators held back (a NULL column has no bytes).
    struct Spans<const N: usize> {
        layout: &'static Layout,
        at: usize,
        columns: phoenix::Columns,
        spans: [(usize, usize); N],
    }
    impl<const N: usize> Visit for Spans<N> {
        type Error = core::convert::Infallible;
        fn field<T: KeyField + ?Sized>(&mut self, i: usize, value: &T) -> Result<(), Self::Error> {
            let mode = self.layout.segments[i].encoding.mode();
            let len = value.field_len(mode);
            let start = if self.layout.phoenix {
                match len {
                    0 => self.at,
                    _ => self.at.saturating_add(self.columns.held_len()),
                }
            } else {
                let delimiter = self.layout.delimiter_before(i).map_or(0, str::len);
                self.at.saturating_add(delimiter)
            };
            if len > 0 || !self.layout.phoenix {
                self.at = start.saturating_add(len);
            }
            self.columns
                .after(self.at, len, phoenix::variable::<T>(mode), mode);
            if let Some(span) = self.spans.get_mut(i) {
                *span = (start, len);
            }
            Ok(())
        }
    }
    let mut explained = Explained::new(layout.name, key);
    if !layout.tag.is_none() {
        explained.push_tag(layout.tag, key);
    }
    let mut at = layout.tag.encoded_len();
    let prefix = layout.prefix.encoded_len();
    if prefix > 0 {
        let bytes = key.get(at..at.saturating_add(prefix)).unwrap_or_default();
        explained.push_prefix(layout.prefix, bytes);
        at += prefix;
    }
    let mut spans = Spans {
        layout,
        at,
        columns: phoenix::Columns::default(),
        spans: [(0, 0); N],
    };
    let Ok(()) = fields.visit(0, &mut spans);
    for (i, ((start, len), value)) in spans.spans.into_iter().zip(shown).enumerate() {
        let bytes = key
            .get(start..start.saturating_add(len))
            .unwrap_or_default();
        explained.push(layout.segments[i].name, bytes, value);
    }
    explained
}
