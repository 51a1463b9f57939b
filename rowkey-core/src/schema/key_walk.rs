//! Keys walked at run time as generated code walks them: the tag, the reserved prefix, each field
//! in its mode (nested in the mode of the field that holds the key), the text delimiters, then
//! the prefix computed from its sources. What stands around the fields is the core's walk
//! (`walk::frame`), the derived keys' own, over a [`Node`] as over a `Layout`; this file gives it
//! the fields, from a key's values. Decoding reads the same parts back and checks the prefix;
//! `explain` shows them.
//!
//! A key's values are a slice of slots, one a dotted path (`Node::number`): a field's slot holds
//! its value, a variant's slot names the variant alone, and a nested key's fields sit in the slots
//! of its node's range.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;
use core::marker::PhantomData;

use super::convert::Run;
use super::nodes::{Field, Kind, Node};
use super::typed::{encode_inline, with_typed};
use super::value::Value;
use crate::codec::columns::Columns;
use crate::codec::{with_format, Format};
use crate::cursor::KeyWriter;
use crate::describe::frame::Frame;
use crate::error::{EncodeError, EncodeErrorKind};
use crate::field::{FieldMode, FieldShape, KeyField};
use crate::format::KeyFormat;
use crate::prefix::Prefix;
use crate::sink::ValueSink;
use crate::tag::Tag;
use crate::walk::frame::{self, Sources};

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
        record_len(self.node, self.slots, mode, self.placed)
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        encode_record(self.node, self.slots, out, mode, self.placed)
    }
}

/// The length of the key of `node` whose values are `slots`, placed in `mode`: what
/// [`encode_record`] writes, measured as the derived walk's `walk::encoded_len` measures (the
/// frame around the fields, then each field's `field_len`), nothing encoded. 0 when the values
/// make no key of `node` (encoding says why).
fn record_len(node: &Node, slots: &Slots<'_>, mode: FieldMode, placed: bool) -> usize {
    /// One value's length in its mode.
    struct Len(FieldMode);
    impl Run for Len {
        type Out = usize;
        fn run<T: KeyField + Debug>(self, values: &[T]) -> usize {
            values.first().map_or(0, |v| v.field_len(self.0))
        }
    }
    let value = |field: &Field| slots.get(field.leaf).copied().flatten();
    if placed && node.plain {
        return node
            .fields
            .iter()
            .map(|field| match value(field) {
                Some(v) => with_typed(field, &[v], Len(field.placed)).unwrap_or(0),
                None => 0,
            })
            .sum();
    }
    let node = if node.is_enum() {
        match variant(node, slots) {
            Some(v) => v,
            None => return 0,
        }
    } else {
        node
    };
    let mut len = node.tag.encoded_len() + node.prefix_len();
    len += (0..node.fields.len())
        .filter_map(|i| frame::delimiter_before(node, i))
        .map(str::len)
        .sum::<usize>();
    with_format!(node.format, Fm => measure_fields::<Fm>(node, slots, mode, placed, len))
}

/// Adds the fields of `node` to `len`, what stands around them: each measured with its
/// format's column step (`Format::measure_column`, the derived walk's), then the key's length as
/// the format ends it.
fn measure_fields<Fm: Format>(
    node: &Node,
    slots: &Slots<'_>,
    mode: FieldMode,
    placed: bool,
    mut len: usize,
) -> usize {
    /// One value's length, with what stands before it, added to the key's so far.
    struct Measure<'c, Fm> {
        columns: &'c mut Columns,
        len: &'c mut usize,
        mode: FieldMode,
        format: PhantomData<Fm>,
    }
    impl<Fm: Format> Run for Measure<'_, Fm> {
        type Out = ();
        fn run<T: KeyField + Debug>(self, values: &[T]) {
            if let Some(v) = values.first() {
                Fm::measure_column(self.columns, self.len, v, self.mode);
            }
        }
    }
    let mut columns = Columns::default();
    for field in &node.fields {
        let run = Measure::<Fm> {
            columns: &mut columns,
            len: &mut len,
            mode: if placed {
                field.placed
            } else {
                mode.nest(field.mode)
            },
            format: PhantomData,
        };
        match &field.kind {
            Kind::Record(child) => with_record(field, child, slots, placed, run),
            _ => {
                if let Some(v) = slots.get(field.leaf).copied().flatten() {
                    let _ = with_typed(field, &[v], run);
                }
            }
        }
    }
    Fm::key_len(&columns, len)
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

/// Writes one value with its type's own `encode`, and what its format keeps before it (`Fm`'s
/// column step, the derived walk's); `false` when it fails, the error in `error`. (A small
/// result: a whole `EncodeError` returned through each layer is copied back out of the stack in
/// wider loads than it was stored with, and that stalled the walk.)
struct Encode<'c, 'w, 'o, 'e, Fm> {
    columns: &'c mut Columns,
    w: &'w mut KeyWriter<'o>,
    mode: FieldMode,
    key: &'static str,
    field: &'static str,
    error: &'e mut Option<EncodeError>,
    format: PhantomData<Fm>,
}

impl<Fm: Format> Run for Encode<'_, '_, '_, '_, Fm> {
    type Out = bool;
    fn run<T: KeyField + Debug>(self, values: &[T]) -> bool {
        let [v] = values else {
            return true;
        };
        match Fm::write_column(self.columns, self.w, v, self.mode, self.key, self.field) {
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
        return encode_plain(node, slots, out, key);
    }
    let node = if node.is_enum() {
        variant(node, slots).ok_or_else(|| unfit(String::new()))?
    } else {
        node
    };
    let mut w = KeyWriter::new(out);
    frame::open(node, &mut w)?;
    with_format!(node.format, Fm => encode_fields::<Fm>(node, slots, &mut w, mode, placed, key))?;
    frame::close(node, &mut w, mode, &SlotSources { node, slots })?;
    Ok(w.written())
}

/// [`encode_record`] of a plain node written where it stands: its fields one after another, each
/// in the mode fixed for it there.
#[inline(always)]
fn encode_plain(
    node: &Node,
    slots: &Slots<'_>,
    out: &mut [u8],
    key: &'static str,
) -> Result<usize, EncodeError> {
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
    Ok(w.written())
}

/// Writes the fields of `node` (a struct or a variant) after its tag and reserved prefix: each
/// with the text delimiter before it (the first only after a prefix) and what its format keeps
/// between columns (`Fm`'s column steps, the derived walk's), then ends them as the format does.
#[inline(always)]
fn encode_fields<Fm: Format>(
    node: &Node,
    slots: &Slots<'_>,
    w: &mut KeyWriter<'_>,
    mode: FieldMode,
    placed: bool,
    key: &'static str,
) -> Result<(), EncodeError> {
    let mut columns = Columns::default();
    for (i, field) in node.fields.iter().enumerate() {
        if let Some(delimiter) = frame::delimiter_before(node, i) {
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
        let value = slots.get(field.leaf).copied().flatten();
        let run = Encode::<Fm> {
            columns: &mut columns,
            w: &mut *w,
            mode: *field_mode,
            key,
            field: field.name,
            error: &mut error,
            format: PhantomData,
        };
        let written = match (&field.kind, value) {
            (Kind::Record(child), _) => with_record(field, child, slots, placed, run),
            // The schema's own lanes for common types, where nothing stands between fields.
            (_, Some(v)) if Fm::PLAIN_COLUMNS => {
                encode_inline(field, v, run.w, field_mode, key, run.error)
            }
            (_, Some(v)) => with_typed(field, &[v], run).unwrap_or(false),
            (_, None) => false,
        };
        if !written {
            return Err(error.unwrap_or_else(|| unfit(String::new())));
        }
    }
    Fm::finish_columns(&columns, w).map_err(|e| e.in_key(key))
}

impl Frame for Node {
    #[inline(always)]
    fn key_name(&self) -> &'static str {
        self.key_name()
    }
    #[inline(always)]
    fn tag(&self) -> Tag {
        self.tag
    }
    #[inline(always)]
    fn prefix(&self) -> Prefix {
        self.prefix
    }
    #[inline(always)]
    fn prefix_len(&self) -> usize {
        self.prefix_len()
    }
    #[inline(always)]
    fn format(&self) -> KeyFormat {
        self.format
    }
    #[inline(always)]
    fn whole_key_salt(&self) -> bool {
        self.whole_key
    }
}

/// The prefix sources of a key of `node` whose values are `slots`.
pub(super) struct SlotSources<'a> {
    pub(super) node: &'a Node,
    pub(super) slots: &'a Slots<'a>,
}

impl Sources for SlotSources<'_> {
    fn feed<S: ValueSink + ?Sized>(&self, sink: &mut S) -> Result<(), EncodeError> {
        let node = self.node;
        for (n, &i) in node.sources.iter().enumerate() {
            frame::join_source(node, n, sink);
            let field = &node.fields[i];
            with_field(
                field,
                self.slots,
                Feed {
                    h: &mut *sink,
                    mode: field.mode,
                },
            )
            .ok_or_else(|| unfit(String::new()))?
            .map_err(|e| e.in_field(node.key_name(), field.name))?;
        }
        Ok(())
    }
}
