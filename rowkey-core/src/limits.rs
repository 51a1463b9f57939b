//! The longest row key each store accepts, in bytes: the one place these numbers live. A key
//! longer than its store's limit is refused by the store, often only when the write reaches a
//! server; checking it first turns that into an [`EncodeError`]
//! ([`EncodeErrorKind::RowTooLong`]) before any request.
//!
//! ```
//! use rowkey::limits;
//! assert_eq!(limits::HBASE, i16::MAX as usize); // Java's Short.MAX_VALUE
//! assert_eq!(limits::BIGTABLE, 4 * 1024);
//! assert!(limits::check(&[0u8; 4096], limits::BIGTABLE).is_ok());
//! let err = limits::check(&[0u8; 4097], limits::BIGTABLE).unwrap_err();
//! assert!(err.to_string().contains("4097 bytes, longer than the row limit of 4096"));
//! ```

use crate::error::{EncodeError, EncodeErrorKind};
#[cfg(feature = "alloc")]
use crate::scan::KeyRange;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// HBase: `HConstants.MAX_ROW_LENGTH`, `Short.MAX_VALUE` (its home is
/// [`hbase::MAX_ROW_LENGTH`](crate::hbase::MAX_ROW_LENGTH), with HBase's other rules).
pub const HBASE: usize = crate::hbase::MAX_ROW_LENGTH;

/// Cloud Bigtable: 4 KiB.
pub const BIGTABLE: usize = 4_096;

/// TiKV: its default `max-key-size`, 4 KiB (configurable on the server).
pub const TIKV: usize = 4_096;

/// FoundationDB: 10,000 bytes.
pub const FOUNDATIONDB: usize = 10_000;

/// DynamoDB: a sort key of 1,024 bytes.
pub const DYNAMODB_SORT_KEY: usize = 1_024;

/// `Ok` when `key` is at most `max` bytes long, otherwise
/// [`EncodeErrorKind::RowTooLong`] with the key's length.
///
/// ```
/// use rowkey::{limits, EncodeErrorKind};
/// let err = limits::check(&[0u8; 1025], limits::DYNAMODB_SORT_KEY).unwrap_err();
/// assert_eq!(err.kind(), EncodeErrorKind::RowTooLong { len: 1025, max: 1024 });
/// ```
pub const fn check(key: &[u8], max: usize) -> Result<(), EncodeError> {
    if key.len() > max {
        return Err(EncodeError::new(EncodeErrorKind::RowTooLong {
            len: key.len(),
            max,
        }));
    }
    Ok(())
}

#[cfg(feature = "alloc")]
/// `range` as bounds of at most `max` bytes that hold the same keys of at most `max` bytes: what
/// a store that refuses longer bounds can be sent. `Ok(None)` when `range` is empty; an error
/// ([`EncodeErrorKind::RowTooLong`]) when it holds keys, but all of them longer than `max`.
///
/// A plan's bound can be a byte longer than any key it reads: the stop `k 00` after a key `k` of
/// the limit's length, or the start after such a key. Each is cut to its first `max` bytes `p` and,
/// where that alone would change the keys, moved to the stop row of the prefix `p`.
///
/// Why it holds: for `p`, the first `max` bytes of a longer bound `b`, a key `k` of at most `max`
/// bytes is below `b` exactly when `k <= p` (`p` is a proper prefix of `b`; a `k` below `b` either
/// is a prefix of `p` or differs from it first at a smaller byte), and at or above `b` exactly when
/// `k > p`. The keys just above `p` that are not longer than `max` start at the stop row of the
/// prefix `p` (`p` with its last byte below 0xFF raised by one, the 0xFF bytes after it dropped),
/// since every key between is `p` followed by more bytes. So `k <= p` is `k` below that row, and
/// `k > p` is `k` at or above it.
///
/// ```
/// use rowkey::{limits, KeyRange};
/// // The one 4 KiB key k: [k, k 00) becomes [k, k with its last byte raised).
/// let k = [7u8; 4096];
/// let range = KeyRange::new(&k, &[&k[..], &[0]].concat());
/// let cut = limits::clamp(&range, limits::BIGTABLE)?.unwrap();
/// assert_eq!(cut.start(), &k[..]);
/// assert_eq!(cut.stop(), &[&[7u8; 4095][..], &[8]].concat()[..]);
/// // Only keys over the limit: an error before any request.
/// let long = [7u8; 5000];
/// assert!(limits::clamp(&KeyRange::new(&long, &[&long[..], &[0]].concat()), 4096).is_err());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn clamp(range: &KeyRange, max: usize) -> Result<Option<KeyRange>, EncodeError> {
    if range.is_empty() {
        return Ok(None);
    }
    let (start, stop) = (range.start(), range.stop());
    let Some(new_start) = start_at_most(start, max) else {
        return Err(too_long(start.len(), max));
    };
    let new_stop = if stop.len() > max {
        // Empty, the end of the table, when `p` is all 0xFF.
        prefix_stop(&stop[..max])
    } else {
        stop.to_vec()
    };
    let cut = KeyRange::new(&new_start, &new_stop);
    if cut.is_empty() {
        // The key asked for is the start when that is the long bound (the stop of a point is a
        // byte longer than its key).
        let len = if start.len() > max {
            start.len()
        } else {
            stop.len()
        };
        return Err(too_long(len, max));
    }
    Ok(Some(cut))
}

#[cfg(feature = "alloc")]
/// The first key of at most `max` bytes above `key`, `None` when there is none: where the next
/// page of a range starts after the row `key` on a store that refuses longer bounds.
///
/// ```
/// use rowkey::limits;
/// assert_eq!(limits::next_key(b"ab", 4), Some(b"ab\0".to_vec()));
/// assert_eq!(limits::next_key(b"ab", 2), Some(b"ac".to_vec()));
/// assert_eq!(limits::next_key(&[0xFF, 0xFF], 2), None);
/// ```
pub fn next_key(key: &[u8], max: usize) -> Option<Vec<u8>> {
    if key.len() < max {
        let mut next = Vec::with_capacity(key.len() + 1);
        next.extend_from_slice(key);
        next.push(0);
        return Some(next);
    }
    start_at_most(&[key, &[0]].concat(), max)
}

#[cfg(feature = "alloc")]
/// A start of at most `max` bytes with the same keys of at most `max` bytes at or above it as
/// `start`: `None` when no such key is.
fn start_at_most(start: &[u8], max: usize) -> Option<Vec<u8>> {
    if start.len() <= max {
        return Some(start.to_vec());
    }
    let next = prefix_stop(&start[..max]);
    // An empty stop row is the end of the table: no key of at most `max` bytes is above `p`.
    (!next.is_empty()).then_some(next)
}

#[cfg(feature = "alloc")]
/// The stop row of the prefix `p`: the first key above every key that starts with it (empty when
/// `p` is all 0xFF).
fn prefix_stop(p: &[u8]) -> Vec<u8> {
    KeyRange::prefix(p).stop().to_vec()
}

#[cfg(feature = "alloc")]
#[cold]
fn too_long(len: usize, max: usize) -> EncodeError {
    EncodeError::new(EncodeErrorKind::RowTooLong { len, max })
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::vec;

    /// Every byte string of up to `len` bytes over the bytes that matter at the edges.
    fn keys(len: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..len {
            last = last
                .iter()
                .flat_map(|k| [0x00u8, 0x01, 0xFE, 0xFF].map(|b| [&k[..], &[b]].concat()))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn clamped_bounds_hold_the_same_storable_keys_by_brute_force() {
        // Limit 2, every range with bounds of up to 4 bytes, every key of up to 2 bytes.
        const MAX: usize = 2;
        let stored = keys(MAX);
        let bounds = keys(MAX + 2);
        let (mut cut, mut refused) = (0, 0);
        for start in &bounds {
            for stop in &bounds {
                let range = KeyRange::new(start, stop);
                let held: Vec<_> = stored.iter().filter(|k| range.contains(k)).collect();
                match clamp(&range, MAX) {
                    Ok(Some(clamped)) => {
                        assert!(clamped.start().len() <= MAX && clamped.stop().len() <= MAX);
                        cut += usize::from(start.len() > MAX || stop.len() > MAX);
                        let got: Vec<_> = stored.iter().filter(|k| clamped.contains(k)).collect();
                        assert_eq!(got, held, "{range:?} clamped to {clamped:?}");
                    }
                    Ok(None) => assert!(range.is_empty(), "{range:?} dropped"),
                    Err(e) => {
                        refused += 1;
                        assert!(
                            held.is_empty(),
                            "{range:?} refused ({e}) but holds {held:?}"
                        );
                        assert!(!range.is_empty(), "{range:?}");
                        assert!(matches!(
                            e.kind(),
                            EncodeErrorKind::RowTooLong { max: MAX, .. }
                        ));
                    }
                }
            }
        }
        assert!(cut > 1_000 && refused > 100, "cut {cut}, refused {refused}");
    }

    #[test]
    fn the_next_key_is_the_first_storable_key_above() {
        const MAX: usize = 2;
        let all = keys(MAX);
        for key in &all {
            let above = |k: &&Vec<u8>| k.as_slice() > key.as_slice();
            match (next_key(key, MAX), all.iter().filter(above).min()) {
                (Some(next), Some(first)) => {
                    assert!(next.len() <= MAX && next.as_slice() > key.as_slice());
                    assert!(next <= *first, "after {key:?}: {next:?} past {first:?}");
                    // No storable key lies between the key and the next.
                    assert!(
                        !all.iter().filter(above).any(|k| *k < next),
                        "after {key:?}"
                    );
                }
                (None, None) => {}
                (next, first) => panic!("after {key:?}: {next:?}, first above {first:?}"),
            }
        }
    }
}
