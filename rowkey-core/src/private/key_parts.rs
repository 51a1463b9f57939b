//! `K::explain`: a stored key shown part by part, each part's bytes beside its value.

use crate::codec::columns;
use crate::describe::explain::Explained;
use crate::field::layout::Layout;
use crate::field::{FieldMode, KeyField};

/// A field to show in `explain`: a time as a date, other types by `Debug` when they have it, a
/// placeholder otherwise. Chosen by method resolution on `(&&Show(&v)).show(mode)`: `ShowTime`
/// takes `&&Show` itself, `ShowDebug` is found one dereference later (`&Show`), `ShowOpaque` one
/// more (`Show`, copied).
#[allow(missing_debug_implementations)] // a probe of method resolution, never shown
pub struct Show<'a, T: ?Sized>(pub &'a T);

impl<T: ?Sized> Clone for Show<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Show<'_, T> {}

/// A decoded field as `explain` shows it: its value, and what places its bytes in the key (its
/// length in its mode, and whether Phoenix ends it with a separator). Taken from the field as it
/// is shown, so that `explain` walks the key once rather than once more over a tuple of fields.
#[allow(missing_debug_implementations)] // handed from generated code to `explain_record` only
pub struct Shown {
    value: alloc::string::String,
    len: usize,
    variable: bool,
}

impl Shown {
    fn of<T: KeyField + ?Sized>(value: alloc::string::String, field: &T, mode: FieldMode) -> Shown {
        Shown {
            value,
            len: field.field_len(mode),
            variable: columns::variable::<T>(mode),
        }
    }
}

/// `Show` for `SystemTime`, whose `Debug` is the platform's seconds and nanoseconds: the date, RFC
/// 3339 in UTC, as the schema and the `rowkey` command show it.
pub trait ShowTime {
    fn show(&self, mode: FieldMode) -> Shown;
}

#[cfg(feature = "std")]
impl ShowTime for &Show<'_, std::time::SystemTime> {
    fn show(&self, mode: FieldMode) -> Shown {
        let shown = crate::time::rfc3339::Rfc3339::of(*self.0);
        Shown::of(alloc::format!("{shown:?}"), self.0, mode)
    }
}

#[cfg(feature = "std")]
impl ShowTime for &Show<'_, Option<std::time::SystemTime>> {
    fn show(&self, mode: FieldMode) -> Shown {
        let shown = self.0.map(crate::time::rfc3339::Rfc3339::of);
        Shown::of(alloc::format!("{shown:?}"), self.0, mode)
    }
}

/// `Show` for types with `Debug`.
pub trait ShowDebug {
    fn show(&self, mode: FieldMode) -> Shown;
}

impl<T: core::fmt::Debug + KeyField + ?Sized> ShowDebug for Show<'_, T> {
    fn show(&self, mode: FieldMode) -> Shown {
        Shown::of(alloc::format!("{:?}", self.0), self.0, mode)
    }
}

/// `Show` for types without `Debug`.
pub trait ShowOpaque {
    fn show(self, mode: FieldMode) -> Shown;
}

impl<T: KeyField + ?Sized> ShowOpaque for Show<'_, T> {
    fn show(self, mode: FieldMode) -> Shown {
        Shown::of(alloc::string::String::from("(no Debug)"), self.0, mode)
    }
}

/// `K::explain` of a fieldless enum key `name`: one segment, the variant's bytes, beside its value.
pub fn explain_value(name: &'static str, key: &[u8], shown: Shown) -> Explained {
    let mut explained = Explained::new(name, key);
    let bytes = key.get(..shown.len).unwrap_or(key);
    explained.push(name, bytes, shown.value);
    explained
}

/// `K::explain`: the explanation of `key`, a key of `layout` whose decoded fields are `shown`
/// (each shown in its segment's mode): its tag, its prefix, then each field's bytes beside its
/// value, found as the key walk writes them: after the text delimiter before it, or after
/// Phoenix's separators held back (a NULL column has no bytes). One call per key.
pub fn explain_record<const N: usize>(
    layout: &'static Layout,
    key: &[u8],
    shown: [Shown; N],
) -> Explained {
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
    let mut columns = columns::Columns::default();
    for (i, field) in shown.into_iter().enumerate() {
        let mode = layout.segments[i].encoding.mode();
        let start = if !columns::plain(layout.format) {
            match field.len {
                0 => at,
                _ => at.saturating_add(columns.held_len()),
            }
        } else {
            let delimiter = layout.delimiter_before(i).map_or(0, str::len);
            at.saturating_add(delimiter)
        };
        if field.len > 0 || columns::plain(layout.format) {
            at = start.saturating_add(field.len);
        }
        columns.after(at, field.len, field.variable, mode);
        let bytes = key
            .get(start..start.saturating_add(field.len))
            .unwrap_or_default();
        explained.push(layout.segments[i].name, bytes, field.value);
    }
    explained
}
