//! A key type as the layout lock holds it: its layout as owned data (every segment's codec facts,
//! nested layouts and enum variants in full), its row limit and its samples' bytes. Built from
//! `K::LAYOUT` on one side and read from a lock file on the other, so the two compare field by
//! field; written out as the file's schema lines.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::field::layout::{Layout, Order, Segment};
use crate::field::{Form, TextRule, ValueKind};
pub(crate) use crate::format::LockedFormat;
use crate::prefix::Prefix;
use crate::time::unit::TimeUnit;
use crate::words::Count;

/// The format version this rowkey writes, and the newest it reads. Format 2 adds what a schema
/// needs to read values as the type that wrote them: `over=key|fields` on a salt (a whole-key
/// salt, or one over the named fields) and `value=` on a segment (text or bytes, a UUID, which
/// time type). Files of format 1 still read; those two facts are then unknown.
pub(crate) const VERSION: u32 = 2;

/// The first word of a lock file, before its version.
pub(crate) const MAGIC: &str = "rowkey-lock";

/// A key type pinned by a lock: the layout, the longest key allowed, and the samples' keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LockedKey {
    pub(crate) limit: usize,
    pub(crate) layout: LockedLayout,
    pub(crate) samples: Vec<Vec<u8>>,
}

/// A [`Layout`] as owned data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LockedLayout {
    pub(crate) name: String,
    pub(crate) format: LockedFormat,
    pub(crate) tag: Vec<u8>,
    pub(crate) tag_delimiter: String,
    pub(crate) prefix: Prefix,
    pub(crate) sources: Vec<String>,
    /// A salt over the whole key after it; `None` in a file of format 1, which does not say.
    pub(crate) whole_key: Option<bool>,
    pub(crate) fixed_len: Option<usize>,
    pub(crate) segments: Vec<LockedSegment>,
    pub(crate) variants: Vec<LockedLayout>,
}

/// A [`Segment`] as owned data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LockedSegment {
    pub(crate) name: String,
    pub(crate) ty: String,
    pub(crate) offset: Option<usize>,
    pub(crate) len: Option<usize>,
    pub(crate) order: Order,
    pub(crate) codec: Codec,
    pub(crate) nested: Option<LockedLayout>,
}

/// What decides a segment's bytes: its type's shape and the mode the layout places it with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Codec {
    pub(crate) form: Form,
    pub(crate) signed: bool,
    /// The natural length (binary, no `width`), when fixed.
    pub(crate) natural_len: Option<usize>,
    /// The longest natural encoding, when bounded.
    pub(crate) natural_max: Option<usize>,
    /// How many `Option` tags stand before the value.
    pub(crate) options: usize,
    /// A custom fixed type that inverts its own bytes under `desc`.
    pub(crate) inverts: bool,
    pub(crate) text_rule: TextRule,
    pub(crate) width: Option<usize>,
    pub(crate) desc: bool,
    pub(crate) reverse: bool,
    /// Another segment follows (variable content escapes and terminates).
    pub(crate) delimited: bool,
    pub(crate) unit: TimeUnit,
    pub(crate) format: Option<String>,
    /// Which Rust type the bytes hold; `None` in a file of format 1, which does not say.
    pub(crate) value: Option<ValueKind>,
}

impl LockedKey {
    pub(crate) fn new(layout: &Layout, limit: usize, samples: Vec<Vec<u8>>) -> LockedKey {
        LockedKey {
            limit,
            layout: LockedLayout::of(layout),
            samples,
        }
    }
}

impl LockedLayout {
    pub(crate) fn of(layout: &Layout) -> LockedLayout {
        LockedLayout {
            name: layout.name.to_owned(),
            format: LockedFormat::of(layout.format),
            tag: layout.tag.bytes().to_vec(),
            tag_delimiter: layout.tag.delimiter().to_owned(),
            prefix: layout.prefix,
            sources: layout
                .prefix_sources
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            whole_key: match layout.prefix {
                Prefix::Salt(_) => Some(layout.whole_key_salt),
                _ => None,
            },
            fixed_len: layout.fixed_len,
            segments: layout.segments.iter().map(LockedSegment::of).collect(),
            variants: layout.variants.iter().map(LockedLayout::of).collect(),
        }
    }
}

impl LockedSegment {
    fn of(segment: &Segment) -> LockedSegment {
        let (shape, mode) = (segment.encoding.shape(), segment.encoding.mode());
        let mut s = LockedSegment::with(segment.name, segment.ty, shape, mode, segment.order);
        s.offset = segment.offset;
        s.len = segment.len;
        s.nested = segment.nested.map(LockedLayout::of);
        s
    }

    /// A segment of a field `name` of type `ty` (as a struct spells it) of `shape`, placed with
    /// `mode` in `order`; at no known offset, of no fixed length, nothing nested.
    pub(crate) fn with(
        name: &str,
        ty: &str,
        shape: crate::field::FieldShape,
        mode: crate::field::FieldMode,
        order: Order,
    ) -> LockedSegment {
        LockedSegment {
            name: name.to_owned(),
            ty: ty.to_owned(),
            offset: None,
            len: None,
            order,
            codec: Codec {
                form: shape.form(),
                signed: shape.is_signed(),
                natural_len: shape.natural_len(),
                natural_max: shape.natural_max(),
                options: shape.tags(),
                inverts: shape.inverts(),
                text_rule: shape.text_rule(),
                width: mode.width(),
                desc: mode.is_desc(),
                reverse: mode.is_reverse(),
                delimited: mode.is_delimited(),
                unit: mode.unit(),
                format: mode.format().map(ToOwned::to_owned),
                value: Some(shape.value()),
            },
            nested: None,
        }
    }
}

/// The names the file gives an [`Order`].
pub(crate) const ORDERS: [(Order, &str); 3] = [
    (Order::Ascending, "asc"),
    (Order::Descending, "desc"),
    (Order::Reversed, "reversed"),
];

pub(crate) fn order_name(order: Order) -> &'static str {
    ORDERS
        .iter()
        .find(|(o, _)| *o == order)
        .map_or("asc", |(_, name)| name)
}

/// A text rule as the file writes it: `none`, `str`, `digits:N`, `chars:N`.
pub(crate) struct RuleName(pub(crate) TextRule);

impl fmt::Display for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            TextRule::Digits(n) => write!(f, "digits:{n}"),
            TextRule::Chars(n) => write!(f, "chars:{n}"),
            TextRule::Str => f.write_str("str"),
            _ => f.write_str("none"),
        }
    }
}

/// A prefix in words, for messages: `no prefix`, `a salt of 16 buckets (md5)`, ...
// The prefix's form in words is the lock's (its file's `text=` and its messages), asked of the
// prefix, which holds its own form (see `Salt`).
pub(crate) struct PrefixWords(pub(crate) Prefix);

impl fmt::Display for PrefixWords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Prefix::Salt(s) => write!(
                f,
                "a {}salt of {} ({})",
                if s.is_text() { "text " } else { "" },
                Count(usize::from(s.buckets()), "bucket"),
                s.hash().name()
            ),
            Prefix::Hash(h) => write!(
                f,
                "a {}-byte md5 prefix{}",
                h.prefix_len(),
                match (h.is_text(), h.is_upper()) {
                    (false, _) => "",
                    (true, false) => " in lowercase hex",
                    (true, true) => " in uppercase hex",
                }
            ),
            _ => f.write_str("no prefix"),
        }
    }
}

/// Writes the schema lines of a lock file: `key`, the layout blocks, `sample` lines. Notes (`#`
/// lines) come from the caller; this is the part a reader needs.
pub(crate) struct Writer<'a> {
    out: &'a mut String,
    /// Schema lines written, for the `end` line.
    items: usize,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(out: &'a mut String) -> Writer<'a> {
        Writer { out, items: 0 }
    }

    /// One schema line: its keyword and `key=value` fields, indented two spaces per `depth`.
    fn line(&mut self, depth: usize, keyword: &str, fields: fmt::Arguments<'_>) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        // Writing to a String cannot fail.
        let _ = writeln!(self.out, "{keyword}{fields}");
        self.items += 1;
    }

    /// A note for readers (`# ` and the text): not part of the schema.
    pub(crate) fn note(&mut self, text: &str) {
        let _ = match text {
            "" => writeln!(self.out, "#"),
            _ => writeln!(self.out, "# {text}"),
        };
    }

    pub(crate) fn key(&mut self, key: &LockedKey) {
        self.line(
            0,
            "key",
            format_args!(
                " name={:?} limit={} samples={}",
                key.layout.name,
                key.limit,
                key.samples.len()
            ),
        );
        self.layout(0, &key.layout);
    }

    pub(crate) fn sample(&mut self, index: usize, bytes: &[u8]) {
        self.line(
            0,
            "sample",
            format_args!(" index={index} key={}", Hex(bytes)),
        );
    }

    pub(crate) fn end(self) {
        let items = self.items;
        let _ = writeln!(self.out, "end items={items}");
    }

    fn layout(&mut self, depth: usize, l: &LockedLayout) {
        let format = l.format.lock_words();
        self.line(
            depth,
            "layout",
            format_args!(
                " name={:?} format={format} fixed_len={} segments={} variants={}",
                l.name,
                Opt(l.fixed_len),
                l.segments.len(),
                l.variants.len()
            ),
        );
        self.line(
            depth + 1,
            "tag",
            format_args!(" bytes={} delimiter={:?}", Hex(&l.tag), l.tag_delimiter),
        );
        let sources = Sources(&l.sources);
        match l.prefix {
            Prefix::Salt(s) => self.line(
                depth + 1,
                "prefix",
                format_args!(
                    " kind=salt buckets={} hash={} text={} over={} sources={sources}",
                    s.buckets(),
                    s.hash().name(),
                    YesNo(s.is_text()),
                    if l.whole_key == Some(true) {
                        "key"
                    } else {
                        "fields"
                    }
                ),
            ),
            Prefix::Hash(h) => self.line(
                depth + 1,
                "prefix",
                format_args!(
                    " kind=hash len={} text={} sources={sources}",
                    h.prefix_len(),
                    match (h.is_text(), h.is_upper()) {
                        (false, _) => "no",
                        (true, false) => "lower",
                        (true, true) => "upper",
                    }
                ),
            ),
            _ => self.line(depth + 1, "prefix", format_args!(" kind=none")),
        }
        for (i, s) in l.segments.iter().enumerate() {
            self.segment(depth + 1, i, s);
        }
        for v in &l.variants {
            self.layout(depth + 1, v);
        }
    }

    fn segment(&mut self, depth: usize, index: usize, s: &LockedSegment) {
        let c = &s.codec;
        self.line(
            depth,
            "segment",
            format_args!(
                " index={index} name={:?} type={:?} offset={} len={} order={} form={} signed={} \
                 natural_len={} natural_max={} options={} inverts={} text_rule={} width={} \
                 desc={} reverse={} delimited={} unit={} format={} value={} nested={}",
                s.name,
                s.ty,
                Opt(s.offset),
                Opt(s.len),
                order_name(s.order),
                c.form.name(),
                YesNo(c.signed),
                Opt(c.natural_len),
                Opt(c.natural_max),
                c.options,
                YesNo(c.inverts),
                RuleName(c.text_rule),
                Opt(c.width),
                YesNo(c.desc),
                YesNo(c.reverse),
                YesNo(c.delimited),
                c.unit.name(),
                OptText(c.format.as_deref()),
                c.value.map_or("plain", ValueKind::name),
                YesNo(s.nested.is_some()),
            ),
        );
        if let Some(nested) = &s.nested {
            self.layout(depth + 1, nested);
        }
    }
}

/// Bytes as one unbroken lowercase hex string; `-` for none.
pub(crate) struct Hex<'a>(pub(crate) &'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

struct Opt(Option<usize>);

impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("-"),
        }
    }
}

struct OptText<'a>(Option<&'a str>);

impl fmt::Display for OptText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(s) => write!(f, "{s:?}"),
            None => f.write_str("-"),
        }
    }
}

pub(crate) struct YesNo(pub(crate) bool);

impl fmt::Display for YesNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "yes" } else { "no" })
    }
}

/// Field names joined by commas; `-` for none.
struct Sources<'a>(&'a [String]);

impl fmt::Display for Sources<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(s)?;
        }
        Ok(())
    }
}
