//! The facts of a layout that planning needs, named by generated code as one constant: read off
//! the key's [`Layout`], so that they have one home.

use crate::field::layout::Layout;
use crate::prefix::Prefix;
use crate::tag::Tag;

/// What the generated builder knows of a layout, for planning: its prefix component, which
/// fields feed it, whether every key has one length, and the text delimiter. A protocol item of
/// generated code (reached through `rowkey::__private`), not a public API.
#[derive(Clone, Copy, Debug)]
pub struct ScanLayout {
    pub(crate) prefix: Prefix,
    /// Bit `i`: whether field `i` is a source of the prefix (a key has at most 128 fields).
    sources: u128,
    /// How many fields.
    fields: usize,
    /// Whether the prefix is a whole-key salt (every field is a source).
    pub(crate) whole_key: bool,
    /// Whether every key has the same length: then nothing extends a complete key, and the key
    /// after it is its increment (`01 05` -> `01 06`) rather than its successor (`01 05 00`).
    pub(crate) fixed: bool,
    /// The delimiter of a text layout.
    pub(crate) text: Option<&'static str>,
    /// The tag before everything else: plans are made for the key after it, and the tag put
    /// in front of their ranges.
    pub(crate) tag: Tag,
}

impl ScanLayout {
    /// The planning facts of `layout`: a derived key's, or a variant's of an enum key.
    pub const fn of(layout: &Layout) -> Self {
        ScanLayout {
            prefix: layout.prefix,
            sources: layout.source_mask,
            fields: layout.segments.len(),
            whole_key: layout.whole_key_salt,
            fixed: layout.fixed_len.is_some(),
            text: layout.format.text(),
            tag: layout.tag,
        }
    }

    /// A layout of `sources.len()` fields behind `prefix` (at most 128; a source past them is
    /// refused by the caller), `sources[i]` when field `i` feeds it; `whole_key` for a whole-key
    /// salt; `fixed` when every key has the same length.
    pub const fn new(prefix: Prefix, sources: &[bool], whole_key: bool, fixed: bool) -> Self {
        let mut mask = 0u128;
        let mut i = 0;
        while i < sources.len() && i < 128 {
            if sources[i] {
                mask |= 1 << i;
            }
            i += 1;
        }
        ScanLayout {
            prefix,
            sources: mask,
            fields: sources.len(),
            whole_key,
            fixed,
            text: None,
            tag: Tag::NONE,
        }
    }

    /// The same layout behind `tag`.
    #[must_use]
    pub const fn with_tag(self, tag: Tag) -> Self {
        ScanLayout { tag, ..self }
    }

    /// The same layout in the text format with `delimiter`.
    #[must_use]
    pub const fn in_text(self, delimiter: &'static str) -> Self {
        ScanLayout {
            text: Some(delimiter),
            ..self
        }
    }

    pub(crate) fn delimiter(&self) -> &'static str {
        self.text.unwrap_or_default()
    }

    /// The bytes of the prefix component in a key, with the text delimiter that follows it.
    pub(crate) fn prefix_len(&self) -> usize {
        match self.prefix.encoded_len() {
            0 => 0,
            n => n + self.delimiter().len(),
        }
    }

    pub(crate) fn fields(&self) -> usize {
        self.fields
    }

    /// Whether field `i` feeds the prefix.
    pub(crate) fn is_source(&self, i: usize) -> bool {
        i < 128 && self.sources & (1 << i) != 0
    }

    /// Whether any field from `i` on feeds the prefix.
    pub(crate) fn has_source_from(&self, i: usize) -> bool {
        i < 128 && self.sources >> i != 0
    }
}
