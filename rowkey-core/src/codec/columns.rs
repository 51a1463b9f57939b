//! What stands between the fields of a key is the format's to say ([`Format`]'s column methods,
//! which a derived key's walk calls on the format its key names): the binary and text formats
//! write a field as it writes itself ([`Format::PLAIN_COLUMNS`]; the text delimiter is the
//! layout's, written by the walk), Apache Phoenix's adds its separators and leaves trailing
//! NULLs out (`phoenix/columns.rs`). [`Columns`] is what a walk keeps between two fields for the
//! format to read; [`plain`] tells the walks that learn a key's format at run time (a schema's,
//! the explainer's) whether it keeps any, and [`variable`] whether a field's length varies, which
//! they record for the format's `Format::after_read`.

use super::{with_format, Format};
use crate::format::KeyFormat;

pub(crate) use super::phoenix::columns::Columns;
#[cfg(feature = "alloc")]
pub(crate) use super::phoenix::columns::{variable, Held};

/// For scan planning, what stands after a bound field of type `T` that wrote `len` bytes in
/// `mode`, and what a key that ends there leaves out: its format's [`Format::plan_separator`].
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn plan_separator<T: crate::field::KeyField + ?Sized>(
    len: usize,
    mode: crate::field::FieldMode,
) -> (Option<u8>, Held) {
    with_format!(mode.key_format(), F => F::plan_separator::<T>(len, mode))
}

/// Whether a field of a key in `format` is written as it writes itself.
#[inline(always)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // the explainer and schemas need `alloc`
pub(crate) const fn plain(format: KeyFormat) -> bool {
    with_format!(format, F => F::PLAIN_COLUMNS)
}
