//! The walk through a key: its tag, its prefix (reserved, then computed from its sources once
//! the fields are written), each field in its mode nested in the mode of the key that holds it,
//! and the text delimiters between them, written and read back by one family of functions over a
//! [`Layout`]. A derived key hands its fields over as a tuple ([`Fields`]); the derive writes no
//! walk of its own. What stands around the fields (tag, prefix, delimiters) is `frame.rs`, which
//! the schema's walk (`rowkey::schema`, fields known at run time) takes too, so a layout rule
//! lives here once.

use core::marker::PhantomData;

use crate::codec::binary::Binary;
use crate::codec::columns::Columns;
use crate::codec::FormatType;
use crate::cursor::{KeyReader, KeyWriter};
use crate::error::{DecodeError, EncodeError};
use crate::field::layout::Layout;
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::sink::ValueSink;

pub(crate) mod frame;
pub(crate) mod prefix_steps;
use frame::Sources;

/// What the walk does at each field of a key, given in key order with its index.
pub trait Visit {
    /// What stops the walk.
    type Error;

    /// The field at index `i`.
    fn field<T: KeyField + ?Sized>(&mut self, i: usize, value: &T) -> Result<(), Self::Error>;
}

/// What the walk does at each field of a key it reads, in key order.
pub trait Read<'k> {
    /// The field at index `i`, read.
    fn field<T: DecodeField<'k>>(&mut self, i: usize) -> Result<T, DecodeError>;
}

/// A key's fields, in key order: a tuple of them (`(&a, &b)` to write, `(A, B)` as read), or
/// [`Chunks`] of such tuples for keys of more fields than a tuple holds here.
pub trait Fields {
    /// How many fields.
    const COUNT: usize;

    /// Hands each field to `visit`, the first as index `first`.
    fn visit<V: Visit>(&self, first: usize, visit: &mut V) -> Result<(), V::Error>;
}

/// [`Fields`] that can be read from a key.
pub trait DecodeFields<'k>: Fields + Sized {
    /// Reads each field with `read`, the first as index `first`.
    fn read<R: Read<'k>>(first: usize, read: &mut R) -> Result<Self, DecodeError>;
}

/// The fields of a key of more fields than one tuple holds: a tuple of `Fields` tuples.
#[derive(Debug)]
pub struct Chunks<T>(pub T);

macro_rules! tuples {
    ($(($($n:tt $t:ident),+))+) => {$(
        impl<$($t: KeyField),+> Fields for ($($t,)+) {
            const COUNT: usize = [$($n),+].len();

            #[inline(always)]
            fn visit<V: Visit>(&self, first: usize, visit: &mut V) -> Result<(), V::Error> {
                $(visit.field(first + $n, &self.$n)?;)+
                Ok(())
            }
        }

        impl<'k, $($t: DecodeField<'k>),+> DecodeFields<'k> for ($($t,)+) {
            #[inline(always)]
            fn read<R: Read<'k>>(first: usize, read: &mut R) -> Result<Self, DecodeError> {
                Ok(($(read.field::<$t>(first + $n)?,)+))
            }
        }

        impl<$($t: Fields),+> Fields for Chunks<($($t,)+)> {
            const COUNT: usize = 0 $(+ $t::COUNT)+;

            #[inline(always)]
            #[allow(unused_assignments)] // the last chunk's end
            fn visit<V: Visit>(&self, first: usize, visit: &mut V) -> Result<(), V::Error> {
                let mut at = first;
                $(
                    visit_chunk(&self.0.$n, at, visit)?;
                    at += $t::COUNT;
                )+
                Ok(())
            }
        }

        impl<'k, $($t: DecodeFields<'k>),+> DecodeFields<'k> for Chunks<($($t,)+)> {
            #[inline(always)]
            #[allow(unused_assignments)] // the last chunk's end
            fn read<R: Read<'k>>(first: usize, read: &mut R) -> Result<Self, DecodeError> {
                let mut at = first;
                Ok(Chunks(($(
                    {
                        let chunk = read_chunk::<$t, R>(at, read)?;
                        at += $t::COUNT;
                        chunk
                    },
                )+)))
            }
        }
    )+};
}

// A chunk of a wide key, walked in a function of its own rather than inlined whole into its
// key's walk: one function of 128 fields' steps took LLVM 15 minutes to optimise at opt-level 1
// (tests/wide_keys.rs), where chunks of at most 12 take seconds. The optimiser may still inline a
// small chunk; a key of 12 fields or fewer is one tuple and never comes here.
fn visit_chunk<T: Fields, V: Visit>(
    chunk: &T,
    first: usize,
    visit: &mut V,
) -> Result<(), V::Error> {
    chunk.visit(first, visit)
}

fn read_chunk<'k, T: DecodeFields<'k>, R: Read<'k>>(
    first: usize,
    read: &mut R,
) -> Result<T, DecodeError> {
    T::read(first, read)
}

/// A variant with no fields: its tag alone.
impl Fields for () {
    const COUNT: usize = 0;

    #[inline(always)]
    fn visit<V: Visit>(&self, _: usize, _: &mut V) -> Result<(), V::Error> {
        Ok(())
    }
}

impl DecodeFields<'_> for () {
    #[inline(always)]
    fn read<R>(_: usize, _: &mut R) -> Result<Self, DecodeError> {
        Ok(())
    }
}

tuples! {
    (0 A)
    (0 A, 1 B)
    (0 A, 1 B, 2 C)
    (0 A, 1 B, 2 C, 3 D)
    (0 A, 1 B, 2 C, 3 D, 4 E)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J, 10 K, 11 L)
}

/// How many fields a tuple of `Fields` holds here: a key of more takes [`Chunks`].
pub const TUPLE_MAX: usize = 12;

/// The most fields a key (or an enum key's variant) may have: the bits of a layout's source mask,
/// within the `TUPLE_MAX` chunks of `TUPLE_MAX` fields the walk takes. The derive refuses more.
pub const MAX_FIELDS: usize = 128;
const _: () = assert!(MAX_FIELDS <= TUPLE_MAX * TUPLE_MAX && MAX_FIELDS <= u128::BITS as usize);

/// The length of the key of `layout` whose fields are `fields`, placed in `mode`.
#[inline(always)]
pub fn encoded_len_in<Fm: FormatType, F: Fields>(
    layout: &'static Layout,
    mode: FieldMode,
    fields: &F,
) -> usize {
    struct Len<Fm> {
        layout: &'static Layout,
        mode: FieldMode,
        len: usize,
        columns: Columns,
        format: PhantomData<Fm>,
    }
    impl<Fm: FormatType> Visit for Len<Fm> {
        type Error = core::convert::Infallible;
        #[inline(always)]
        fn field<T: KeyField + ?Sized>(&mut self, i: usize, value: &T) -> Result<(), Self::Error> {
            let mode = self.mode.nest(mode_of(self.layout, i));
            Fm::measure_column(&mut self.columns, &mut self.len, value, mode);
            Ok(())
        }
    }
    let mut len = Len {
        layout,
        mode,
        len: layout.around_fields(),
        columns: Columns::default(),
        format: PhantomData::<Fm>,
    };
    let Ok(()) = fields.visit(0, &mut len);
    Fm::key_len(&len.columns, len.len)
}

/// Writes the key of `layout` whose fields are `fields`, placed in `mode`, at the start of `out`:
/// the tag, the fields with their delimiters, then the prefix over what they wrote.
#[inline(always)]
pub fn encode_in<Fm: FormatType, F: Fields>(
    layout: &'static Layout,
    out: &mut [u8],
    mode: FieldMode,
    fields: &F,
) -> Result<usize, EncodeError> {
    struct Write<'w, 'o, Fm> {
        w: &'w mut KeyWriter<'o>,
        layout: &'static Layout,
        mode: FieldMode,
        columns: Columns,
        format: PhantomData<Fm>,
    }
    impl<Fm: FormatType> Visit for Write<'_, '_, Fm> {
        type Error = EncodeError;
        #[inline(always)]
        fn field<T: KeyField + ?Sized>(&mut self, i: usize, value: &T) -> Result<(), EncodeError> {
            if let Some(d) = frame::delimiter_before(self.layout, i) {
                self.w.delimiter(d)?;
            }
            let mode = self.mode.nest(mode_of(self.layout, i));
            let (key, field) = (self.layout.name, self.layout.segments[i].name);
            Fm::write_column(&mut self.columns, self.w, value, mode, key, field)
        }
    }
    let mut w = KeyWriter::new(out);
    frame::open(layout, &mut w)?;
    let mut write = Write {
        w: &mut w,
        layout,
        mode,
        columns: Columns::default(),
        format: PhantomData::<Fm>,
    };
    fields.visit(0, &mut write)?;
    let written = write.columns;
    Fm::finish_columns(&written, &mut w).map_err(|e| e.in_key(layout.name))?;
    frame::close(layout, &mut w, mode, &SourcesOf { layout, fields })?;
    Ok(w.written())
}

/// Reads the fields of a key of `layout` placed in `mode` from the start of `input`, checking
/// its tag and prefix: the fields and the bytes read.
#[inline(always)]
pub fn decode_in<'k, Fm: FormatType, F: DecodeFields<'k>>(
    layout: &'static Layout,
    input: &'k [u8],
    mode: FieldMode,
) -> Result<(F, usize), DecodeError> {
    struct ReadFields<'r, 'k, Fm> {
        r: &'r mut KeyReader<'k>,
        layout: &'static Layout,
        mode: FieldMode,
        columns: Columns,
        format: PhantomData<Fm>,
    }
    impl<'k, Fm: FormatType> Read<'k> for ReadFields<'_, 'k, Fm> {
        #[inline(always)]
        fn field<T: DecodeField<'k>>(&mut self, i: usize) -> Result<T, DecodeError> {
            if let Some(d) = frame::delimiter_before(self.layout, i) {
                self.r.delimiter(d)?;
            }
            let mode = self.mode.nest(mode_of(self.layout, i));
            let (key, field) = (self.layout.name, self.layout.segments[i].name);
            Fm::read_column(&mut self.columns, self.r, mode, key, field)
        }
    }
    let mut r = KeyReader::new(input);
    let prefix = frame::open_read(layout, &mut r)?;
    let mut read = ReadFields {
        r: &mut r,
        layout,
        mode,
        columns: Columns::default(),
        format: PhantomData::<Fm>,
    };
    let fields = F::read(0, &mut read)?;
    let read_columns = read.columns;
    Fm::read_columns_end(&read_columns, &mut r).map_err(|e| e.in_key(layout.name))?;
    let sources = SourcesOf {
        layout,
        fields: &fields,
    };
    frame::check(layout, prefix, &r, mode, &sources)?;
    Ok((fields, r.pos()))
}

/// [`encoded_len_in`] for a key whose format writes nothing between its fields (binary, text):
/// what every key but a Phoenix key's calls, so that its code names no format.
#[inline(always)]
pub fn encoded_len<F: Fields>(layout: &'static Layout, mode: FieldMode, fields: &F) -> usize {
    encoded_len_in::<Binary, F>(layout, mode, fields)
}

/// [`encode_in`] for a key whose format writes nothing between its fields (binary, text).
#[inline(always)]
pub fn encode<F: Fields>(
    layout: &'static Layout,
    out: &mut [u8],
    mode: FieldMode,
    fields: &F,
) -> Result<usize, EncodeError> {
    encode_in::<Binary, F>(layout, out, mode, fields)
}

/// [`decode_in`] for a key whose format writes nothing between its fields (binary, text).
#[inline(always)]
pub fn decode<'k, F: DecodeFields<'k>>(
    layout: &'static Layout,
    input: &'k [u8],
    mode: FieldMode,
) -> Result<(F, usize), DecodeError> {
    decode_in::<Binary, F>(layout, input, mode)
}

/// Whether `input` starts with the tag of `layout`: how an enum key finds its variant.
#[inline(always)]
pub fn opens(layout: &Layout, input: &[u8]) -> bool {
    layout.tag.opens(input)
}

/// The mode segment `i` of `layout` is placed in, within its key.
#[inline(always)]
fn mode_of(layout: &Layout, i: usize) -> FieldMode {
    layout.segments[i].encoding.mode()
}

/// The prefix sources of a derived key: the fields its layout marks, by their value bytes.
struct SourcesOf<'f, F> {
    layout: &'static Layout,
    fields: &'f F,
}

impl<F: Fields> Sources for SourcesOf<'_, F> {
    #[inline(always)]
    fn feed<S: ValueSink + ?Sized>(&self, sink: &mut S) -> Result<(), EncodeError> {
        struct Feed<'s, S: ValueSink + ?Sized> {
            layout: &'static Layout,
            sink: &'s mut S,
            fed: usize,
        }
        impl<S: ValueSink + ?Sized> Visit for Feed<'_, S> {
            type Error = EncodeError;
            #[inline(always)]
            fn field<T: KeyField + ?Sized>(
                &mut self,
                i: usize,
                value: &T,
            ) -> Result<(), EncodeError> {
                if !self.layout.is_source(i) {
                    return Ok(());
                }
                frame::join_source(self.layout, self.fed, self.sink);
                self.fed += 1;
                let segment = &self.layout.segments[i];
                value
                    .value_bytes(segment.encoding.mode(), self.sink)
                    .map_err(|e| e.in_field(self.layout.name, segment.name))
            }
        }
        self.fields.visit(
            0,
            &mut Feed {
                layout: self.layout,
                sink,
                fed: 0,
            },
        )
    }
}
