//! Keys read back at run time as generated code reads them, the other half of `key_walk.rs`:
//! the tag (or the variant it names), the prefix taken, each field in its mode with the text
//! delimiters between them, nested keys, then the prefix checked against its sources; `explain`
//! shows the rows.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::convert::Sink;
use super::key_walk::SlotSources;
use super::nodes::{Field, Kind, Node};
use super::stand_ins::Shown;
use super::typed::decode_inline;
use super::value::Value;
use crate::codec::columns::Columns;
use crate::codec::{with_format, Format};
use crate::cursor::KeyReader;
use crate::describe::explain::Explained;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::field::FieldMode;
use crate::prefix::Prefix;
use crate::walk::frame;

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
        return read_plain(node, input, out, key);
    }
    with_format!(node.format, Fm => read_framed::<Fm, SHOW>(node, input, mode, paths, out))
}

/// [`read_record`] of a node with more than its fields (a tag, a prefix, delimiters, variants,
/// nested keys, a format that keeps columns), in the format `Fm`. Out of line: inlined, the three
/// formats' copies made `read_record`'s plain path, the common one, dearer (1,031 instructions to
/// decode the quickstart key, and 2.8x the derive's time; out of line 1,022 and 2.58x, against
/// 1,010 and 2.51x to 2.57x with one copy).
#[inline(never)]
fn read_framed<'n, 's, Fm: Format, const SHOW: bool>(
    node: &'n Node,
    input: &[u8],
    mode: FieldMode,
    paths: &[&'s str],
    out: &mut Vec<(&'s str, Value)>,
) -> Result<Read<'n>, DecodeError> {
    let key = node.key_name();
    let node = read_variant(node, input, key)?;
    let mut r = KeyReader::new(input);
    let prefix = frame::open_read(node, &mut r)?;
    if node.is_variant && node.fields.is_empty() {
        out.push((paths[node.leaf], Value::Null));
    }
    let first = out.len();
    let rows = read_fields::<Fm, SHOW>(node, input, &mut r, mode, paths, out, key)?;
    if !matches!(node.prefix, Prefix::None) {
        check_prefix(node, mode, prefix, &r, &out[first..], paths)?;
    }
    Ok(Read {
        node,
        rows,
        len: r.pos(),
    })
}

/// [`read_record`] of a plain node without `SHOW`: fields one after another, each in the mode
/// fixed where it stands.
#[inline(always)]
fn read_plain<'n>(
    node: &'n Node,
    input: &[u8],
    out: &mut Vec<(&str, Value)>,
    key: &'static str,
) -> Result<Read<'n>, DecodeError> {
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
    Ok(Read {
        node,
        rows: Vec::new(),
        len: at,
    })
}

/// The node a key of `node` is read as: for an enum with data, the variant whose tag the key
/// opens with ([`frame::open_read`] then reads the tag).
#[inline(always)]
fn read_variant<'n>(
    node: &'n Node,
    input: &[u8],
    key: &'static str,
) -> Result<&'n Node, DecodeError> {
    if !node.is_enum() {
        return Ok(node);
    }
    match node.variants.iter().find(|v| v.tag.opens(input)) {
        Some(v) => Ok(v),
        None => Err(DecodeError::new(DecodeErrorKind::UnknownTag { name: key }, 0).in_key(key)),
    }
}

/// Reads the fields of `node` (a struct or a variant) after its tag and prefix, each with the
/// text delimiter before it (the first only after a prefix) and what its format keeps between
/// columns (`Fm`'s steps, as the derived walk reads them): their rows with `SHOW`, none without.
#[inline(always)]
fn read_fields<'s, Fm: Format, const SHOW: bool>(
    node: &Node,
    input: &[u8],
    r: &mut KeyReader<'_>,
    mode: FieldMode,
    paths: &[&'s str],
    out: &mut Vec<(&'s str, Value)>,
    key: &'static str,
) -> Result<Vec<Row>, DecodeError> {
    let mut rows = Vec::new();
    let mut shown = String::new();
    let mut columns = Columns::default();
    for (i, field) in node.fields.iter().enumerate() {
        if let Some(delimiter) = frame::delimiter_before(node, i) {
            r.delimiter(delimiter)?;
        }
        Fm::read_before(&columns, r).map_err(|e| e.in_key(key))?;
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
        Fm::after_read(&mut columns, n, field.variable, field.placed);
        if SHOW {
            rows.push(Row {
                name: field.name,
                at,
                len: n,
                shown: core::mem::take(&mut shown),
            });
        }
    }
    Fm::read_columns_end(&columns, r).map_err(|e| e.in_key(key))?;
    Ok(rows)
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
    let sources = SlotSources {
        node,
        slots: &slots,
    };
    frame::check(node, prefix, r, mode, &sources)
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
