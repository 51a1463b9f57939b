//! What changed between a lock file and the key type now, field by field: [`Change`], and the
//! rule that sorts each change into compatible (every stored key still reads back with the same
//! value) or not.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::locked_key::{
    order_name, Codec, Hex, LockedKey, LockedLayout, LockedSegment, PrefixWords, RuleName,
};
use crate::field::layout::Order;
use crate::field::{Form, TextRule};
use crate::words::Count;

/// One difference between a layout lock and the key type as it is compiled now.
///
/// ```
/// use rowkey::lock::{Change, ChangeKind};
/// fn explain(change: &Change) -> String {
///     format!("{change} ({})", if change.is_compatible() { "compatible" } else { "breaks stored keys" })
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// What kind of change it is.
    pub kind: ChangeKind,
    /// Where: the key (`Event`), a field (`Event.ts`, `Event.kind`), an enum variant
    /// (`Kind::Click`), or a sample (`sample 2`).
    pub at: String,
    /// What changed, in words: `` `desc` added ``, `retyped from `u32` to `u64``, ...
    pub detail: String,
}

impl Change {
    /// Whether every key stored under the locked layout still reads back, with the same value,
    /// after this change (see [`ChangeKind::is_compatible`]).
    pub fn is_compatible(&self) -> bool {
        self.kind.is_compatible()
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.detail)
    }
}

/// The kinds of [`Change`]. The compatible ones keep every stored key readable with the same
/// meaning: names (of the key, a field, a variant or a type) do not reach the bytes, a new enum
/// variant has a tag no stored key uses, a higher `max_len` refuses nothing that was written,
/// and samples added or dropped change the lock, not the layout. Every other kind changes the
/// bytes of stored keys or what they mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A field that the locked layout does not have.
    FieldAdded,
    /// A locked field that the layout no longer has.
    FieldRemoved,
    /// A field at another position.
    FieldMoved,
    /// A field's type writes other bytes (another type, unit, format, or no longer the last
    /// field of a variable-length type).
    FieldRetyped,
    /// A field written in fewer bytes (a narrower `width`, or a smaller integer type).
    FieldNarrowed,
    /// A field written in more bytes.
    FieldWidened,
    /// `desc` added or removed.
    DescFlipped,
    /// `reverse` added or removed.
    ReverseFlipped,
    /// The salt or hash prefix changed, was added or removed, or is computed from other fields.
    PrefixChanged,
    /// The key's or a variant's `tag` changed, or the delimiter after it.
    TagChanged,
    /// Binary became text or the reverse, or the text delimiter changed.
    FormatChanged,
    /// A lower `max_len`, below keys the layout can write.
    LimitLowered,
    /// An enum variant that the layout no longer has.
    VariantRemoved,
    /// An enum variant under another tag.
    VariantRetagged,
    /// A sample's key bytes differ from the locked ones.
    SampleChanged,
    /// A locked sample key no longer decodes.
    SampleUnreadable,
    /// Compatible: a field renamed at the same position, with the same bytes.
    FieldRenamed,
    /// Compatible: a field's type spelled differently, writing the same bytes.
    TypeRenamed,
    /// Compatible: the key type renamed.
    KeyRenamed,
    /// Compatible: a new enum variant under a tag no locked variant has.
    VariantAdded,
    /// Compatible: an enum variant renamed, same tag.
    VariantRenamed,
    /// Compatible: a higher `max_len`, or a lower one that every key of the layout still fits.
    LimitRaised,
    /// Compatible: more samples than the lock holds.
    SampleAdded,
    /// Compatible: fewer samples than the lock holds.
    SampleRemoved,
}

impl ChangeKind {
    /// Whether stored keys still read back, with the same values, after a change of this kind.
    pub fn is_compatible(self) -> bool {
        matches!(
            self,
            ChangeKind::FieldRenamed
                | ChangeKind::TypeRenamed
                | ChangeKind::KeyRenamed
                | ChangeKind::VariantAdded
                | ChangeKind::VariantRenamed
                | ChangeKind::LimitRaised
                | ChangeKind::SampleAdded
                | ChangeKind::SampleRemoved
        )
    }
}

/// Every change from the locked key `old` to the key `new`, layout first, then samples.
pub(crate) fn changes(old: &LockedKey, new: &LockedKey) -> Vec<Change> {
    let mut cx = Cx(Vec::new());
    let path = new.layout.name.as_str();
    if old.layout.name != new.layout.name {
        cx.push(
            ChangeKind::KeyRenamed,
            path,
            format!("renamed from `{}`", old.layout.name),
        );
    }
    if new.limit != old.limit {
        let fits = new.layout.fixed_len.is_some_and(|n| n <= new.limit);
        let kind = if new.limit > old.limit || fits {
            ChangeKind::LimitRaised
        } else {
            ChangeKind::LimitLowered
        };
        cx.push(
            kind,
            path,
            format!("max_len {}, was {}", Count(new.limit, "byte"), old.limit),
        );
    }
    cx.layout(path, &old.layout, &new.layout);
    for (i, (was, now)) in old.samples.iter().zip(&new.samples).enumerate() {
        if was != now {
            cx.push(
                ChangeKind::SampleChanged,
                &format!("sample {i}"),
                format!("bytes changed: locked {}, now {}", Hex(was), Hex(now)),
            );
        }
    }
    let (locked, now) = (old.samples.len(), new.samples.len());
    if now > locked {
        cx.push(
            ChangeKind::SampleAdded,
            "samples",
            format!("{} added ({now}, was {locked})", now - locked),
        );
    } else if now < locked {
        cx.push(
            ChangeKind::SampleRemoved,
            "samples",
            format!("{} dropped ({now}, was {locked})", locked - now),
        );
    }
    cx.0
}

struct Cx(Vec<Change>);

impl Cx {
    fn push(&mut self, kind: ChangeKind, at: &str, detail: String) {
        self.0.push(Change {
            kind,
            at: at.into(),
            detail,
        });
    }

    /// Two layouts at the same place; their names are compared by the caller (a key's, a
    /// variant's), or stand for a type name a segment already compares.
    fn layout(&mut self, path: &str, old: &LockedLayout, new: &LockedLayout) {
        if old.format != new.format {
            let words = |l: &LockedLayout| l.format.words();
            self.push(
                ChangeKind::FormatChanged,
                path,
                format!("format {}, was {}", words(new), words(old)),
            );
        }
        if (&old.tag, &old.tag_delimiter) != (&new.tag, &new.tag_delimiter) {
            self.push(
                ChangeKind::TagChanged,
                path,
                format!(
                    "tag {} {:?}, was {} {:?}",
                    Hex(&new.tag),
                    new.tag_delimiter,
                    Hex(&old.tag),
                    old.tag_delimiter
                ),
            );
        }
        if old.prefix != new.prefix {
            self.push(
                ChangeKind::PrefixChanged,
                path,
                format!(
                    "{}, was {}",
                    PrefixWords(new.prefix),
                    PrefixWords(old.prefix)
                ),
            );
        } else if let Some((now, was)) = prefix_sources_changed(old, new) {
            self.push(
                ChangeKind::PrefixChanged,
                path,
                format!(
                    "{} computed from {now}, was from {was}",
                    PrefixWords(new.prefix)
                ),
            );
        }
        self.segments(path, &old.segments, &new.segments);
        self.variants(path, &old.variants, &new.variants);
    }

    fn segments(&mut self, path: &str, old: &[LockedSegment], new: &[LockedSegment]) {
        let old_at = |name: &str| old.iter().position(|s| s.name == name);
        let in_new = |name: &str| new.iter().any(|s| s.name == name);
        // A field moved when its place among the fields both layouts have changed; a field added
        // or removed before it shifts its position without moving it.
        let kept_old: Vec<&str> = old
            .iter()
            .map(|s| s.name.as_str())
            .filter(|n| in_new(n))
            .collect();
        let kept_new: Vec<&str> = new
            .iter()
            .map(|s| s.name.as_str())
            .filter(|n| old_at(n).is_some())
            .collect();
        let mut seen = alloc::vec![false; old.len()];
        for (j, n) in new.iter().enumerate() {
            let at = format!("{path}.{}", n.name);
            if let Some(i) = old_at(&n.name) {
                seen[i] = true;
                let rank = |names: &[&str]| names.iter().position(|m| *m == n.name);
                if rank(&kept_old) != rank(&kept_new) {
                    self.push(
                        ChangeKind::FieldMoved,
                        &at,
                        format!("moved from position {i} to {j}"),
                    );
                }
                self.segment(&at, &old[i], n);
            } else if let Some(o) = old.get(j).filter(|o| !in_new(&o.name) && !seen[j]) {
                seen[j] = true;
                self.push(
                    ChangeKind::FieldRenamed,
                    &at,
                    format!("renamed from `{}`", o.name),
                );
                self.segment(&at, o, n);
            } else {
                self.push(
                    ChangeKind::FieldAdded,
                    &at,
                    format!("added at position {j}, type `{}`", n.ty),
                );
            }
        }
        for (i, o) in old.iter().enumerate() {
            if !seen[i] {
                self.push(
                    ChangeKind::FieldRemoved,
                    &format!("{path}.{}", o.name),
                    format!("removed from position {i}, type `{}`", o.ty),
                );
            }
        }
    }

    fn segment(&mut self, at: &str, old: &LockedSegment, new: &LockedSegment) {
        let before = self.0.len();
        if old.order != new.order {
            self.order(at, old.order, new.order);
        }
        self.codec(at, old, new);
        if old.nested.is_some() != new.nested.is_some() && self.0.len() == before {
            self.push(
                ChangeKind::FieldRetyped,
                at,
                format!("retyped to `{}`, was `{}`", new.ty, old.ty),
            );
        }
        if self.0.len() == before && old.ty != new.ty {
            self.push(
                ChangeKind::TypeRenamed,
                at,
                format!("type `{}`, was `{}`", new.ty, old.ty),
            );
        }
        if let (Some(o), Some(n)) = (&old.nested, &new.nested) {
            self.layout(at, o, n);
        }
    }

    /// A segment's order flipped: `desc` or `reverse` added or removed.
    fn order(&mut self, at: &str, old: Order, new: Order) {
        let kind = if old == Order::Reversed || new == Order::Reversed {
            ChangeKind::ReverseFlipped
        } else {
            ChangeKind::DescFlipped
        };
        let attribute = if kind == ChangeKind::DescFlipped {
            "desc"
        } else {
            "reverse"
        };
        let added = order_name(new) == attribute
            || (kind == ChangeKind::ReverseFlipped && new == Order::Reversed);
        self.push(
            kind,
            at,
            format!(
                "`{attribute}` {}: order {}, was {}",
                if added { "added" } else { "removed" },
                order_name(new),
                order_name(old)
            ),
        );
    }

    /// A segment's bytes changed: narrowed, widened or retyped, or no longer (or now) the last
    /// field where that changes its escaping.
    fn codec(&mut self, at: &str, old: &LockedSegment, new: &LockedSegment) {
        let (o, n) = (&old.codec, &new.codec);
        let same_bytes_but = |f: fn(&mut Codec)| {
            let (mut o, mut n) = (o.clone(), n.clone());
            f(&mut o);
            f(&mut n);
            o == n
        };
        let delimiting_matters = old.len.is_none() || new.len.is_none();
        if same_bytes_but(|c| {
            neutral(c);
            c.delimited = false;
        }) {
            if o.delimited != n.delimited && delimiting_matters {
                let detail = if n.delimited {
                    "no longer the last field: its content is now escaped and terminated"
                } else {
                    "now the last field: its content is no longer escaped and terminated"
                };
                self.push(ChangeKind::FieldRetyped, at, detail.into());
            }
            return;
        }
        let resized = same_bytes_but(|c| {
            neutral(c);
            c.delimited = false;
            c.width = None;
            if c.form == Form::Int {
                c.natural_len = None;
                c.natural_max = None;
                c.text_rule = TextRule::None;
            }
        });
        let (kind, detail) = match (resized, old.len, new.len) {
            (true, Some(a), Some(b)) if b < a => (
                ChangeKind::FieldNarrowed,
                format!(
                    "narrowed from {a} to {} (`{}`, was `{}`)",
                    Count(b, "byte"),
                    new.ty,
                    old.ty
                ),
            ),
            (true, Some(a), Some(b)) if b > a => (
                ChangeKind::FieldWidened,
                format!(
                    "widened from {a} to {} (`{}`, was `{}`)",
                    Count(b, "byte"),
                    new.ty,
                    old.ty
                ),
            ),
            _ => (
                ChangeKind::FieldRetyped,
                format!(
                    "retyped to `{}` ({}), was `{}` ({})",
                    new.ty,
                    Words(n),
                    old.ty,
                    Words(o)
                ),
            ),
        };
        self.push(kind, at, detail);
    }

    /// An enum's variants, matched by tag: the tag is what a stored key holds.
    fn variants(&mut self, path: &str, old: &[LockedLayout], new: &[LockedLayout]) {
        // `Enum::Variant`: a renamed enum renames no variant.
        fn short(name: &str) -> &str {
            name.rsplit("::").next().unwrap_or(name)
        }
        let at = |v: &LockedLayout| -> String {
            if v.name.contains("::") || path.is_empty() {
                v.name.clone()
            } else {
                format!("{path}::{}", v.name)
            }
        };
        for o in old {
            match new.iter().find(|n| n.tag == o.tag) {
                Some(n) => {
                    if short(&n.name) != short(&o.name) {
                        self.push(
                            ChangeKind::VariantRenamed,
                            &at(n),
                            format!("renamed from `{}`, same tag {}", o.name, Hex(&o.tag)),
                        );
                    }
                    self.layout(&at(n), o, n);
                }
                None => match new.iter().find(|n| short(&n.name) == short(&o.name)) {
                    Some(n) => self.push(
                        ChangeKind::VariantRetagged,
                        &at(n),
                        format!(
                            "tag {}, was {}: stored keys of this variant no longer read",
                            Hex(&n.tag),
                            Hex(&o.tag)
                        ),
                    ),
                    None => self.push(
                        ChangeKind::VariantRemoved,
                        &at(o),
                        format!(
                            "removed: stored keys with tag {} no longer read",
                            Hex(&o.tag)
                        ),
                    ),
                },
            }
        }
        for n in new {
            let retagged = old
                .iter()
                .any(|o| short(&o.name) == short(&n.name) && o.tag != n.tag);
            if !retagged && !old.iter().any(|o| o.tag == n.tag) {
                self.push(
                    ChangeKind::VariantAdded,
                    &at(n),
                    format!("added under the new tag {}", Hex(&n.tag)),
                );
            }
        }
    }
}

/// Leaves out of a codec what is compared elsewhere: `desc` and `reverse` are the order, and a
/// record's lengths follow from its nested layout. Which Rust type holds the bytes (`value`,
/// format 2) is no change of the bytes: `String` for `Vec<u8>` writes the same keys.
fn neutral(c: &mut Codec) {
    c.desc = false;
    c.reverse = false;
    c.value = None;
    if c.form == Form::Record {
        c.natural_len = None;
        c.natural_max = None;
    }
}

/// What the same prefix is computed from now and before, in words, when that changed: the whole
/// key after it or its fields' values, or which fields.
fn prefix_sources_changed(old: &LockedLayout, new: &LockedLayout) -> Option<(String, String)> {
    let over = |whole: bool| {
        String::from(if whole {
            "the whole key after it"
        } else {
            "its fields' values"
        })
    };
    match old.whole_key.zip(new.whole_key) {
        Some((was, now)) if was != now => Some((over(now), over(was))),
        _ if source_places(old) != source_places(new) => {
            Some((new.sources.join(" + "), old.sources.join(" + ")))
        }
        _ => None,
    }
}

/// Where each prefix source sits among the layout's fields (a name that is no field stands for
/// itself), so that renaming a source field is not a change of the prefix.
fn source_places(l: &LockedLayout) -> Vec<Result<usize, &str>> {
    l.sources
        .iter()
        .map(|s| {
            l.segments
                .iter()
                .position(|seg| seg.name == *s)
                .ok_or(s.as_str())
        })
        .collect()
}

/// A codec in a few words, for messages: `int, signed, 8 bytes`.
struct Words<'a>(&'a Codec);

impl fmt::Display for Words<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        f.write_str(c.form.name())?;
        if c.signed {
            f.write_str(", signed")?;
        }
        match (c.width, c.natural_len) {
            (Some(w), _) => write!(f, ", width {w}")?,
            (None, Some(n)) => write!(f, ", {}", Count(n, "byte"))?,
            (None, None) => f.write_str(", variable length")?,
        }
        if c.options > 0 {
            write!(f, ", {}", Count(c.options, "Option tag"))?;
        }
        if c.form == Form::Time {
            write!(f, ", unit {}", c.unit.name())?;
        }
        if let Some(format) = &c.format {
            write!(f, ", format {format:?}")?;
        }
        if !matches!(c.text_rule, TextRule::None) {
            write!(f, ", text {}", RuleName(c.text_rule))?;
        }
        Ok(())
    }
}
