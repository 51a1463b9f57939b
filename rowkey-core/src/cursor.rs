//! Writing and reading a key's parts in sequence: the tag, the prefix, the fields and the text
//! delimiters between them, with every error located in its key and field. The key walk
//! (`walk/`) steps through a derived key with these, and so does a schema read at run time
//! (`rowkey::schema`).

use crate::buf::{out_prefix, take};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, KeyField};
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
    /// A writer at the start of `out`.
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

    /// Writes one field in `mode`; an error names `key` and `field`.
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

    /// Writes one field in `mode` `skip` bytes on, without moving past it (the bytes skipped are
    /// the caller's: Phoenix's separators held back); gives the bytes the field took.
    #[inline(always)]
    pub(crate) fn field_beyond<T: KeyField + ?Sized>(
        &mut self,
        skip: usize,
        value: &T,
        mode: FieldMode,
        key: &'static str,
        field: &'static str,
    ) -> Result<usize, EncodeError> {
        let rest = self.out.get_mut(self.pos + skip..).unwrap_or_default();
        value.encode(rest, mode).map_err(|e| e.in_field(key, field))
    }

    /// The next `n` bytes, which [`field_beyond`](KeyWriter::field_beyond) skipped.
    #[inline(always)]
    pub(crate) fn gap_mut(&mut self, n: usize) -> &mut [u8] {
        &mut self.out[self.pos..self.pos + n]
    }

    /// Moves past `n` bytes written in place.
    #[inline(always)]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// Writes one byte between fields (a Phoenix separator).
    #[inline(always)]
    pub(crate) fn byte(&mut self, b: u8) -> Result<(), EncodeError> {
        let rest = self.out.get_mut(self.pos..).unwrap_or_default();
        out_prefix(rest, 1)?[0] = b;
        self.pos += 1;
        Ok(())
    }

    /// Takes back what was written after the first `len` bytes (Phoenix's trailing NULLs).
    #[inline(always)]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.pos = self.pos.min(len);
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
    /// A reader at the start of `input`.
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

    /// Reads one field in `mode`; an error names `key` and `field`, and where it starts.
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

    /// The bytes read so far.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    #[inline(always)]
    pub(crate) fn rest(&self) -> &'k [u8] {
        self.input.get(self.pos..).unwrap_or_default()
    }

    /// Passes over `n` bytes the caller checked (a Phoenix separator).
    #[inline(always)]
    pub(crate) fn skip(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.input.len());
    }
}
