//! What stands between the fields of a key is the format's to say ([`Format`]'s column methods):
//! the binary and text formats write a field as it writes itself (the text delimiter is the
//! layout's, written by the walk), Apache Phoenix's adds its separators and leaves trailing
//! NULLs out (`phoenix/columns.rs`). [`Columns`] is what a walk keeps between two fields for the
//! format to read: Phoenix's separators held back; nothing the other formats look at.

pub(crate) use super::phoenix::columns::Columns;
#[cfg(doc)]
use super::Format;
