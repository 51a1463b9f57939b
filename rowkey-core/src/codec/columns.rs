//! What stands between the fields of a key is the format's to say ([`Format`]'s column methods,
//! which a derived key's walk calls on the format its key names): the binary and text formats
//! write a field as it writes itself ([`Format::PLAIN_COLUMNS`]; the text delimiter is the
//! layout's, written by the walk), Apache Phoenix's adds its separators and leaves trailing
//! NULLs out (`phoenix/columns.rs`). [`Columns`] is what a walk keeps between two fields for the
//! format to read; [`plain`] tells the walks that learn a key's format at run time (a schema's,
//! the explainer's) whether it keeps any.

use super::{with_format, Format};
use crate::format::KeyFormat;

pub(crate) use super::phoenix::columns::Columns;

/// Whether a field of a key in `format` is written as it writes itself.
#[inline(always)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // the explainer and schemas need `alloc`
pub(crate) const fn plain(format: KeyFormat) -> bool {
    with_format!(format, F => F::PLAIN_COLUMNS)
}
