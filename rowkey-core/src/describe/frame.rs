//! What stands around a key's fields, as a key describes it: [`Frame`], asked by every walk
//! through a key (`walk/frame.rs` writes and reads what it says) and by the explainer. A derived
//! key's [`Layout`] is one; a schema's description of a key is another.

use crate::field::layout::Layout;
use crate::format::KeyFormat;
use crate::prefix::Prefix;
use crate::tag::Tag;

/// What a walk needs to know of a key around its fields: a derived key's [`Layout`], or a
/// schema's description of a key (or of an enum key's variant).
pub(crate) trait Frame {
    /// The key's name, for errors.
    fn key_name(&self) -> &'static str;
    /// The constant bytes before everything else.
    fn tag(&self) -> Tag;
    /// The prefix.
    fn prefix(&self) -> Prefix;
    /// The prefix's length.
    fn prefix_len(&self) -> usize {
        self.prefix().encoded_len()
    }
    /// The key's byte format.
    fn format(&self) -> KeyFormat;
    /// Whether the salt is computed from the key's bytes after it, not from its sources' values.
    fn whole_key_salt(&self) -> bool;
}

impl Frame for Layout {
    #[inline(always)]
    fn key_name(&self) -> &'static str {
        self.name
    }
    #[inline(always)]
    fn tag(&self) -> Tag {
        self.tag
    }
    #[inline(always)]
    fn prefix(&self) -> Prefix {
        self.prefix
    }
    #[inline(always)]
    fn format(&self) -> KeyFormat {
        self.format
    }
    #[inline(always)]
    fn whole_key_salt(&self) -> bool {
        self.whole_key_salt
    }
}
