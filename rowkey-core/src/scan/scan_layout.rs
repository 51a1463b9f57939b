//! The facts of a layout that planning needs, named by generated code as one constant.

use crate::prefix::Prefix;
use crate::tag::Tag;

/// What the generated builder knows of a layout, for planning: its prefix component, which
/// fields feed it, whether every key has one length, and the text delimiter. A protocol item of
/// generated code (reached through `rowkey::__private`), not a public API.
#[derive(Clone, Copy, Debug)]
pub struct ScanLayout {
    pub(crate) prefix: Prefix,
    /// Per field in key order: whether it is a source of the prefix.
    pub(crate) sources: &'static [bool],
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
    /// A layout of `sources.len()` fields behind `prefix`; `whole_key` for a whole-key salt;
    /// `fixed` when every key has the same length.
    pub const fn new(
        prefix: Prefix,
        sources: &'static [bool],
        whole_key: bool,
        fixed: bool,
    ) -> Self {
        ScanLayout {
            prefix,
            sources,
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
        self.sources.len()
    }
}
