//! Keys as byte strings: their order, compared eight bytes at a time, and the stop row of a
//! prefix. Every range either planner builds gets its ends from here.

use core::cmp::Ordering;

/// Byte-string order, eight bytes at a time: keys are short, and a call to `memcmp` per
/// comparison was most of the cost of sorting a long IN list.
#[inline]
pub(crate) fn cmp_short(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.len().min(b.len());
    let (mut x, mut y) = (&a[..common], &b[..common]);
    while let (Some((x8, x_rest)), Some((y8, y_rest))) =
        (x.split_first_chunk::<8>(), y.split_first_chunk::<8>())
    {
        if x8 != y8 {
            return u64::from_be_bytes(*x8).cmp(&u64::from_be_bytes(*y8));
        }
        (x, y) = (x_rest, y_rest);
    }
    for (p, q) in x.iter().zip(y) {
        if p != q {
            return p.cmp(q);
        }
    }
    a.len().cmp(&b.len())
}

/// Turns `key` in place into the first key after every key it prefixes, HBase's
/// `ClientUtil.calculateTheClosestNextRowKeyForPrefix`: trailing `FF`s dropped, the last byte
/// left incremented. Returns the new length; 0 is the end of the table (the key was empty or all
/// `FF`: no key comes after every key it prefixes).
#[inline(always)]
pub(crate) fn next_prefix(key: &mut [u8]) -> usize {
    let keep = key.iter().rposition(|&b| b != 0xFF).map_or(0, |i| i + 1);
    if let Some(last) = key[..keep].last_mut() {
        *last += 1;
    }
    keep
}

/// The first key after every key that starts with `prefix`: `prefix` with its trailing `FF` bytes
/// removed and its last byte incremented; empty (the end of the table) when `prefix` is empty or
/// all `FF`. HBase's `ClientUtil.calculateTheClosestNextRowKeyForPrefix`; public as the stop of
/// [`KeyRange::prefix`](super::KeyRange::prefix).
pub(crate) fn prefix_stop(prefix: &[u8]) -> alloc::vec::Vec<u8> {
    let mut stop = prefix.to_vec();
    let n = next_prefix(&mut stop);
    stop.truncate(n);
    stop
}
