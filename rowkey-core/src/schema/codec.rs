//! Keys walked at run time as generated code walks them: the tag, the reserved prefix, each field
//! in its mode (nested in the mode of the field that holds the key), the text delimiters, then
//! the prefix computed from its sources, with the cursor and prefix steps generated code calls.
//! Decoding reads the same parts back and checks the prefix; `explain` shows them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use super::model::{Field, Node};
use super::typed::{self, with_typed, Run, Shown};
use super::value::Value;
use crate::cursor::{KeyReader, KeyWriter};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::explain::Explained;
use crate::field::{FieldMode, KeyField};
use crate::prefix::{steps, Prefix};
use crate::sink::ValueSink;

/// Fields by name, as a record value holds them.
type Fields = [(String, Value)];

/// The fields of a struct's value, or of an enum's variant with the variant's node.
fn parts<'v, 'n>(node: &'n Node, value: &'v Value) -> Result<(&'n Node, &'v Fields), String> {
    let Value::Record(entries) = value else {
        return Err(format!(
            "`{}` takes its fields by name, not {value}",
            node.name
        ));
    };
    if !node.is_enum() {
        return Ok((node, entries));
    }
    let [(variant, inner)] = entries.as_slice() else {
        return Err(format!("`{}` takes one variant", node.name));
    };
    let node = node
        .variants
        .iter()
        .find(|v| v.short_name() == variant)
        .ok_or_else(|| {
            let names: Vec<&str> = node.variants.iter().map(Node::short_name).collect();
            format!(
                "{variant:?} is not a variant of `{}`; expected one of {}",
                node.name,
                names.join(", ")
            )
        })?;
    match inner {
        Value::Record(fields) => Ok((node, fields)),
        Value::Null if node.fields.is_empty() => Ok((node, &[])),
        v => Err(format!("`{}` takes its fields by name, not {v}", node.name)),
    }
}

fn field_value<'v>(
    fields: &'v [(String, Value)],
    field: &Field,
    node: &Node,
) -> Result<&'v Value, String> {
    fields
        .iter()
        .find(|(name, _)| name == field.name)
        .map(|(_, v)| v)
        .ok_or_else(|| format!("`{}` has no value for `{}`", node.name, field.name))
}

/// Checks that `value` gives every field of `node` a value its type takes.
pub(crate) fn check_record(node: &Node, value: &Value) -> Result<(), String> {
    struct Check;
    impl Run for Check {
        type Out = ();
        fn run<T: KeyField + Debug>(self, _: &[T]) {}
    }
    let (node, fields) = parts(node, value)?;
    for (name, _) in fields {
        if !node.fields.iter().any(|f| f.name == name.as_str()) {
            return Err(format!("`{}` has no field `{name}`", node.name));
        }
    }
    for field in &node.fields {
        let v = field_value(fields, field, node)?;
        with_typed(field, &[v], Check).map_err(|e| format!("`{}`: {e}", field.name))?;
    }
    Ok(())
}

/// Writes one value with its type's own `encode`.
struct Encode<'w, 'o> {
    w: &'w mut KeyWriter<'o>,
    mode: FieldMode,
    key: &'static str,
    field: &'static str,
}

impl Run for Encode<'_, '_> {
    type Out = Result<(), EncodeError>;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> Self::Out {
        match values {
            [v] => self.w.field(v, self.mode, self.key, self.field),
            _ => Ok(()),
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

fn invalid(what: String) -> EncodeError {
    // The values were checked before encoding; this only guards against a mismatch.
    let _ = what;
    EncodeError::new(EncodeErrorKind::Unsupported(
        "a value the schema cannot encode",
    ))
}

/// Writes the key (or nested key) `value` of `node` at the start of `out`, placed with `mode`.
pub(crate) fn encode_record(
    node: &Node,
    value: &Value,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let key = node.key_name();
    let (node, fields) = parts(node, value).map_err(invalid)?;
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
        let v = field_value(fields, field, node).map_err(invalid)?;
        let run = Encode {
            w: &mut w,
            mode: mode.nest(field.mode),
            key,
            field: field.name,
        };
        with_typed(field, &[v], run).map_err(invalid)??;
    }
    let feed = |h: &mut dyn ValueSink| feed_sources(node, fields, h, key);
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
    fields: &[(String, Value)],
    h: &mut dyn ValueSink,
    key: &'static str,
) -> Result<(), EncodeError> {
    let delimiter = node.text.unwrap_or_default();
    for (n, &i) in node.sources.iter().enumerate() {
        if n > 0 && !delimiter.is_empty() {
            h.write(delimiter.as_bytes());
        }
        let field = &node.fields[i];
        let v = field_value(fields, field, node).map_err(invalid)?;
        with_typed(
            field,
            &[v],
            Feed {
                h,
                mode: field.mode,
            },
        )
        .map_err(invalid)?
        .map_err(|e| e.in_field(key, field.name))?;
    }
    Ok(())
}

/// One field as decoding found it: where it starts, its length, and its value as `Debug` shows it.
#[derive(Debug)]
pub(crate) struct Row {
    pub(crate) name: &'static str,
    pub(crate) at: usize,
    pub(crate) len: usize,
    pub(crate) shown: String,
}

/// A key (or nested key) read back: its value, the node it was read as (the variant of an enum),
/// its fields' rows, and the bytes it took.
pub(crate) struct Read<'n> {
    pub(crate) value: Value,
    pub(crate) node: &'n Node,
    pub(crate) rows: Vec<Row>,
    pub(crate) len: usize,
}

/// Reads a key (or nested key) of `node` from the start of `input`, placed with `mode`, and checks
/// its prefix.
pub(crate) fn read_record<'n>(
    node: &'n Node,
    input: &[u8],
    mode: FieldMode,
) -> Result<Read<'n>, DecodeError> {
    let key = node.key_name();
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
    let prefix_len = node.prefix_len();
    let prefix = if prefix_len > 0 {
        r.take(prefix_len)?
    } else {
        &[]
    };
    let delimiter = node.text.unwrap_or_default();
    let mut fields = Vec::with_capacity(node.fields.len());
    let mut rows = Vec::with_capacity(node.fields.len());
    for (i, field) in node.fields.iter().enumerate() {
        if !delimiter.is_empty() && (i > 0 || prefix_len > 0) {
            r.delimiter(delimiter)?;
        }
        let at = r.pos();
        let rest = input.get(at..).unwrap_or_default();
        let (value, shown, n) = typed::decode(field, rest, mode.nest(field.mode))
            .map_err(|e| e.in_field(key, field.name, at))?;
        // The reader moves past the field by reading it as bytes of a known length.
        r.take(n)?;
        rows.push(Row {
            name: field.name,
            at,
            len: n,
            shown,
        });
        fields.push((String::from(field.name), value));
    }
    let check = |h: &mut dyn ValueSink| feed_sources(node, &fields, h, key);
    let checked = match node.prefix {
        Prefix::Salt(salt) if node.whole_key => steps::read_salt(salt, prefix).and_then(|found| {
            steps::check_whole_key_salt(salt, mode, found, r.read_from(node.body_start()))
        }),
        Prefix::Salt(salt) => steps::read_salt(salt, prefix)
            .and_then(|found| steps::check_salt(salt, mode, found, |h| check(h))),
        Prefix::Hash(hash) => steps::check_hash_prefix(hash, mode, prefix, |h| check(h)),
        _ => Ok(()),
    };
    checked.map_err(|e| e.in_key(key))?;
    let value = match (node.is_variant, fields.is_empty()) {
        (true, true) => Value::Record(alloc::vec![(String::from(node.short_name()), Value::Null)]),
        (true, false) => Value::Record(alloc::vec![(
            String::from(node.short_name()),
            Value::Record(fields),
        )]),
        (false, _) => Value::Record(fields),
    };
    Ok(Read {
        value,
        node,
        rows,
        len: r.pos(),
    })
}

/// [`read_record`] as a field type's decode: the value, shown as derived `Debug` shows it.
pub(crate) fn decode_record(
    node: &Node,
    input: &[u8],
    mode: FieldMode,
) -> Result<(Shown, usize), DecodeError> {
    let read = read_record(node, input, mode)?;
    let shown = show(&read);
    Ok((Shown(read.value, shown), read.len))
}

/// A nested key as derived `Debug` shows it: `Inner { region: 3, name: "eu" }`, a variant
/// `Order { id: 3 }`, a variant without fields by its name.
fn show(read: &Read<'_>) -> String {
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

/// `K::explain` of a key of `node`, decoded in `mode`.
pub(crate) fn explain(node: &Node, key: &[u8], mode: FieldMode) -> Result<Explained, DecodeError> {
    let read = read_record(node, key, mode)?;
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
        e.push(
            row.name,
            key.get(row.at..row.at + row.len).unwrap_or_default(),
            row.shown.clone(),
        );
    }
    Ok(e)
}
