//! The prefix component's steps in a key's walk: after the fields are written, compute and write
//! the salt byte or hash prefix from the sources; after they are read, recompute and check it.
//! Generated code calls these (through `rowkey::__private`), and so does a schema read at run
//! time (`rowkey::schema`).

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::mode::FieldMode;
use crate::prefix::{HashPrefix, HashPrefixHasher, Salt, SaltHasher};
use crate::sink::ValueSink;

/// The salt byte to write: the writer's chosen bucket, or the one `feed` computes from the sources.
#[inline(always)]
pub fn salt_byte(
    salt: Salt,
    mode: FieldMode,
    feed: impl FnOnce(&mut SaltHasher) -> Result<(), EncodeError>,
) -> Result<u8, EncodeError> {
    if let Some(bucket) = mode.chosen_bucket() {
        if u16::from(bucket) >= salt.buckets() {
            return Err(EncodeError::new(EncodeErrorKind::BucketOutOfRange {
                bucket,
                buckets: salt.buckets(),
            }));
        }
        return Ok(bucket);
    }
    let mut h = salt.hasher();
    feed(&mut h)?;
    Ok(h.finish())
}

/// The salt byte of a whole-key salt over `body`, the key after the salt byte.
#[inline(always)]
pub fn whole_key_salt_byte(salt: Salt, mode: FieldMode, body: &[u8]) -> Result<u8, EncodeError> {
    salt_byte(salt, mode, |h| {
        ValueSink::write(h, body);
        Ok(())
    })
}

/// Checks a decoded key's salt byte: first that it is below the bucket count (no salt of the
/// layout gives another), then that it is the bucket `feed` computes from its decoded sources
/// (unless `mode` accepts any bucket). A mode that checks no prefix
/// (`explain_best_effort`'s second look) takes any byte.
#[inline(always)]
pub fn check_salt(
    salt: Salt,
    mode: FieldMode,
    found: u8,
    feed: impl FnOnce(&mut SaltHasher) -> Result<(), EncodeError>,
) -> Result<(), DecodeError> {
    if mode.skips_prefix_check() {
        return Ok(());
    }
    if u16::from(found) >= salt.buckets() {
        return Err(DecodeError::new(
            DecodeErrorKind::BucketOutOfRange {
                bucket: found,
                buckets: salt.buckets(),
                text: salt.is_text(),
            },
            0,
        ));
    }
    if mode.accepts_any_bucket() {
        return Ok(());
    }
    let mut h = salt.hasher();
    feed(&mut h).map_err(source_error)?;
    let expected = h.finish();
    if expected != found {
        return Err(DecodeError::new(
            DecodeErrorKind::WrongSalt {
                expected,
                found,
                text: salt.is_text(),
            },
            0,
        ));
    }
    Ok(())
}

/// [`check_salt`] for a whole-key salt over `body`, the key after the salt byte.
#[inline(always)]
pub fn check_whole_key_salt(
    salt: Salt,
    mode: FieldMode,
    found: u8,
    body: &[u8],
) -> Result<(), DecodeError> {
    check_salt(salt, mode, found, |h| {
        ValueSink::write(h, body);
        Ok(())
    })
}

/// Writes the hash prefix of the sources `feed` gives into `out`.
#[inline(always)]
pub fn write_hash_prefix(
    hash: HashPrefix,
    out: &mut [u8],
    feed: impl FnOnce(&mut HashPrefixHasher) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let mut h = hash.hasher();
    feed(&mut h)?;
    h.finish_into(out);
    Ok(())
}

/// Checks a decoded key's hash prefix against the MD5 of its decoded sources (unless `mode`
/// accepts any bucket or checks no prefix, as `explain_best_effort`'s second look asks).
#[inline(always)]
pub fn check_hash_prefix(
    hash: HashPrefix,
    mode: FieldMode,
    found: &[u8],
    feed: impl FnOnce(&mut HashPrefixHasher) -> Result<(), EncodeError>,
) -> Result<(), DecodeError> {
    if mode.accepts_any_bucket() || mode.skips_prefix_check() {
        return Ok(());
    }
    let mut h = hash.hasher();
    feed(&mut h).map_err(source_error)?;
    let expected = h.finish();
    if expected.get(..found.len()) != Some(found) {
        return Err(DecodeError::new(DecodeErrorKind::WrongHashPrefix, 0));
    }
    Ok(())
}

/// A decoded source whose value bytes cannot be produced (only hand-written `KeyField`s can fail so).
#[cold]
fn source_error(_: EncodeError) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::Invalid("a salt or hash source could not produce its value bytes"),
        0,
    )
}

/// Writes the salt bucket into the reserved prefix ([`Salt::write_bucket`]).
#[inline(always)]
pub fn write_salt(salt: Salt, bucket: u8, out: &mut [u8]) {
    salt.write_bucket(bucket, out);
}

/// Reads the salt bucket from a key's prefix ([`Salt::read_bucket`]).
#[inline(always)]
pub fn read_salt(salt: Salt, prefix: &[u8]) -> Result<u8, DecodeError> {
    salt.read_bucket(prefix)
}
