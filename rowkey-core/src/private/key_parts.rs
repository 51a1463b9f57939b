//! `K::explain`: a stored key shown part by part, each part's bytes beside its value.

use crate::describe::explain::Explained;
use crate::prefix::Prefix;
use crate::tag::Tag;

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

/// `K::explain`: adds the prefix's bytes, showing what they are.
#[inline]
pub fn explain_prefix(explained: &mut Explained, prefix: Prefix, bytes: &[u8]) {
    explained.push_prefix(prefix, bytes);
}

/// `K::explain`: adds the tag's bytes (with the delimiter after it).
#[inline]
pub fn explain_tag(explained: &mut Explained, tag: Tag, key: &[u8]) {
    explained.push_tag(tag, key);
}
