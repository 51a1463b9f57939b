//! A key's layout built and shown: the const steps that build `K::LAYOUT` (`#[derive(RowKey)]`
//! generates it), its segments' offsets, and its `Display`, a table to paste into docs or to hand
//! to the team that writes the same key from Java or Python. The layout as data is
//! `field/layout.rs`.

use core::fmt;

use crate::codec::{with_format, Format};
use crate::field::layout::{Layout, Order, Segment};
use crate::format::KeyFormat;
use crate::prefix::{HashPrefix, Prefix, Salt};
use crate::tag::Tag;
use crate::words::Count;

impl Layout {
    /// The layout of a binary key named `name` with nothing in it yet: no tag, prefix, segment
    /// or variant, and no fixed length. The `with_` methods fill it in, in const context.
    pub(crate) const fn new(name: &'static str) -> Layout {
        Layout {
            name,
            format: KeyFormat::Binary,
            tag: Tag::NONE,
            prefix: Prefix::None,
            prefix_sources: &[],
            whole_key_salt: false,
            segments: &[],
            fixed_len: None,
            variants: &[],
            source_mask: 0,
        }
    }

    /// The same layout in the byte format `format`.
    #[must_use]
    pub(crate) const fn in_format(self, format: KeyFormat) -> Layout {
        Layout { format, ..self }
    }

    /// The same layout behind `tag`.
    #[must_use]
    pub(crate) const fn with_tag(self, tag: Tag) -> Layout {
        Layout { tag, ..self }
    }

    /// The same layout behind `prefix`, computed from the fields named in `sources`.
    #[must_use]
    pub(crate) const fn with_prefix(
        self,
        prefix: Prefix,
        sources: &'static [&'static str],
    ) -> Layout {
        Layout {
            prefix,
            prefix_sources: sources,
            source_mask: source_mask(sources, self.segments),
            ..self
        }
    }

    /// The same layout with its salt computed from the whole key after it.
    #[must_use]
    pub(crate) const fn with_whole_key_salt(self) -> Layout {
        Layout {
            whole_key_salt: true,
            ..self
        }
    }

    /// The same layout with these segments, and its fixed length from them (set the tag, the
    /// prefix and the text format first).
    #[must_use]
    pub(crate) const fn with_segments(self, segments: &'static [Segment]) -> Layout {
        let layout = Layout {
            segments,
            source_mask: source_mask(self.prefix_sources, segments),
            ..self
        };
        Layout {
            fixed_len: layout.fields_len(false),
            ..layout
        }
    }

    /// The length of every key, or (`max`) an upper bound of it: the bytes around the fields
    /// and each field's, `None` when one varies (or has no bound). Of a key's fields alone: an
    /// enum key's variants give their own.
    pub(crate) const fn sum_len(&self, max: bool) -> Option<usize> {
        if !self.variants.is_empty() {
            return self.variants_len(max);
        }
        if self.segments.is_empty() {
            // A layout without segments says its length itself (a variant with no fields, whose
            // `with_segments` set it; a hand-written `RowKey`'s), or nothing.
            return self.fixed_len;
        }
        self.fields_len(max)
    }

    /// [`sum_len`](Self::sum_len) of the segments and what stands around them.
    const fn fields_len(&self, max: bool) -> Option<usize> {
        let mut len = self.around_fields();
        let mut i = 0;
        while i < self.segments.len() {
            let e = self.segments[i].encoding;
            let n = if max {
                e.shape().max_len(e.mode())
            } else {
                e.shape().fixed_len(e.mode())
            };
            len = match n {
                Some(n) => match len.checked_add(n) {
                    Some(len) => len,
                    None => return None,
                },
                None => return None,
            };
            i += 1;
        }
        Some(len)
    }

    /// [`sum_len`](Self::sum_len) of an enum key: the length all its variants share, or the
    /// longest bound.
    const fn variants_len(&self, max: bool) -> Option<usize> {
        let mut len: Option<usize> = None;
        let mut i = 0;
        while i < self.variants.len() {
            let n = match self.variants[i].sum_len(max) {
                Some(n) => n,
                None => return None,
            };
            len = match len {
                None => Some(n),
                Some(l) if max => Some(if n > l { n } else { l }),
                Some(l) if l == n => Some(l),
                Some(_) => return None,
            };
            i += 1;
        }
        len
    }

    /// The bytes every key starts with before a field of varying length (the last field aside):
    /// the tag, the prefix, and each leading fixed field with the delimiter after it. The encoder
    /// checks the buffer for these once, so the leading fields' own checks fold away. A fixed
    /// layout checks its whole length instead: its head is what comes before the fields.
    pub(crate) const fn head_len(&self) -> usize {
        let mut at = self.tag.encoded_len() + self.prefix.encoded_len();
        let mut i = 0;
        while i < self.segments.len() {
            if let Some(d) = self.delimiter_before(i) {
                at += d.len();
            }
            if self.fixed_len.is_some() || i + 1 == self.segments.len() {
                return at;
            }
            match self.segments[i].len {
                Some(n) => at += n,
                None => return at,
            }
            i += 1;
        }
        at
    }

    /// The bytes of the keys around their fields: the tag, the prefix and the delimiters.
    #[inline(always)]
    pub(crate) const fn around_fields(&self) -> usize {
        let mut len = self.tag.encoded_len() + self.prefix.encoded_len();
        let mut i = 0;
        while i < self.segments.len() {
            if let Some(d) = self.delimiter_before(i) {
                len += d.len();
            }
            i += 1;
        }
        len
    }

    /// Whether the field of segment `i` is a source of the prefix.
    #[inline(always)]
    pub(crate) const fn is_source(&self, i: usize) -> bool {
        i < 128 && self.source_mask & (1 << i) != 0
    }

    /// The text delimiter written before segment `i` (the first comes after a prefix): the one
    /// home of the delimiter rule, for every walk through a key.
    #[inline(always)]
    pub(crate) const fn delimiter_before(&self, i: usize) -> Option<&'static str> {
        delimiter_before(self.format.text(), self.prefix.encoded_len(), i)
    }

    /// The same layout, every key `len` bytes long (`None`: keys of varying length).
    #[must_use]
    pub(crate) const fn with_fixed_len(self, len: Option<usize>) -> Layout {
        Layout {
            fixed_len: len,
            ..self
        }
    }

    /// The same layout as an enum key with these variants.
    #[must_use]
    pub(crate) const fn with_variants(self, variants: &'static [Layout]) -> Layout {
        let layout = Layout { variants, ..self };
        Layout {
            fixed_len: layout.sum_len(false),
            ..layout
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.variants.is_empty() {
            return self.fmt_variants(f);
        }
        self.fmt_heading(f)?;
        self.fmt_tag_row(f)?;
        self.fmt_prefix_row(f)?;
        self.fmt_segment_rows(f)
    }
}

/// The parts of a layout's table, in the order `Display` writes them.
impl Layout {
    /// An enum's layout: one line for the enum, then each variant's table.
    fn fmt_variants(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "`{}` row key: one of {}, told apart by their tags",
            self.name,
            Count(self.variants.len(), "variant")
        )?;
        for variant in self.variants {
            writeln!(f)?;
            fmt::Display::fmt(variant, f)?;
        }
        Ok(())
    }

    /// The line that names the key, its format and length, then the table's header.
    fn fmt_heading(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` row key (", self.name)?;
        let delimiter = self.format.delimiter();
        with_format!(self.format, F => F::describe_key(delimiter, f))?;
        match self.fixed_len {
            Some(n) => writeln!(f, ", always {})", Count(n, "byte"))?,
            None => writeln!(f, ", variable length)")?,
        }
        writeln!(
            f,
            "| # | segment | type | offset | bytes | encoding | order |"
        )?;
        writeln!(f, "|---|---|---|---|---|---|---|")
    }

    /// The tag's row, when the key has a tag.
    fn fmt_tag_row(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tag.is_none() {
            return Ok(());
        }
        writeln!(
            f,
            "| tag | tag | constant | 0 | {} | {} | - |",
            self.tag.encoded_len(),
            TagBytes(self.tag)
        )
    }

    /// The prefix's row, when the key has a prefix.
    fn fmt_prefix_row(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix {
            Prefix::None => Ok(()),
            Prefix::Salt(salt) => self.fmt_salt_row(f, salt),
            Prefix::Hash(hash) => self.fmt_hash_row(f, hash),
        }
    }

    /// The row of the hash prefix `hash`.
    fn fmt_hash_row(&self, f: &mut fmt::Formatter<'_>, hash: HashPrefix) -> fmt::Result {
        let sources = Sources(self.prefix_sources);
        let form = with_format!(self.format, F => F::HASH_WORDS);
        writeln!(
            f,
            "| prefix | hash | md5 | {} | {} | {form} md5(src), src = {sources} | - |",
            self.tag.encoded_len(),
            hash.prefix_len()
        )
    }

    /// The row of the salt prefix `salt`.
    fn fmt_salt_row(&self, f: &mut fmt::Formatter<'_>, salt: Salt) -> fmt::Result {
        let sources = Sources(self.prefix_sources);
        let hash = salt.hash().formula();
        let form = with_format!(self.format, F => F::SALT_WORDS);
        if self.whole_key_salt {
            writeln!(
                f,
                "| prefix | salt | bucket | {} | {} | {form}: {hash}, N = {}, src = the key after the salt ({sources}) | - |",
                self.tag.encoded_len(),
                salt.encoded_len(),
                salt.buckets()
            )
        } else {
            writeln!(
                f,
                "| prefix | salt | bucket | {} | {} | {form}: {hash}, N = {}, src = {sources} | - |",
                self.tag.encoded_len(),
                salt.encoded_len(),
                salt.buckets()
            )
        }
    }

    /// A row for each segment.
    fn fmt_segment_rows(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.segments.iter().enumerate() {
            let order = match s.order {
                Order::Ascending => "asc",
                Order::Descending => "desc",
                Order::Reversed => "reversed",
            };
            writeln!(
                f,
                "| {i} | {} | `{}` | {} | {} | {} | {order} |",
                s.name,
                s.ty,
                Opt(s.offset, "after the previous segment"),
                Opt(s.len, "variable"),
                s.encoding
            )?;
        }
        Ok(())
    }
}

/// A tag's bytes in hex, with its text when it reads as text, and the delimiter after it.
struct TagBytes(Tag);

impl fmt::Display for TagBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the bytes")?;
        for b in self.0.bytes() {
            write!(f, " {b:02X}")?;
        }
        if let Ok(text) = core::str::from_utf8(self.0.bytes()) {
            if text.chars().all(|c| c.is_ascii_graphic()) {
                write!(f, " ({text:?})")?;
            }
        }
        if !self.0.delimiter().is_empty() {
            write!(f, ", then the delimiter")?;
        }
        Ok(())
    }
}

struct Opt(Option<usize>, &'static str);

impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) => write!(f, "{n}"),
            None => f.write_str(self.1),
        }
    }
}

struct Sources(&'static [&'static str]);

impl fmt::Display for Sources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            f.write_str(s)?;
        }
        Ok(())
    }
}

/// The bits of the segments named in `sources`.
const fn source_mask(sources: &[&str], segments: &[Segment]) -> u128 {
    let mut mask = 0;
    let mut i = 0;
    while i < segments.len() && i < 128 {
        let mut s = 0;
        while s < sources.len() {
            if str_eq(sources[s], segments[i].name) {
                mask |= 1 << i;
            }
            s += 1;
        }
        i += 1;
    }
    mask
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The text delimiter written before field `i` of a key in the text format `text` (`None` in
/// every other format) behind a prefix of `prefix_len` bytes: between two fields, and after a
/// prefix. The one home of the rule, for
/// the key walk of derived keys and the schema's alike.
#[inline(always)]
pub(crate) const fn delimiter_before(
    text: Option<&'static str>,
    prefix_len: usize,
    i: usize,
) -> Option<&'static str> {
    // Layouts evaluate this at compile time, where every call is a frame of the interpreter: a
    // binary key (no delimiter) asks nothing of a string.
    match text {
        Some(d) if !d.is_empty() && (i > 0 || prefix_len > 0) => Some(d),
        _ => None,
    }
}

/// The offset of the segment after one at `at` of length `len` and the `delimiter` after it:
/// `None` once a length varies.
pub(crate) const fn offset_after(
    at: Option<usize>,
    len: Option<usize>,
    delimiter: usize,
) -> Option<usize> {
    match (at, len) {
        (Some(a), Some(n)) => match a.checked_add(n) {
            Some(end) => end.checked_add(delimiter),
            None => None,
        },
        _ => None,
    }
}
