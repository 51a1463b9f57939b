//! A key's `Layout` and `Tag` as generated code builds them, in const context. The constructors
//! are the core's own (crate-private): what users see of a layout is what they read, never how
//! the derive puts it together.

use crate::field::layout::{Layout, Segment};
use crate::prefix::Prefix;
use crate::tag::Tag;

/// A `Layout` being built: `LayoutBuilder::new(name)`, then what the key has, then `build()`.
#[derive(Clone, Copy, Debug)]
pub struct LayoutBuilder(Layout);

impl LayoutBuilder {
    /// The layout of a binary key named `name` with nothing in it yet.
    pub const fn new(name: &'static str) -> Self {
        LayoutBuilder(Layout::new(name))
    }

    /// In the text format, segments joined by `delimiter`.
    pub const fn with_text(self, delimiter: &'static str) -> Self {
        LayoutBuilder(self.0.in_format(crate::KeyFormat::Text(delimiter)))
    }

    /// Behind `tag`.
    pub const fn with_tag(self, tag: Tag) -> Self {
        LayoutBuilder(self.0.with_tag(tag))
    }

    /// With the prefix component `prefix`, computed from the fields named `sources`.
    pub const fn with_prefix(self, prefix: Prefix, sources: &'static [&'static str]) -> Self {
        LayoutBuilder(self.0.with_prefix(prefix, sources))
    }

    /// With its salt computed from the whole key after it.
    pub const fn with_whole_key_salt(self) -> Self {
        LayoutBuilder(self.0.with_whole_key_salt())
    }

    /// As Apache Phoenix's primary key.
    pub const fn with_phoenix(self) -> Self {
        LayoutBuilder(self.0.in_format(crate::KeyFormat::Phoenix))
    }

    /// With its fields (last: the fixed length is computed from them and what stands before).
    pub const fn with_segments(self, segments: &'static [Segment]) -> Self {
        LayoutBuilder(self.0.with_segments(segments))
    }

    /// Every key `len` bytes long (`None`: keys of varying length).
    pub const fn with_fixed_len(self, len: Option<usize>) -> Self {
        LayoutBuilder(self.0.with_fixed_len(len))
    }

    /// An enum key of `variants`.
    pub const fn with_variants(self, variants: &'static [Layout]) -> Self {
        LayoutBuilder(self.0.with_variants(variants))
    }

    /// The layout.
    pub const fn build(self) -> Layout {
        self.0
    }
}

/// The tag `bytes`, followed in the key by `delimiter`.
pub const fn tag(bytes: &'static [u8], delimiter: &'static str) -> Tag {
    Tag::new(bytes, delimiter)
}
