//! Merging sorted streams back into one order: a salted table returns each bucket's rows in key
//! order, but the buckets interleave; a reader that wants rows in the order of the unsalted key
//! merges the per-bucket streams by the key after its prefix. This is what Apache Phoenix's
//! `MergeSortRowKeyResultIterator` and OpenTSDB's `SaltScanner` do.
//!
//! ```
//! use rowkey::merge::merge_by_key;
//!
//! // Two buckets, each sorted by the key after its one-byte salt.
//! let bucket0 = vec![vec![0, 1], vec![0, 4]];
//! let bucket1 = vec![vec![1, 2], vec![1, 3]];
//! let merged: Vec<Vec<u8>> =
//!     merge_by_key(vec![bucket0.into_iter(), bucket1.into_iter()], 1, |k: &Vec<u8>| k.as_slice()).collect();
//! assert_eq!(merged, [vec![0, 1], vec![1, 2], vec![1, 3], vec![0, 4]]);
//! ```

use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::{Ordering, Reverse};

/// Merges `streams`, each sorted by the key that `key_of` gives after its first `salt_len`
/// bytes, into one stream in that order. Ties keep the order of the streams.
///
/// Each stream is read lazily, one item ahead; the heap holds one item per stream.
///
/// ```
/// use rowkey::merge::merge_by_key;
/// // Rows of two salt buckets, each sorted by the key after its one-byte salt.
/// let bucket0 = vec![(vec![0, 5], "a"), (vec![0, 9], "b")];
/// let bucket1 = vec![(vec![1, 5], "c"), (vec![1, 7], "d")];
/// let streams = vec![bucket0.into_iter(), bucket1.into_iter()];
/// let merged: Vec<&str> = merge_by_key(streams, 1, |(key, _): &(Vec<u8>, &str)| key.as_slice())
///     .map(|(_, value)| value)
///     .collect();
/// // 5, 5, 7, 9; on the tie at 5, bucket 0's row comes first.
/// assert_eq!(merged, ["a", "c", "d", "b"]);
/// ```
pub fn merge_by_key<I, F>(streams: Vec<I>, salt_len: usize, key_of: F) -> MergeByKey<I, F>
where
    I: Iterator,
    F: Fn(&I::Item) -> &[u8],
{
    let mut merge = MergeByKey {
        streams,
        heap: BinaryHeap::new(),
        salt_len,
        key_of,
    };
    for i in 0..merge.streams.len() {
        merge.refill(i);
    }
    merge
}

/// The iterator of [`merge_by_key`].
///
/// ```
/// use rowkey::merge::merge_by_key;
/// let streams = vec![vec![[0u8, 2]].into_iter(), vec![[1, 1], [1, 3]].into_iter()];
/// let mut merged = merge_by_key(streams, 1, |k: &[u8; 2]| &k[..]);
/// assert_eq!(merged.next(), Some([1, 1]));
/// assert_eq!(merged.next(), Some([0, 2]));
/// assert_eq!(merged.next(), Some([1, 3]));
/// assert_eq!(merged.next(), None);
/// ```
pub struct MergeByKey<I: Iterator, F> {
    streams: Vec<I>,
    heap: BinaryHeap<Reverse<Head<I::Item>>>,
    salt_len: usize,
    key_of: F,
}

impl<I: Iterator, F> core::fmt::Debug for MergeByKey<I, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MergeByKey")
            .field("streams", &self.streams.len())
            .field("salt_len", &self.salt_len)
            .finish_non_exhaustive()
    }
}

/// The next item of stream `stream`, ordered by the key after its prefix (then by stream).
struct Head<T> {
    sort_key: Vec<u8>,
    stream: usize,
    item: T,
}

impl<T> PartialEq for Head<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T> Eq for Head<T> {}

impl<T> PartialOrd for Head<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Head<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key
            .cmp(&other.sort_key)
            .then(self.stream.cmp(&other.stream))
    }
}

impl<I, F> MergeByKey<I, F>
where
    I: Iterator,
    F: Fn(&I::Item) -> &[u8],
{
    fn refill(&mut self, stream: usize) {
        if let Some(item) = self.streams[stream].next() {
            let key = (self.key_of)(&item);
            let sort_key = key.get(self.salt_len..).unwrap_or_default().to_vec();
            self.heap.push(Reverse(Head {
                sort_key,
                stream,
                item,
            }));
        }
    }
}

impl<I, F> Iterator for MergeByKey<I, F>
where
    I: Iterator,
    F: Fn(&I::Item) -> &[u8],
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let Reverse(head) = self.heap.pop()?;
        self.refill(head.stream);
        Some(head.item)
    }
}
