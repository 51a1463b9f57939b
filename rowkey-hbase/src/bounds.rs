//! Scan bounds HBase can take. HBase refuses a start or stop row longer than its row limit
//! (`rowkey::hbase::MAX_ROW_LENGTH`), and Thrift2's `TScan` has only an inclusive start and an
//! exclusive stop. A plan's bound can be longer by a byte (the stop `k 00` after a key `k` of the
//! limit's length, or `Scan::after` such a key), and so can the start of the next page after such
//! a row. Each is replaced by a bound of at most the limit that holds the same storable keys.
//!
//! Why it holds: for `p`, the first `max` bytes of a longer bound `b`, a key `k` of at most `max`
//! bytes is below `b` exactly when `k <= p` (`p` is a proper prefix of `b`; a `k` below `b` either
//! is a prefix of `p` or differs from it first at a smaller byte), and at or above `b` exactly when
//! `k > p`. The keys just above `p` that are not longer than `max` start at the stop row of the
//! prefix `p` (`p` with its last byte below 0xFF raised by one, the 0xFF bytes after it dropped),
//! since every key between is `p` followed by more bytes. So `k <= p` is `k` below that row, and
//! `k > p` is `k` at or above it.

use rowkey::{EncodeError, EncodeErrorKind, KeyRange};

/// `range` as bounds of at most `max` bytes holding the same keys of at most `max` bytes: `None`
/// when it holds none of any length. An error when it holds keys, all longer than `max`.
pub(crate) fn storable(range: &KeyRange, max: usize) -> Result<Option<KeyRange>, EncodeError> {
    if range.is_empty() {
        return Ok(None);
    }
    let (start, stop) = (range.start(), range.stop());
    let Some(new_start) = start_at_most(start, max) else {
        return Err(too_long(start.len(), max));
    };
    let new_stop = if stop.len() > max {
        // Empty: the end of the table, when `p` is all 0xFF.
        prefix_stop(&stop[..max])
    } else {
        stop.to_vec()
    };
    let cut = KeyRange::new(&new_start, &new_stop);
    if cut.is_empty() {
        return Err(too_long(start.len().max(stop.len()), max));
    }
    Ok(Some(cut))
}

/// Where the next page of a range starts after the row `key`: the first key of at most `max`
/// bytes above it, `None` when there is none.
pub(crate) fn start_after(key: &[u8], max: usize) -> Option<Vec<u8>> {
    if key.len() < max {
        let mut start = Vec::with_capacity(key.len() + 1);
        start.extend_from_slice(key);
        start.push(0);
        return Some(start);
    }
    start_at_most(&[key, &[0]].concat(), max)
}

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

/// The stop row of the prefix `p`: the first key above every key that starts with it (empty when
/// `p` is all 0xFF).
fn prefix_stop(p: &[u8]) -> Vec<u8> {
    KeyRange::prefix(p).stop().to_vec()
}

#[cold]
fn too_long(len: usize, max: usize) -> EncodeError {
    EncodeError::new(EncodeErrorKind::RowTooLong { len, max })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte string of up to `len` bytes over bytes that matter at the edges.
    fn keys(len: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..len {
            let mut next = Vec::new();
            for k in &last {
                for b in [0x00u8, 0x01, 0xFE, 0xFF] {
                    let mut k = k.clone();
                    k.push(b);
                    next.push(k);
                }
            }
            all.extend(next.iter().cloned());
            last = next;
        }
        all
    }

    #[test]
    fn cut_bounds_hold_the_same_storable_keys_by_brute_force() {
        const MAX: usize = 2;
        let bounds = keys(MAX + 1);
        let storable_keys: Vec<_> = keys(MAX);
        for start in &bounds {
            for stop in &bounds {
                let range = KeyRange::new(start, stop);
                let wanted: Vec<_> = storable_keys.iter().filter(|k| range.contains(k)).collect();
                match storable(&range, MAX) {
                    Ok(Some(cut)) => {
                        assert!(cut.start().len() <= MAX && cut.stop().len() <= MAX);
                        let got: Vec<_> =
                            storable_keys.iter().filter(|k| cut.contains(k)).collect();
                        assert_eq!(got, wanted, "{range:?} cut to {cut:?}");
                    }
                    Ok(None) => assert!(range.is_empty(), "{range:?} dropped"),
                    Err(e) => {
                        assert!(
                            wanted.is_empty(),
                            "{range:?} refused ({e}) but holds {wanted:?}"
                        );
                        assert!(!range.is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn the_next_page_starts_at_the_first_storable_key_after_the_last_row() {
        const MAX: usize = 2;
        let all = keys(MAX);
        for row in &all {
            let next = start_after(row, MAX);
            let first_above = all.iter().filter(|k| k.as_slice() > row.as_slice()).min();
            match (next, first_above) {
                (Some(next), Some(first)) => {
                    assert!(next.len() <= MAX);
                    // No storable key lies between the row and the next start.
                    assert!(all
                        .iter()
                        .all(|k| !(k.as_slice() > row.as_slice() && k < &next)));
                    assert!(next.as_slice() <= first.as_slice());
                }
                (None, None) => {}
                (next, first) => panic!("after {row:?}: {next:?}, first above {first:?}"),
            }
        }
    }
}
