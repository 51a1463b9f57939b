//! Keys walked at run time as generated code walks them: the tag, the reserved prefix, each field
//! in its mode (nested in the mode of the field that holds the key), the text delimiters, then
//! the prefix computed from its sources, with the cursor and prefix steps generated code calls.
//! Decoding reads the same parts back and checks the prefix; `explain` shows them.
//!
//! A key's values are a slice of slots, one a dotted path (`Node::number`): a field's slot holds
//! its value, a variant's slot names the variant alone, and a nested key's fields sit in the slots
//! of its node's range.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use super::convert::{Run, Sink};
use super::nodes::{Field, Kind, Node};
use super::stand_ins::Shown;
use super::typed::{decode_inline, encode_inline, with_typed};
use super::value::Value;
use crate::cursor::{KeyReader, KeyWriter};
use crate::describe::explain::Explained;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{FieldMode, FieldShape, KeyField};
use crate::prefix::{steps, Prefix};
use crate::sink::ValueSink;

/// A key's values by slot.
pub(crate) type Slots<'v> = [Option<&'v Value>];

/// A nested struct or enum with data, with the slots of its values: a field type whose `encode`
/// is the schema's walk of its layout, as a derived type's is its generated walk.
#[derive(Clone, Copy)]
pub(crate) struct DynRecord<'a> {
    pub(crate) node: &'a Node,
    pub(crate) slots: &'a Slots<'a>,
    /// Written where it stands in a key, in the mode its fields' `placed` was fixed for (a
    /// plan writes a nested key in modes of its own).
    pub(crate) placed: bool,
}

impl Debug for DynRecord<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.node.name)
    }
}

impl KeyField for DynRecord<'_> {
    const SHAPE: FieldShape = FieldShape::record(None, None, Prefix::None);

    fn field_len(&self, mode: FieldMode) -> usize {
        let mut out = alloc::vec![0u8; 1 << 16];
        self.encode(&mut out, mode).unwrap_or(0)
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        encode_record(self.node, self.slots, out, mode, self.placed)
    }
}

/// Runs `run` on a nested key's value: `None` when its slot holds `null`, the record otherwise.
/// `placed`: see [`DynRecord::placed`].
pub(crate) fn with_record<'a, R: Run>(
    field: &Field,
    child: &'a Node,
    slots: &'a Slots<'a>,
    placed: bool,
    run: R,
) -> R::Out {
    let record = DynRecord {
        node: child,
        slots,
        placed,
    };
    match (field.optional, slots.get(field.leaf).copied().flatten()) {
        (true, Some(Value::Null)) => run.run(&[None::<DynRecord<'_>>]),
        (true, _) => run.run(&[Some(record)]),
        (false, _) => run.run(&[record]),
    }
}

/// The variant of enum `node` whose slots hold values (the first, when none or several do:
/// [`check`] names those).
fn variant<'n>(node: &'n Node, slots: &Slots<'_>) -> Option<&'n Node> {
    node.variants.iter().find(|v| {
        slots
            .get(v.leaves.clone())
            .is_some_and(|s| s.iter().any(Option::is_some))
    })
}

/// What is wrong with `slots` as a key of `node`, in words; `Ok` when every field has a value its
/// type takes and nothing is given that the key has no place for.
pub(crate) fn check(node: &Node, slots: &Slots<'_>, paths: &[&str]) -> Result<(), String> {
    struct Nothing;
    impl Run for Nothing {
        type Out = ();
        fn run<T: KeyField + Debug>(self, _: &[T]) {}
    }
    let node = if node.is_enum() {
        let chosen: Vec<&Node> = node
            .variants
            .iter()
            .filter(|v| slots[v.leaves.clone()].iter().any(Option::is_some))
            .collect();
        match chosen.as_slice() {
            [v] => *v,
            [] => {
                let names: Vec<&str> = node.variants.iter().map(|v| paths[v.leaf]).collect();
                return Err(format!(
                    "`{}` needs a variant: one of {}",
                    node.name,
                    names.join(", ")
                ));
            }
            [a, b, ..] => {
                return Err(format!(
                    "`{}` and `{}` name two variants of `{}`",
                    paths[a.leaf], paths[b.leaf], node.name
                ))
            }
        }
    } else {
        node
    };
    for field in &node.fields {
        let path = &paths[field.leaf];
        match (&field.kind, slots[field.leaf]) {
            (Kind::Record(child), Some(Value::Null)) if field.optional => {
                if slots[child.leaves.clone()].iter().any(Option::is_some) {
                    return Err(format!("`{path}` is null and has fields too"));
                }
            }
            (Kind::Record(_), Some(v)) => {
                return Err(format!(
                    "`{path}` is a nested key: give its fields (`{path}.<field>=...`), not {v}"
                ))
            }
            (Kind::Record(child), None) => check(child, slots, paths)?,
            (_, None) => return Err(format!("no value for `{path}`")),
            (_, Some(v)) => {
                with_typed(field, &[v], Nothing).map_err(|e| format!("`{path}`: {e}"))?;
            }
        }
    }
    Ok(())
}

/// Writes one value with its type's own `encode`; `false` when it fails, the error in `error`.
/// (A small result: a whole `EncodeError` returned through each layer is copied back out of the
/// stack in wider loads than it was stored with, and that stalled the walk.)
struct Encode<'w, 'o, 'e> {
    w: &'w mut KeyWriter<'o>,
    mode: FieldMode,
    key: &'static str,
    field: &'static str,
    error: &'e mut Option<EncodeError>,
}

impl Run for Encode<'_, '_, '_> {
    type Out = bool;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> bool {
        let [v] = values else {
            return true;
        };
        match self.w.field(v, self.mode, self.key, self.field) {
            Ok(()) => true,
            Err(e) => {
                *self.error = Some(e);
                false
            }
        }
    }
}

/// Feeds one value's value bytes to a prefix hasher.
struct Feed<'h, H: ValueSink + ?Sized> {
    h: &'h mut H,
    mode: FieldMode,
}

impl<H: ValueSink + ?Sized> Run for Feed<'_, H> {
    type Out = Result<(), EncodeError>;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> Self::Out {
        match values {
            [v] => v.value_bytes(self.mode, self.h),
            _ => Ok(()),
        }
    }
}

/// A value that is missing or does not fit its field: [`check`] tells which, in words.
#[cold]
fn unfit(_: String) -> EncodeError {
    EncodeError::new(EncodeErrorKind::Unsupported(
        "a value that does not fit its field",
    ))
}

/// Runs `run` on the value of `field` in `slots`, as its Rust type; `None` when the value is
/// missing or does not fit (`check` says which).
fn with_field<'a, R: Run>(field: &'a Field, slots: &'a Slots<'a>, run: R) -> Option<R::Out> {
    match &field.kind {
        Kind::Record(child) => Some(with_record(field, child, slots, true, run)),
        _ => with_typed(field, &[slots[field.leaf]?], run).ok(),
    }
}

/// Writes the key (or nested key) of `node` whose values are `slots` at the start of `out`,
/// placed with `mode`: where it stands in its key when `placed` (its fields' modes are fixed).
pub(crate) fn encode_record(
    node: &Node,
    slots: &Slots<'_>,
    out: &mut [u8],
    mode: FieldMode,
    placed: bool,
) -> Result<usize, EncodeError> {
    let key = node.key_name();
    if placed && node.plain {
        // Fields one after another, each in the mode fixed where it stands.
        let mut w = KeyWriter::new(out);
        for field in &node.fields {
            let mut error = None;
            let written = match slots.get(field.leaf).copied().flatten() {
                Some(v) => encode_inline(field, v, &mut w, &field.placed, key, &mut error),
                None => false,
            };
            if !written {
                return Err(error.unwrap_or_else(|| unfit(String::new())));
            }
        }
        return Ok(w.written());
    }
    let node = if node.is_enum() {
        variant(node, slots).ok_or_else(|| unfit(String::new()))?
    } else {
        node
    };
    let mut w = KeyWriter::new(out);
    if !node.tag.is_none() {
        w.tag(node.tag)?;
    }
    let prefix_len = node.prefix_len();
    if prefix_len > 0 {
        w.reserve(prefix_len)?;
    }
    let delimiter = node.text.unwrap_or_default();
    for (i, field) in node.fields.iter().enumerate() {
        if node.text.is_some() && !delimiter.is_empty() && (i > 0 || prefix_len > 0) {
            w.delimiter(delimiter)?;
        }
        let mut error = None;
        let nested;
        let field_mode = if placed {
            &field.placed
        } else {
            nested = mode.nest(field.mode);
            &nested
        };
        let written = match &field.kind {
            Kind::Record(child) => {
                let run = Encode {
                    w: &mut w,
                    mode: *field_mode,
                    key,
                    field: field.name,
                    error: &mut error,
                };
                with_record(field, child, slots, placed, run)
            }
            _ => match slots.get(field.leaf).copied().flatten() {
                Some(v) => encode_inline(field, v, &mut w, field_mode, key, &mut error),
                None => false,
            },
        };
        if !written {
            return Err(error.unwrap_or_else(|| unfit(String::new())));
        }
    }
    let feed = |h: &mut dyn ValueSink| feed_sources(node, slots, h, key);
    match node.prefix {
        Prefix::Salt(salt) if node.whole_key => {
            let b = steps::whole_key_salt_byte(salt, mode, w.written_from(node.body_start()))?;
            steps::write_salt(salt, b, w.prefix_mut(prefix_len));
        }
        Prefix::Salt(salt) => {
            let b = steps::salt_byte(salt, mode, |h| feed(h))?;
            steps::write_salt(salt, b, w.prefix_mut(prefix_len));
        }
        Prefix::Hash(hash) => {
            steps::write_hash_prefix(hash, w.prefix_mut(prefix_len), |h| feed(h))?;
        }
        _ => {}
    }
    Ok(w.written())
}

/// Feeds the value bytes of `node`'s prefix sources to `h`, joined by the text delimiter.
fn feed_sources(
    node: &Node,
    slots: &Slots<'_>,
    h: &mut dyn ValueSink,
    key: &'static str,
) -> Result<(), EncodeError> {
    let delimiter = node.text.unwrap_or_default();
    for (n, &i) in node.sources.iter().enumerate() {
        if n > 0 && !delimiter.is_empty() {
            h.write(delimiter.as_bytes());
        }
        let field = &node.fields[i];
        with_field(
            field,
            slots,
            Feed {
                h,
                mode: field.mode,
            },
        )
        .ok_or_else(|| unfit(String::new()))?
        .map_err(|e| e.in_field(key, field.name))?;
    }
    Ok(())
}

/// One field as decoding found it: where it starts, its length, and its value as `Debug` shows it
/// (when asked).
#[derive(Debug)]
pub(crate) struct Row {
    pub(crate) name: &'static str,
    pub(crate) at: usize,
    pub(crate) len: usize,
    pub(crate) shown: String,
}

/// A key (or nested key) read back: the node it was read as (the variant of an enum), its
/// fields' rows, and the bytes it took. Its values went to the caller's list.
pub(crate) struct Read<'n> {
    pub(crate) node: &'n Node,
    pub(crate) rows: Vec<Row>,
    pub(crate) len: usize,
}

/// Reads one field that is not a nested key from the start of `input` into `out`: the bytes it
/// took.
#[inline(always)]
fn read_field(
    field: &Field,
    input: &[u8],
    out: &mut Vec<(&str, Value)>,
) -> Result<usize, DecodeError> {
    let mut error = None;
    match decode_inline(field, input, out, &mut error) {
        Some(n) if n <= input.len() => Ok(n),
        _ => Err(error.unwrap_or_else(did_not_read)),
    }
}

/// The error of a field's decoder that gave none.
#[cold]
fn did_not_read() -> DecodeError {
    DecodeError::new(DecodeErrorKind::Invalid("a field that did not read"), 0)
}

/// Reads a key (or nested key) of `node` from the start of `input`, placed with `mode`, checks
/// its prefix, and pushes its values to `out` by dotted path (`paths`, by slot). With `SHOW`
/// (for `explain`), each row holds its value as `Debug` shows it; without, decoding carries no
/// trace of it.
pub(crate) fn read_record<'n, 's, const SHOW: bool>(
    node: &'n Node,
    input: &[u8],
    mode: FieldMode,
    paths: &[&'s str],
    out: &mut Vec<(&'s str, Value)>,
) -> Result<Read<'n>, DecodeError> {
    let key = node.key_name();
    if !SHOW && node.plain {
        // Fields one after another, each in the mode fixed where it stands.
        let mut at = 0;
        for field in &node.fields {
            let rest = input.get(at..).unwrap_or_default();
            let mut error = None;
            match decode_inline(field, rest, out, &mut error) {
                Some(n) => at += n,
                _ => {
                    let e = error.unwrap_or_else(did_not_read);
                    return Err(e.in_field(key, field.name, at));
                }
            }
        }
        // A field never takes more than there is; were one to, the key is not read past its
        // end. (Checked once here: in the loop the check cost 23 instructions a key.)
        if at > input.len() {
            return Err(did_not_read().in_key(key));
        }
        return Ok(Read {
            node,
            rows: Vec::new(),
            len: at,
        });
    }
    let mut r = KeyReader::new(input);
    let node = if node.is_enum() {
        match node.variants.iter().find(|v| r.take_tag(v.tag)) {
            Some(v) => v,
            None => {
                return Err(
                    DecodeError::new(DecodeErrorKind::UnknownTag { name: key }, 0).in_key(key),
                )
            }
        }
    } else {
        if !node.tag.is_none() {
            r.tag(node.tag, key)?;
        }
        node
    };
    if node.is_variant && node.fields.is_empty() {
        out.push((paths[node.leaf], Value::Null));
    }
    let prefix_len = node.prefix_len();
    let prefix = if prefix_len > 0 {
        r.take(prefix_len)?
    } else {
        &[]
    };
    let delimiter = node.text.unwrap_or_default();
    let first = out.len();
    let mut rows = Vec::new();
    let mut shown = String::new();
    for (i, field) in node.fields.iter().enumerate() {
        if !delimiter.is_empty() && (i > 0 || prefix_len > 0) {
            r.delimiter(delimiter)?;
        }
        let at = r.pos();
        let rest = input.get(at..).unwrap_or_default();
        // Keys are read only where they stand.
        debug_assert_eq!(field.placed, mode.nest(field.mode));
        let n = match &field.kind {
            Kind::Record(child) => read_nested::<SHOW>(field, child, rest, paths, out, &mut shown),
            _ if !SHOW => read_field(field, rest, out),
            _ => {
                let sink = Sink {
                    out: &mut *out,
                    shown: Some(&mut shown),
                };
                let mut error = None;
                match (field.codec.decode)(field, rest, sink, &mut error) {
                    Some(n) => Ok(n),
                    None => Err(error.unwrap_or_else(did_not_read)),
                }
            }
        }
        .map_err(|e| e.in_field(key, field.name, at))?;
        // The reader moves past the field by taking the bytes it read.
        r.take(n)?;
        if SHOW {
            rows.push(Row {
                name: field.name,
                at,
                len: n,
                shown: core::mem::take(&mut shown),
            });
        }
    }
    if !matches!(node.prefix, Prefix::None) {
        check_prefix(node, mode, prefix, &r, &out[first..], paths).map_err(|e| e.in_key(key))?;
    }
    Ok(Read {
        node,
        rows,
        len: r.pos(),
    })
}

/// Reads the nested key of `field` (`child`, behind an `Option` tag when the field is optional)
/// from the start of `input`; a `None` goes to `out` as `null`. With `SHOW`, writes the value to
/// `shown` as derived `Debug` shows it.
#[inline(never)]
fn read_nested<'s, const SHOW: bool>(
    field: &Field,
    child: &Node,
    input: &[u8],
    paths: &[&'s str],
    out: &mut Vec<(&'s str, Value)>,
    shown: &mut String,
) -> Result<usize, DecodeError> {
    let mut record = |input: &[u8], mode| {
        read_record::<SHOW>(child, input, mode, paths, out).map(|read| {
            let shown = if SHOW {
                shown_record(&read)
            } else {
                String::new()
            };
            (Shown(shown), read.len)
        })
    };
    let (text, n) = if field.optional {
        let (v, n) = crate::codec::option::decode_option(input, field.placed, &mut record)?;
        let text = if SHOW {
            format!("{v:?}")
        } else {
            String::new()
        };
        if v.is_none() {
            out.push((paths[field.leaf], Value::Null));
        }
        (text, n)
    } else {
        let (v, n) = record(input, field.placed)?;
        (v.0, n)
    };
    if SHOW {
        *shown = text;
    }
    Ok(n)
}

/// Recomputes and checks the prefix of a key of `node` from its decoded values (`values`, the
/// fields' in order from the first).
fn check_prefix(
    node: &Node,
    mode: FieldMode,
    prefix: &[u8],
    r: &KeyReader<'_>,
    values: &[(&str, Value)],
    paths: &[&str],
) -> Result<(), DecodeError> {
    // The decoded values back into slots: the sources' value bytes are fed from them.
    let range = node.leaves.clone();
    let mut slots: Vec<Option<&Value>> = alloc::vec![None; range.end];
    for (path, value) in values {
        if let Some(i) = paths[range.clone()].iter().position(|p| p == path) {
            slots[range.start + i] = Some(value);
        }
    }
    let feed = |h: &mut dyn ValueSink| feed_sources(node, &slots, h, node.key_name());
    match node.prefix {
        Prefix::Salt(salt) if node.whole_key => steps::read_salt(salt, prefix).and_then(|found| {
            steps::check_whole_key_salt(salt, mode, found, r.read_from(node.body_start()))
        }),
        Prefix::Salt(salt) => steps::read_salt(salt, prefix)
            .and_then(|found| steps::check_salt(salt, mode, found, |h| feed(h))),
        Prefix::Hash(hash) => steps::check_hash_prefix(hash, mode, prefix, |h| feed(h)),
        _ => Ok(()),
    }
}

/// A nested key as derived `Debug` shows it: `Inner { region: 3, name: "eu" }`, a variant
/// `Order { id: 3 }`, a variant without fields by its name.
fn shown_record(read: &Read<'_>) -> String {
    let name = read.node.short_name();
    if read.rows.is_empty() {
        return String::from(name);
    }
    let fields: Vec<String> = read
        .rows
        .iter()
        .map(|r| format!("{}: {}", r.name, r.shown))
        .collect();
    format!("{name} {{ {} }}", fields.join(", "))
}

/// `K::explain` of the key `read` read.
pub(crate) fn explain(read: &Read<'_>, key: &[u8]) -> Explained {
    let n = read.node;
    let mut e = Explained::new(n.name, key);
    if !n.tag.is_none() {
        e.push_tag(n.tag, key);
    }
    if n.prefix_len() > 0 {
        let start = n.tag.encoded_len();
        e.push_prefix(
            n.prefix,
            key.get(start..start + n.prefix_len()).unwrap_or_default(),
        );
    }
    for row in &read.rows {
        let bytes = key.get(row.at..row.at + row.len).unwrap_or_default();
        e.push(row.name, bytes, row.shown.clone());
    }
    e
}
