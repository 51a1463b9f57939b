//! A lock file's layout turned into what the schema runs on: a [`Node`] per key, nested struct and
//! enum, and for each field the Rust type it stands for ([`Kind`]) and the [`FieldMode`] the
//! derive places it with, built once from the lock's facts.

use alloc::boxed::Box;
use alloc::format;

use alloc::vec::Vec;

use super::convert::Sink;
use super::intern;
use super::value::Value;
use super::SchemaError;
use crate::cursor::KeyWriter;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::no_range::{NoRange, OrderFacts};
use crate::field::{FieldMode, Form, ValueKind};
use crate::format::KeyFormat;
use crate::lock::locked_key::{LockedLayout, LockedSegment};
use crate::prefix::Prefix;
use crate::scan::ScanLayout;
use crate::tag::Tag;
use crate::walk::MAX_FIELDS;

/// A key, nested struct or enum: a struct's fields behind its tag and prefix, or an enum's
/// variants (each a `Node` of its own behind its tag).
#[derive(Debug)]
pub(crate) struct Node {
    /// The type's name; `Enum::Variant` for a variant.
    pub(crate) name: &'static str,
    /// The name errors give the key: the enum's for a variant.
    pub(crate) key_name: &'static str,
    /// A variant of an enum with data.
    pub(crate) is_variant: bool,
    /// A variant's own value slot (the variant named alone); see [`Node::number`].
    pub(crate) leaf: usize,
    /// The value slots of this node and everything in it.
    pub(crate) leaves: core::ops::Range<usize>,
    /// The key's byte format (Apache Phoenix's: its columns walked with Phoenix's separators
    /// and trailing NULLs, as a derived Phoenix key's are).
    pub(crate) format: KeyFormat,
    pub(crate) tag: Tag,
    pub(crate) prefix: Prefix,
    /// The prefix's length in the key (`prefix.encoded_len()`, counted once).
    prefix_len: usize,
    /// The prefix's sources, as indices into `fields`.
    pub(crate) sources: Vec<usize>,
    /// A salt over the whole key after it, rather than over named fields.
    pub(crate) whole_key: bool,
    pub(crate) fields: Vec<Field>,
    pub(crate) variants: Vec<Node>,
    /// What planning knows of the layout, for scans that start here.
    pub(crate) scan: &'static ScanLayout,
    /// Only fields one after another: no tag, prefix, delimiter, variant or nested key.
    pub(crate) plain: bool,
}

/// One field: its name, the type it stands for, and how it is placed.
#[derive(Debug)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    /// The type as the lock writes it, for messages and `--help`.
    pub(crate) ty: &'static str,
    /// The field's dotted path in its schema (`Node::number`).
    pub(crate) path: &'static str,
    /// The field's value slot: its place among the schema's dotted paths.
    pub(crate) leaf: usize,
    pub(crate) kind: Kind,
    /// The encoder and decoder of `kind`'s Rust type, picked once.
    pub(crate) codec: Codec,
    /// `Option` around the value (one at most: schemas do not take `Option<Option<T>>`).
    pub(crate) optional: bool,
    pub(crate) mode: FieldMode,
    /// The mode the field is written in where it stands: `mode` nested in the modes of the
    /// fields that hold its key ([`Node::place`]), fixed once as in generated code.
    pub(crate) placed: FieldMode,
    /// Why the field has no range scan (`reverse`, a format that does not sort as times do, a
    /// Phoenix rule): equality and IN lists only. `None` for a field that keeps its order.
    pub(crate) no_range: Option<NoRange>,
    /// Whether its length varies in `mode`: in a Phoenix key, a separator follows it.
    pub(crate) variable: bool,
}

/// Writes one value of a field in `mode`; `false` when it does not fit the field (then `error` is
/// `None`: `check` says why in words) or its type refuses it (`error` says why).
pub(crate) type EncodeFn = fn(
    field: &Field,
    value: &Value,
    w: &mut KeyWriter<'_>,
    mode: &FieldMode,
    key: &'static str,
    error: &mut Option<EncodeError>,
) -> bool;

/// Reads one value of a field, placed where it stands, from the start of `input` into `sink`;
/// returns the bytes it took, or `None` with the reason in `error`. (A small result: a whole
/// `DecodeError` returned through the call is copied back out in wider loads than it was
/// stored with.)
pub(crate) type DecodeFn = fn(
    field: &Field,
    input: &[u8],
    sink: Sink<'_, '_>,
    error: &mut Option<DecodeError>,
) -> Option<usize>;

/// A field's encoder and decoder: those of the Rust type it stands for, picked once
/// (`typed::pick_codecs`), so that the walk over a key's fields does not choose a type per key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Codec {
    pub(crate) encode: EncodeFn,
    pub(crate) decode: DecodeFn,
    /// Whether the walk runs `encode` and `decode`'s steps in its own loop.
    pub(crate) inline: Inline,
}

impl Codec {
    /// The codec of a field before one is picked, and of a nested key (which the walk writes and
    /// reads): it refuses.
    pub(crate) const REFUSE: Codec = Codec {
        encode: |_, _, _, _, _, _| false,
        decode: |_, _, _, error| {
            *error = Some(DecodeError::new(
                DecodeErrorKind::Invalid("a field without a codec"),
                0,
            ));
            None
        },
        inline: Inline::Call,
    };
}

/// Whether the walk writes and reads a field in its own loop, and as which type (`typed.rs`
/// maps each lane to its Rust type and picks it), or through its [`Codec`]'s functions (`Call`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inline {
    /// Through the field's codec.
    Call,
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    Str,
    Bytes,
    Enum,
}

/// The Rust type a field stands for: the schema encodes and decodes it with that type's own
/// `KeyField` and `DecodeField`.
#[derive(Debug)]
pub(crate) enum Kind {
    /// `u8` to `u128` (and `usize`, keyed as `u64`), by byte count.
    Unsigned(usize),
    /// `i8` to `i128` (and `isize`), by byte count.
    Signed(usize),
    F32,
    F64,
    Bool,
    Char,
    Str,
    Bytes,
    /// `[u8; N]`.
    Array(usize),
    #[cfg(feature = "uuid")]
    Uuid,
    /// `Hashed<N>`.
    Digest(usize),
    SystemTime,
    #[cfg(feature = "chrono")]
    Chrono(ChronoKind),
    #[cfg(feature = "decimal")]
    Decimal,
    /// A fieldless enum: each variant's name and discriminant.
    Enum(Vec<(&'static str, u8)>),
    /// A nested struct or enum with data.
    Record(Box<Node>),
    /// A user's own `KeyField`: its bytes as they stand in the key.
    Opaque(usize),
}

/// chrono's time types (feature `chrono`).
#[cfg(feature = "chrono")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChronoKind {
    DateTime,
    NaiveDateTime,
    NaiveDate,
    NaiveTime,
}

impl Node {
    /// The node of a lock's layout. `whole_key`: a salt over all fields is over the whole key
    /// after it; `enum_name`: the enum this is a variant of.
    pub(crate) fn of(
        l: &LockedLayout,
        whole_key: bool,
        enum_name: Option<&'static str>,
    ) -> Result<Node, SchemaError> {
        let name = intern::str(&l.name);
        let format = l.format.key_format(intern::str);
        let tag = Tag::new(intern::bytes(&l.tag), intern::str(&l.tag_delimiter));
        if l.segments.len() > MAX_FIELDS {
            return Err(SchemaError::unsupported(format!(
                "`{}` has {} fields: a key has at most {MAX_FIELDS}, as a derived key",
                l.name,
                l.segments.len()
            )));
        }
        let mut fields = Vec::with_capacity(l.segments.len());
        for s in &l.segments {
            let f = Field::of(s, format, &l.name)?;
            fields.push(f);
        }
        let sources = l
            .sources
            .iter()
            .map(|name| {
                fields
                    .iter()
                    .position(|f| f.name == name.as_str())
                    .ok_or_else(|| {
                        SchemaError::unsupported(format!(
                            "`{}`: the prefix source `{name}` is not one of its fields",
                            l.name
                        ))
                    })
            })
            .collect::<Result<Vec<usize>, SchemaError>>()?;
        // Format 2 says; for format 1 the caller chose (see `Schema::of`).
        let whole_key = l.whole_key.unwrap_or(whole_key) && matches!(l.prefix, Prefix::Salt(_));
        let variants = l
            .variants
            .iter()
            .map(|v| Node::of(v, false, Some(name)))
            .collect::<Result<Vec<Node>, SchemaError>>()?;
        let scan = scan_layout(
            l,
            format.text(),
            tag,
            &fields,
            &sources,
            whole_key,
            &variants,
        );
        let plain = variants.is_empty()
            && enum_name.is_none()
            && tag.is_none()
            && crate::codec::columns::plain(format)
            && format.delimiter().is_empty()
            && matches!(l.prefix, Prefix::None)
            && !fields.iter().any(|f| matches!(f.kind, Kind::Record(_)));
        Ok(Node {
            plain,
            format,
            name,
            key_name: enum_name.unwrap_or(name),
            is_variant: enum_name.is_some(),
            leaf: 0,
            leaves: 0..0,
            tag,
            prefix: l.prefix,
            prefix_len: l.prefix.encoded_len(),
            sources,
            whole_key,
            fields,
            variants,
            scan,
        })
    }

    /// The name errors give the key.
    pub(crate) fn key_name(&self) -> &'static str {
        self.key_name
    }

    /// Whether this is an enum with data (its variants are nodes of their own).
    pub(crate) fn is_enum(&self) -> bool {
        !self.variants.is_empty()
    }

    /// The variant's own name (`Click` of `EventKind::Click`).
    pub(crate) fn short_name(&self) -> &'static str {
        self.name.rsplit("::").next().unwrap_or(self.name)
    }

    /// The bytes of the prefix component, without its delimiter.
    pub(crate) fn prefix_len(&self) -> usize {
        self.prefix_len
    }
}

/// The planning facts of a layout, as the derive's `scan_layout` writes them.
fn scan_layout(
    l: &LockedLayout,
    text: Option<&'static str>,
    tag: Tag,
    fields: &[Field],
    sources: &[usize],
    whole_key: bool,
    variants: &[Node],
) -> &'static ScanLayout {
    // An enum names no fields of its own: one field never bound, every key behind its tag.
    let flags: Vec<bool> = if variants.is_empty() {
        (0..fields.len())
            .map(|i| whole_key || sources.contains(&i))
            .collect()
    } else {
        alloc::vec![false]
    };
    let prefix = if variants.is_empty() {
        l.prefix
    } else {
        Prefix::None
    };
    let fixed = variants.is_empty() && l.fixed_len.is_some();
    let mut layout = ScanLayout::new(prefix, &flags, whole_key, fixed).with_tag(tag);
    if let Some(d) = text {
        layout = layout.in_text(d);
    }
    intern::scan_layout(layout)
}

impl Field {
    fn of(s: &LockedSegment, format: KeyFormat, key: &str) -> Result<Field, SchemaError> {
        let c = &s.codec;
        if c.options > 1 {
            return Err(unsupported(
                key,
                s,
                "an `Option` inside an `Option` is not read by schemas",
            ));
        }
        let optional = c.options == 1;
        let kind = kind_of(s, key, optional)?;
        Field::new(s, format, kind, optional)
    }

    fn new(
        s: &LockedSegment,
        format: KeyFormat,
        kind: Kind,
        optional: bool,
    ) -> Result<Field, SchemaError> {
        let c = &s.codec;
        let mut mode = if c.delimited {
            FieldMode::INNER
        } else {
            FieldMode::LAST
        };
        mode = mode.in_format(format);
        if let Some(w) = c.width {
            mode = mode.with_width(w);
        }
        if c.desc {
            mode = mode.with_desc();
        }
        if c.reverse {
            mode = mode.with_reverse();
        }
        if let Some(format) = &c.format {
            mode = mode.with_format(intern::str(format));
        }
        mode = mode.with_unit(c.unit);
        Ok(Field {
            path: "",
            leaf: 0,
            name: intern::str(&s.name),
            ty: intern::str(&s.ty),
            codec: Codec::REFUSE,
            kind,
            optional,
            mode,
            placed: mode,
            no_range: None,
            variable: false,
        }
        .with_no_range())
    }

    /// The field with its `no_range` decided by the one rule the derive asks too.
    fn with_no_range(mut self) -> Field {
        self.no_range = self.no_range();
        self
    }

    /// Why the field has no range scan in its mode: `NoRange::of`, the derive's rule.
    fn no_range(&self) -> Option<NoRange> {
        let mode = self.mode;
        NoRange::of(OrderFacts {
            reverse: mode.is_reverse(),
            unordered_format: mode.format().is_some_and(|format| {
                !crate::time::strftime::spec(format).is_ok_and(|s| s.is_ordered())
            }),
            phoenix: mode.is_phoenix(),
            desc: mode.is_desc(),
            nullable: self.optional,
            fixed_width_string: matches!(self.kind, Kind::Str) && mode.width().is_some(),
        })
    }
}

/// Why schemas do not read segment `s` of the key `key`.
fn unsupported(key: &str, s: &LockedSegment, what: &str) -> SchemaError {
    SchemaError::unsupported(format!("`{key}.{}` (`{}`): {what}", s.name, s.ty))
}

/// The Rust type segment `s` of the key `key` stands for (`optional`: behind an `Option`).
fn kind_of(s: &LockedSegment, key: &str, optional: bool) -> Result<Kind, SchemaError> {
    let c = &s.codec;
    let len = value_len(s);
    let refuse = |what: &str| unsupported(key, s, what);
    Ok(match c.form {
        Form::Int => match (c.signed, len) {
            (false, 1 | 2 | 4 | 8 | 16) => Kind::Unsigned(len),
            (true, 1 | 2 | 4 | 8 | 16) => Kind::Signed(len),
            _ => return Err(refuse("an integer of no known size")),
        },
        Form::Float => match len {
            4 => Kind::F32,
            8 => Kind::F64,
            _ => return Err(refuse("a float of no known size")),
        },
        Form::Bool => Kind::Bool,
        Form::Char => Kind::Char,
        Form::ByteArray => match c.value {
            #[cfg(feature = "uuid")]
            Some(ValueKind::Uuid) => Kind::Uuid,
            #[cfg(not(feature = "uuid"))]
            Some(ValueKind::Uuid) => return Err(refuse("a UUID needs feature `uuid`")),
            #[cfg(feature = "uuid")]
            None if base_type(&s.ty) == "Uuid" => Kind::Uuid,
            _ => Kind::Array(len),
        },
        Form::Content => content_kind(s),
        Form::Digest => match len {
            1..=16 => Kind::Digest(len),
            _ => return Err(refuse("a digest of no known size")),
        },
        Form::Time => c
            .value
            .and_then(time_of_value)
            .or_else(|| time_kind(base_type(&s.ty)))
            .ok_or_else(|| {
                refuse("a time type this build does not know (chrono's need feature `chrono`)")
            })?,
        #[cfg(feature = "decimal")]
        Form::Decimal => Kind::Decimal,
        Form::Discriminant => Kind::Enum(enum_variants(s, key)?),
        Form::Record => {
            let nested = s
                .nested
                .as_ref()
                .ok_or_else(|| refuse("a nested key without its layout"))?;
            Kind::Record(Box::new(Node::of(nested, false, None)?))
        }
        Form::Custom => match c.natural_len {
            Some(n) if !optional => Kind::Opaque(n),
            _ => return Err(refuse("a type of its own whose length varies")),
        },
    })
}

/// The length of segment `s`'s value, without the `Option` tag.
fn value_len(s: &LockedSegment) -> usize {
    let c = &s.codec;
    c.natural_max
        .map(|m| m.saturating_sub(c.options))
        .or(c.natural_len)
        .unwrap_or(0)
}

/// The type of a content segment: a string or bytes.
fn content_kind(s: &LockedSegment) -> Kind {
    match s.codec.value {
        Some(ValueKind::Str) => Kind::Str,
        Some(_) => Kind::Bytes,
        // Format 1 does not say whether content is text: the type's name tells.
        None if s.ty.contains("str") || s.ty.contains("String") => Kind::Str,
        None => Kind::Bytes,
    }
}

/// A fieldless enum's variants from its nested layout: each one's name and one-byte tag.
fn enum_variants(s: &LockedSegment, key: &str) -> Result<Vec<(&'static str, u8)>, SchemaError> {
    let nested = s
        .nested
        .as_ref()
        .ok_or_else(|| unsupported(key, s, "an enum without its variants"))?;
    nested
        .variants
        .iter()
        .map(|v| {
            let node_name = v.name.rsplit("::").next().unwrap_or(&v.name);
            match v.tag.as_slice() {
                [d] => Ok((intern::str(node_name), *d)),
                _ => Err(unsupported(key, s, "a variant whose tag is not one byte")),
            }
        })
        .collect()
}

/// The type inside any `Option<...>`, without its path: `SystemTime` of
/// `Option<std::time::SystemTime>`.
fn base_type(ty: &str) -> &str {
    let mut t = ty.trim();
    while let Some(inner) = t.strip_prefix("Option<").and_then(|r| r.strip_suffix('>')) {
        t = inner.trim();
    }
    let t = t.split('<').next().unwrap_or(t);
    t.rsplit("::").next().unwrap_or(t)
}

/// The time type a lock of format 2 names.
fn time_of_value(value: ValueKind) -> Option<Kind> {
    match value {
        ValueKind::SystemTime => Some(Kind::SystemTime),
        #[cfg(feature = "chrono")]
        ValueKind::DateTime => Some(Kind::Chrono(ChronoKind::DateTime)),
        #[cfg(feature = "chrono")]
        ValueKind::NaiveDateTime => Some(Kind::Chrono(ChronoKind::NaiveDateTime)),
        #[cfg(feature = "chrono")]
        ValueKind::NaiveDate => Some(Kind::Chrono(ChronoKind::NaiveDate)),
        #[cfg(feature = "chrono")]
        ValueKind::NaiveTime => Some(Kind::Chrono(ChronoKind::NaiveTime)),
        _ => None,
    }
}

/// The time type a lock of format 1 names by the type as written.
fn time_kind(base: &str) -> Option<Kind> {
    match base {
        "SystemTime" => Some(Kind::SystemTime),
        #[cfg(feature = "chrono")]
        "DateTime" => Some(Kind::Chrono(ChronoKind::DateTime)),
        #[cfg(feature = "chrono")]
        "NaiveDateTime" => Some(Kind::Chrono(ChronoKind::NaiveDateTime)),
        #[cfg(feature = "chrono")]
        "NaiveDate" => Some(Kind::Chrono(ChronoKind::NaiveDate)),
        #[cfg(feature = "chrono")]
        "NaiveTime" => Some(Kind::Chrono(ChronoKind::NaiveTime)),
        _ => None,
    }
}
