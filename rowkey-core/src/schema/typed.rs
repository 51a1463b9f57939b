//! From a [`Value`] to the Rust type its field stands for, and back: the schema encodes, decodes
//! and plans every field with that type's own `KeyField` and `DecodeField`, the impls generated
//! code calls, so the two cannot disagree on a byte. [`dispatch`] is the one table from a field's
//! [`Kind`] to its type; a field's [`Codec`] is picked from it once, when the schema is read.
//! Nested keys are the schema's own walk of their layout (`codec.rs`), which follows the steps of
//! the derive's generated code.

use alloc::string::String;
use alloc::vec::Vec;

use super::convert::{convert_and_run, Run, Sink};
use super::field_types::{ByteString, FieldType, Own, Text, Visit};
use super::nodes::{Codec, Field, Inline, Kind, Node};
use super::stand_ins::{ByteArray, Digest, Discriminant, Opaque};
use super::value::Value;
use crate::codec::{with_format, Format};
use crate::cursor::KeyWriter;
use crate::error::{DecodeError, EncodeError};
use crate::field::FieldMode;

/// Calls `v.visit::<F>()` with the [`FieldType`] of `kind`; `None` for a nested key, which is the
/// schema's walk rather than one type.
pub(crate) fn dispatch<V: Visit>(kind: &Kind, v: V) -> Option<V::Out> {
    Some(match kind {
        Kind::Unsigned(1) => v.visit::<Own<u8>>(),
        Kind::Unsigned(2) => v.visit::<Own<u16>>(),
        Kind::Unsigned(4) => v.visit::<Own<u32>>(),
        Kind::Unsigned(8) => v.visit::<Own<u64>>(),
        Kind::Unsigned(_) => v.visit::<Own<u128>>(),
        Kind::Signed(1) => v.visit::<Own<i8>>(),
        Kind::Signed(2) => v.visit::<Own<i16>>(),
        Kind::Signed(4) => v.visit::<Own<i32>>(),
        Kind::Signed(8) => v.visit::<Own<i64>>(),
        Kind::Signed(_) => v.visit::<Own<i128>>(),
        Kind::F32 => v.visit::<Own<f32>>(),
        Kind::F64 => v.visit::<Own<f64>>(),
        Kind::Bool => v.visit::<Own<bool>>(),
        Kind::Char => v.visit::<Own<char>>(),
        Kind::Str => v.visit::<Text>(),
        Kind::Bytes => v.visit::<ByteString>(),
        Kind::Array(_) => v.visit::<ByteArray>(),
        Kind::Digest(_) => v.visit::<Digest>(),
        Kind::Opaque(_) => v.visit::<Opaque>(),
        Kind::SystemTime => v.visit::<std::time::SystemTime>(),
        Kind::Enum(_) => v.visit::<Discriminant>(),
        #[cfg(feature = "uuid")]
        Kind::Uuid => v.visit::<Own<uuid::Uuid>>(),
        #[cfg(feature = "decimal")]
        Kind::Decimal => v.visit::<Own<rust_decimal::Decimal>>(),
        #[cfg(feature = "chrono")]
        Kind::Chrono(c) => super::chrono::dispatch(*c, v),
        Kind::Record(_) => return None,
    })
}

/// Converts `values` to the Rust type of `field` and runs `run` on them; an error names the value
/// that does not fit.
pub(crate) fn with_typed<'v, R: Run>(
    field: &'v Field,
    values: &[&'v Value],
    run: R,
) -> Result<R::Out, String> {
    struct Convert<'v, 'a, R> {
        field: &'v Field,
        values: &'a [&'v Value],
        run: R,
    }
    impl<'v, R: Run> Visit for Convert<'v, '_, R> {
        type Out = Result<R::Out, String>;
        fn visit<F: FieldType>(self) -> Self::Out {
            let field = self.field;
            convert_and_run(
                field.optional,
                self.values,
                |v| F::from_value(field, v),
                self.run,
            )
        }
    }
    let convert = Convert { field, values, run };
    dispatch(&field.kind, convert)
        .unwrap_or_else(|| Err(String::from("a nested key takes its fields by dotted path")))
}

/// Sets the [`Codec`] of every field in `node` and the keys nested in it: the [`FieldType`] of
/// its kind, picked once when the schema is read.
pub(crate) fn pick_codecs(node: &mut Node) {
    for v in &mut node.variants {
        pick_codecs(v);
    }
    for f in &mut node.fields {
        match &mut f.kind {
            // A nested key is the walk's: its codec stays the one that refuses.
            Kind::Record(child) => pick_codecs(child),
            kind => {
                f.codec = codec_of(kind, f.optional).unwrap_or(Codec::REFUSE);
                f.variable = variable_of(kind, f.mode);
            }
        }
    }
}

/// Refuses a width a field's type does not take, as the derive refuses it, in `node` and every
/// node in it: a binary integer's is at most its size (`FieldShape`'s rule), and no width is
/// longer than a key may be (a text number's counts digits). Taken as it is, a plan would set
/// aside that many bytes before the codec refused it.
pub(crate) fn check_widths(node: &Node) -> Result<(), super::SchemaError> {
    for f in &node.fields {
        if let Some(w) = f.mode.width() {
            let refused = match shape_of(f) {
                Some(shape) => !with_format!(node.format, F => F::accepts_width(shape, w)),
                None => w > crate::hbase::MAX_ROW_LENGTH,
            };
            if refused {
                return Err(super::SchemaError::unsupported(alloc::format!(
                    "`{}.{}`: a `{}` does not take `width = {w}`",
                    node.name,
                    f.name,
                    f.ty
                )));
            }
        }
        if let Kind::Record(child) = &f.kind {
            check_widths(child)?;
        }
    }
    node.variants.iter().try_for_each(check_widths)
}

/// The shape of the Rust type `field` stands for (behind its `Option`); `None` for a nested key.
pub(crate) fn shape_of(field: &Field) -> Option<crate::field::FieldShape> {
    struct Shape;
    impl Visit for Shape {
        type Out = crate::field::FieldShape;
        fn visit<F: FieldType>(self) -> Self::Out {
            <F::Write<'static> as crate::field::KeyField>::SHAPE
        }
    }
    let shape = match field.kind {
        // The stand-in holds arrays of every length; the field's is its own.
        Kind::Array(n) => crate::codec::fixed::byte_array_shape(n),
        ref kind => dispatch(kind, Shape)?,
    };
    Some(if field.optional {
        shape.optional()
    } else {
        shape
    })
}

/// Whether a field of `kind` varies in length in `mode` (see [`Field::variable`]).
fn variable_of(kind: &Kind, mode: FieldMode) -> bool {
    struct Variable(FieldMode);
    impl Visit for Variable {
        type Out = bool;
        fn visit<F: FieldType>(self) -> bool {
            crate::codec::columns::variable::<F::Write<'static>>(self.0)
        }
    }
    dispatch(kind, Variable(mode)).unwrap_or(true)
}

/// The [`Codec`] of a field of `kind`; `None` for a nested key.
fn codec_of(kind: &Kind, optional: bool) -> Option<Codec> {
    struct Pick {
        optional: bool,
    }
    impl Visit for Pick {
        type Out = Codec;
        fn visit<F: FieldType>(self) -> Codec {
            Codec {
                encode: encode_one::<F>,
                decode: decode_one::<F>,
                inline: if self.optional {
                    Inline::Call
                } else {
                    Inline::of::<F>()
                },
            }
        }
    }
    dispatch(kind, Pick { optional })
}

/// The Rust type of each [`Inline`] lane: the field types the walk writes and reads in its own
/// loop, [`encode_inline`] and [`decode_inline`], rather than through a call to the field's
/// codec (the common key types, not optional; the call it saves is a fifth of decoding a key
/// like the quickstart's). Each is written and read by the same `encode_one`/`decode_one` steps,
/// `F`'s own `KeyField` and `DecodeField`. The compiler holds this list and `Inline`'s variants
/// to each other: the matches below name every variant.
macro_rules! inline_types {
    ($($variant:ident => $ty:ty,)*) => {
        impl Inline {
            /// `F`'s place in the list.
            fn of<F: FieldType>() -> Inline {
                use core::any::TypeId;
                $(if TypeId::of::<F>() == TypeId::of::<$ty>() {
                    return Inline::$variant;
                })*
                Inline::Call
            }
        }

        /// [`Codec::encode`] of `field`, its type's steps inlined when the list has it.
        #[inline(always)]
        pub(crate) fn encode_inline(
            field: &Field,
            value: &Value,
            w: &mut KeyWriter<'_>,
            mode: &FieldMode,
            key: &'static str,
            error: &mut Option<EncodeError>,
        ) -> bool {
            match field.codec.inline {
                $(Inline::$variant => write_value::<$ty>(field, value, w, *mode, key, error),)*
                Inline::Call => (field.codec.encode)(field, value, w, mode, key, error),
            }
        }

        /// [`Codec::decode`] of `field` (without `explain`'s text), its type's steps inlined
        /// when the list has it.
        #[inline(always)]
        pub(crate) fn decode_inline(
            field: &Field,
            input: &[u8],
            out: &mut Vec<(&str, Value)>,
            error: &mut Option<DecodeError>,
        ) -> Option<usize> {
            match field.codec.inline {
                $(Inline::$variant => read_value::<$ty>(field, input, out, error),)*
                Inline::Call => (field.codec.decode)(field, input, Sink { out, shown: None }, error),
            }
        }
    };
}

inline_types! {
    U8 => Own<u8>,
    U16 => Own<u16>,
    U32 => Own<u32>,
    U64 => Own<u64>,
    I8 => Own<i8>,
    I16 => Own<i16>,
    I32 => Own<i32>,
    I64 => Own<i64>,
    Str => Text,
    Bytes => ByteString,
    Enum => Discriminant,
}

/// A value that is not optional written as `F`: `false` when it is not one (`error` stays `None`)
/// or `F` refuses it (`error` says why).
#[inline(always)]
fn write_value<F: FieldType>(
    field: &Field,
    value: &Value,
    w: &mut KeyWriter<'_>,
    mode: FieldMode,
    key: &'static str,
    error: &mut Option<EncodeError>,
) -> bool {
    let written = match F::from_value(field, value) {
        Ok(t) => w.field(&t, mode, key, field.name),
        Err(_) => return false,
    };
    match written {
        Ok(()) => true,
        Err(e) => {
            *error = Some(e);
            false
        }
    }
}

/// A value that is not optional read as `F` and pushed; the bytes it took, or `None` with the
/// reason in `error`.
#[inline(always)]
fn read_value<F: FieldType>(
    field: &Field,
    input: &[u8],
    out: &mut Vec<(&str, Value)>,
    error: &mut Option<DecodeError>,
) -> Option<usize> {
    match F::decode(field, input, field.placed) {
        Ok((v, n)) => {
            out.push((field.path, F::to_value(field, v)));
            Some(n)
        }
        Err(e) => {
            *error = Some(e);
            None
        }
    }
}

/// A field's [`EncodeFn`](super::nodes::EncodeFn) for its type `F`: the value as `F` (or
/// `Option<F>`), written by `F`'s own `KeyField`.
fn encode_one<F: FieldType>(
    field: &Field,
    value: &Value,
    w: &mut KeyWriter<'_>,
    mode: &FieldMode,
    key: &'static str,
    error: &mut Option<EncodeError>,
) -> bool {
    let mode = *mode;
    if !field.optional {
        return write_value::<F>(field, value, w, mode, key, error);
    }
    let written = match value {
        Value::Null => w.field(&None::<F::Write<'_>>, mode, key, field.name),
        v => match F::from_value(field, v) {
            Ok(t) => w.field(&Some(t), mode, key, field.name),
            Err(_) => return false,
        },
    };
    match written {
        Ok(()) => true,
        Err(e) => {
            *error = Some(e);
            false
        }
    }
}

/// A field's [`DecodeFn`](super::nodes::DecodeFn) for its type `F`: read by `F`'s own
/// `DecodeField` (behind the `Option` codec's tag when the field is optional), pushed as a value.
fn decode_one<F: FieldType>(
    field: &Field,
    input: &[u8],
    sink: Sink<'_, '_>,
    error: &mut Option<DecodeError>,
) -> Option<usize> {
    use core::fmt::Write as _;
    // The mode is read where the field keeps it, not copied into a call for each value.
    let mode = &field.placed;
    let (value, n) = if field.optional {
        match crate::codec::option::decode_option(input, *mode, |input, mode| {
            F::decode(field, input, mode)
        }) {
            Ok(read) => read,
            Err(e) => {
                *error = Some(e);
                return None;
            }
        }
    } else {
        match F::decode(field, input, *mode) {
            Ok((v, n)) => (Some(v), n),
            Err(e) => {
                *error = Some(e);
                return None;
            }
        }
    };
    if let Some(shown) = sink.shown {
        if field.optional {
            let _ = write!(shown, "{value:?}");
        } else if let Some(v) = &value {
            let _ = write!(shown, "{v:?}");
        }
    }
    let value = value.map_or(Value::Null, |v| F::to_value(field, v));
    sink.out.push((field.path, value));
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane a field's type takes, as `pick_codecs` sets it.
    fn lane(kind: Kind, optional: bool) -> Inline {
        codec_of(&kind, optional).map_or(Inline::Call, |c| c.inline)
    }

    #[test]
    fn common_key_types_are_read_and_written_in_the_walk_itself() {
        let cases = [
            (Kind::Unsigned(1), Inline::U8),
            (Kind::Unsigned(2), Inline::U16),
            (Kind::Unsigned(4), Inline::U32),
            (Kind::Unsigned(8), Inline::U64),
            (Kind::Signed(1), Inline::I8),
            (Kind::Signed(2), Inline::I16),
            (Kind::Signed(4), Inline::I32),
            (Kind::Signed(8), Inline::I64),
            (Kind::Str, Inline::Str),
            (Kind::Bytes, Inline::Bytes),
            (Kind::Enum(alloc::vec![("A", 1)]), Inline::Enum),
            (Kind::Unsigned(16), Inline::Call),
            (Kind::F64, Inline::Call),
        ];
        for (kind, expected) in cases {
            let shown = alloc::format!("{kind:?}");
            assert_eq!(lane(kind, false), expected, "{shown}");
        }
        assert_eq!(
            lane(Kind::Unsigned(8), true),
            Inline::Call,
            "an Option<u64>"
        );
    }
}
