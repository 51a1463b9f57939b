//! Writing and reading a key's parts in sequence: the tag, the prefix, the fields and the text
//! delimiters between them, with every error located in its key and field.

use crate::codec::{out_prefix, take, too_small};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::key::RowKey;
use crate::tag::Tag;

/// Writes fields one after another into an output buffer.
#[derive(Debug)]
pub struct KeyWriter<'o> {
    out: &'o mut [u8],
    pos: usize,
    /// Where the key after its tag starts: the offsets of the prefix are counted from here.
    base: usize,
}

impl<'o> KeyWriter<'o> {
    #[inline(always)]
    pub fn new(out: &'o mut [u8]) -> Self {
        KeyWriter {
            out,
            pos: 0,
            base: 0,
        }
    }

    /// Writes the tag, first of all: the prefix and fields follow it.
    #[inline(always)]
    pub fn tag(&mut self, tag: Tag) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        self.pos += tag.write(rest)?;
        self.base = self.pos;
        Ok(())
    }

    #[inline(always)]
    pub fn field<T: KeyField + ?Sized>(
        &mut self,
        value: &T,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        match value.encode(rest, mode) {
            Ok(n) => {
                self.pos += n;
                Ok(())
            }
            Err(e) => Err(e.in_field(key, field)),
        }
    }

    /// Reserves the first `n` bytes for the prefix, written once the fields are.
    #[inline(always)]
    pub fn reserve(&mut self, n: usize) -> Result<(), EncodeError> {
        out_prefix(self.out.get_mut(self.base..).unwrap_or_default(), n)?;
        self.pos = self.base + n;
        Ok(())
    }

    /// The first `n` bytes after the tag (the reserved prefix).
    #[inline(always)]
    pub fn prefix_mut(&mut self, n: usize) -> &mut [u8] {
        &mut self.out[self.base..self.base + n]
    }

    /// The bytes written from `from` (counted after the tag) on.
    #[inline(always)]
    pub fn written_from(&self, from: usize) -> &[u8] {
        self.out.get(self.base + from..self.pos).unwrap_or_default()
    }

    /// Writes the text format's delimiter between two segments.
    #[inline(always)]
    pub fn delimiter(&mut self, delimiter: &str) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        out_prefix(rest, delimiter.len())?.copy_from_slice(delimiter.as_bytes());
        self.pos += delimiter.len();
        Ok(())
    }

    /// The number of bytes written so far.
    #[inline(always)]
    pub fn written(&self) -> usize {
        self.pos
    }
}

/// Reads fields one after another from a key.
#[derive(Debug)]
pub struct KeyReader<'k> {
    input: &'k [u8],
    pos: usize,
    /// Where the key after its tag starts.
    base: usize,
}

impl<'k> KeyReader<'k> {
    #[inline(always)]
    pub fn new(input: &'k [u8]) -> Self {
        KeyReader {
            input,
            pos: 0,
            base: 0,
        }
    }

    /// Expects the tag of the key type `name`, first of all.
    #[inline(always)]
    pub fn tag(&mut self, tag: Tag, name: &'static str) -> Result<(), DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        self.pos += tag.read(rest, name).map_err(|e| e.in_key(name))?;
        self.base = self.pos;
        Ok(())
    }

    /// Takes the tag when the key starts with it: how an enum key finds its variant.
    #[inline(always)]
    pub fn take_tag(&mut self, tag: Tag) -> bool {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let opens = tag.opens(rest);
        if opens {
            self.pos += tag.encoded_len();
            self.base = self.pos;
        }
        opens
    }

    #[inline(always)]
    pub fn field<T: DecodeField<'k>>(
        &mut self,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<T, DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        match T::decode_field(rest, mode) {
            Ok((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            Err(e) => Err(e.in_field(key, field, self.pos)),
        }
    }

    /// Expects the text format's delimiter between two segments.
    #[inline(always)]
    pub fn delimiter(&mut self, delimiter: &str) -> Result<(), DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        if !rest.starts_with(delimiter.as_bytes()) {
            return Err(DecodeError::new(
                DecodeErrorKind::InvalidText("expected the delimiter between segments"),
                self.pos,
            ));
        }
        self.pos += delimiter.len();
        Ok(())
    }

    /// The next `n` bytes (the prefix).
    #[inline(always)]
    pub fn take(&mut self, n: usize) -> Result<&'k [u8], DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let bytes = take(rest, n).map_err(|e| e.in_field("", "", self.pos))?;
        self.pos += n;
        Ok(bytes)
    }

    /// The bytes read from `from` on.
    #[inline(always)]
    pub fn read_from(&self, from: usize) -> &'k [u8] {
        self.input
            .get(self.base + from..self.pos)
            .unwrap_or_default()
    }

    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.pos
    }
}

/// `RowKey::encode_into` of a derived key: the key is its own field in the last position. `head`
/// is the bytes every key starts with before a field of varying length
/// ([`head_len`](super::head_len)).
#[inline(always)]
pub fn encode_key<K: RowKey + KeyField + ?Sized>(
    key: &K,
    out: &mut [u8],
    name: &'static str,
    head: usize,
) -> Result<usize, EncodeError> {
    encode_key_in(key, out, FieldMode::LAST, name, head)
}

/// [`encode_key`] in `mode` (which may carry a writer-chosen salt bucket).
#[inline(always)]
pub fn encode_key_in<K: RowKey + KeyField + ?Sized>(
    key: &K,
    out: &mut [u8],
    mode: FieldMode,
    name: &'static str,
    head: usize,
) -> Result<usize, EncodeError> {
    let available = out.len();
    // A fixed layout checks the buffer once, up front. The fields then write at offsets the
    // compiler knows into a slice it knows is long enough, and their own checks fold away.
    if let Some(len) = const { K::SHAPE.fixed_len(FieldMode::LAST) } {
        if let Some(exact) = out.get_mut(..len) {
            return match key.encode(exact, mode) {
                Ok(n) => Ok(n),
                Err(e) => Err(locate_encode_error(e, key, available, name)),
            };
        }
    }
    // Keys of varying length check the buffer for their head once, up front: the leading
    // fields' own checks fold into it, as a hand-written encoder checks its buffer once.
    if out.len() < head {
        return Err(locate_encode_error(
            too_small(head, available),
            key,
            available,
            name,
        ));
    }
    let n = match key.encode(out, mode) {
        Ok(n) => n,
        Err(e) => return Err(locate_encode_error(e, key, available, name)),
    };
    if n > K::ROW_LIMIT {
        return Err(row_too_long(n, K::ROW_LIMIT, name));
    }
    Ok(n)
}

#[cold]
fn locate_encode_error<K: RowKey + ?Sized>(
    e: EncodeError,
    key: &K,
    available: usize,
    name: &'static str,
) -> EncodeError {
    match e.kind() {
        // A field saw only the rest of the buffer; report the whole key's need.
        EncodeErrorKind::BufferTooSmall { .. } => {
            EncodeError::new(EncodeErrorKind::BufferTooSmall {
                needed: key.encoded_len(),
                available,
            })
            .in_key(name)
        }
        _ => e.in_key(name),
    }
}

#[cold]
fn decode_too_long(len: usize, max: usize, name: &'static str) -> DecodeError {
    DecodeError::new(DecodeErrorKind::RowTooLong { len, max }, 0).in_key(name)
}

#[cold]
fn row_too_long(len: usize, max: usize, name: &'static str) -> EncodeError {
    EncodeError::new(EncodeErrorKind::RowTooLong { len, max }).in_key(name)
}

/// `DecodeKey::decode` of a derived key: the key is its own field, and must use every byte, and be
/// no longer than the layout's row limit, as encoding requires.
#[inline(always)]
pub fn decode_key<'k, K: DecodeField<'k> + RowKey>(
    input: &'k [u8],
    name: &'static str,
) -> Result<K, DecodeError> {
    decode_key_in(input, FieldMode::LAST, name)
}

/// [`decode_key`] in `mode` (which may accept any salt bucket).
#[inline(always)]
pub fn decode_key_in<'k, K: DecodeField<'k> + RowKey>(
    input: &'k [u8],
    mode: FieldMode,
    name: &'static str,
) -> Result<K, DecodeError> {
    // A key of a fixed layout's exact length takes a copy of the decoder specialised to that
    // length, with every field's bounds check folded away; other lengths take the general one,
    // which locates the error.
    if let Some(len) = const { K::SHAPE.fixed_len(FieldMode::LAST) } {
        if input.len() == len {
            if let Ok((key, _)) = K::decode_field(input, mode) {
                return Ok(key);
            }
        }
    }
    // A fixed layout within the limit (the derive checks it) took the path above.
    if input.len() > K::ROW_LIMIT {
        return Err(decode_too_long(input.len(), K::ROW_LIMIT, name));
    }
    let (key, n) = K::decode_field(input, mode).map_err(|e| e.in_key(name))?;
    if n != input.len() {
        return Err(DecodeError::new(
            DecodeErrorKind::TrailingBytes {
                count: input.len() - n,
            },
            n,
        )
        .in_key(name));
    }
    Ok(key)
}
