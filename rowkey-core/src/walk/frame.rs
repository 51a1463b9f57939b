//! What stands around a key's fields, written and read by one family of functions for every walk
//! through a key, a derived key's ([`super::encode`], [`super::decode`]) and a schema's
//! (`rowkey::schema`) alike: the tag, the prefix reserved before the fields and computed from
//! their values after them (checked when read), and the text delimiters between the fields. A
//! rule of this kind is written here once; a walk supplies only its fields.

use super::prefix_steps as steps;
use crate::cursor::{KeyReader, KeyWriter};
use crate::describe::frame::Frame;
use crate::describe::layout;
use crate::error::{DecodeError, EncodeError};
use crate::field::FieldMode;
use crate::prefix::Prefix;
use crate::sink::ValueSink;

/// The fields a prefix is computed from: their value bytes, fed in key order with
/// [`join_source`] before each.
pub(crate) trait Sources {
    /// Feeds the sources' value bytes to `sink`.
    fn feed<S: ValueSink + ?Sized>(&self, sink: &mut S) -> Result<(), EncodeError>;
}

/// The text delimiter before field `i` (the first comes after a prefix).
#[inline(always)]
pub(crate) fn delimiter_before<F: Frame + ?Sized>(frame: &F, i: usize) -> Option<&'static str> {
    layout::delimiter_before(frame.format().text(), frame.prefix_len(), i)
}

/// Feeds what joins the value bytes of source `n` (counted from 0) to the source's before it: a
/// text layout's delimiter, as the key shows them, so a prefix over text hashes what it shows.
#[inline(always)]
pub(crate) fn join_source<F: Frame + ?Sized, S: ValueSink + ?Sized>(
    frame: &F,
    n: usize,
    sink: &mut S,
) {
    // The delimiter is empty in every other format.
    let d = frame.format().delimiter();
    if n > 0 && !d.is_empty() {
        sink.write(d.as_bytes());
    }
}

/// Where the fields start after the tag: the prefix and, in text, its delimiter.
#[inline(always)]
fn body_start<F: Frame + ?Sized>(frame: &F) -> usize {
    match frame.prefix_len() {
        0 => 0,
        n => n + frame.format().delimiter().len(),
    }
}

/// Writes what comes before the fields: the tag, then the bytes the prefix takes (written by
/// [`close`] once the fields are).
#[inline(always)]
pub(crate) fn open<F: Frame + ?Sized>(frame: &F, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
    let tag = frame.tag();
    if !tag.is_none() {
        w.tag(tag)?;
    }
    let prefix_len = frame.prefix_len();
    if prefix_len > 0 {
        w.reserve(prefix_len)?;
    }
    Ok(())
}

/// Writes the prefix into the bytes [`open`] reserved, computed from `sources` (or, for a salt
/// over the whole key, from the key's bytes after it), the key placed in `mode`.
#[inline(always)]
pub(crate) fn close<F: Frame + ?Sized, S: Sources>(
    frame: &F,
    w: &mut KeyWriter<'_>,
    mode: FieldMode,
    sources: &S,
) -> Result<(), EncodeError> {
    let prefix_len = frame.prefix_len();
    match frame.prefix() {
        Prefix::None => {}
        Prefix::Salt(salt) => {
            let bucket = if frame.whole_key_salt() {
                steps::whole_key_salt_byte(salt, mode, w.written_from(body_start(frame)))?
            } else {
                steps::salt_byte(salt, mode, |h| sources.feed(h))?
            };
            steps::write_salt(salt, bucket, w.prefix_mut(prefix_len));
        }
        Prefix::Hash(hash) => {
            steps::write_hash_prefix(hash, w.prefix_mut(prefix_len), |h| sources.feed(h))?;
        }
    }
    Ok(())
}

/// Reads what comes before the fields: checks the tag, then takes the prefix's bytes (checked by
/// [`check`] once the fields are read).
#[inline(always)]
pub(crate) fn open_read<'k, F: Frame + ?Sized>(
    frame: &F,
    r: &mut KeyReader<'k>,
) -> Result<&'k [u8], DecodeError> {
    let tag = frame.tag();
    if !tag.is_none() {
        r.tag(tag, frame.key_name())?;
    }
    match frame.prefix_len() {
        0 => Ok(&[]),
        n => r.take(n),
    }
}

/// Checks the `prefix` [`open_read`] took against the one the fields read give (`sources`), the
/// key placed in `mode`.
#[inline(always)]
pub(crate) fn check<F: Frame + ?Sized, S: Sources>(
    frame: &F,
    prefix: &[u8],
    r: &KeyReader<'_>,
    mode: FieldMode,
    sources: &S,
) -> Result<(), DecodeError> {
    let checked = match frame.prefix() {
        Prefix::None => return Ok(()),
        Prefix::Salt(salt) => steps::read_salt(salt, prefix).and_then(|found| {
            if frame.whole_key_salt() {
                steps::check_whole_key_salt(salt, mode, found, r.read_from(body_start(frame)))
            } else {
                steps::check_salt(salt, mode, found, |h| sources.feed(h))
            }
        }),
        Prefix::Hash(hash) => steps::check_hash_prefix(hash, mode, prefix, |h| sources.feed(h)),
    };
    checked.map_err(|e| e.in_key(frame.key_name()))
}
