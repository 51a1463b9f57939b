//! Text segments that a delimiter ends: where the delimiter is found, and which contents it can
//! end unambiguously. Codecs and the scan planner's text filters both read segments through here.

/// Where the first `delimiter` in `bytes` starts.
#[inline]
pub(crate) fn find(bytes: &[u8], delimiter: &[u8]) -> Option<usize> {
    if delimiter.is_empty() {
        return None;
    }
    bytes.windows(delimiter.len()).position(|w| w == delimiter)
}

/// Whether `content` followed by `delimiter` reads back as `content`: the first delimiter in the
/// two joined starts where the content ends. Not so when the content holds the delimiter, or ends
/// in the start of one that overlaps itself (`x:` before `::` reads as `x`, then `::`).
pub(crate) fn ends_cleanly(content: &[u8], delimiter: &[u8]) -> bool {
    if find(content, delimiter).is_some() {
        return false;
    }
    // An earlier delimiter must start in the content's last `len - 1` bytes and run into the
    // delimiter that follows.
    let overlap = delimiter.len().saturating_sub(1).min(content.len());
    let tail = &content[content.len() - overlap..];
    !(0..overlap).any(|i| {
        let head = &tail[i..];
        delimiter.starts_with(head)
            && delimiter[head.len()..] == delimiter[..delimiter.len() - head.len()]
    })
}

/// Whether a key whose segment content is shorter than `prefix` can still have bytes that start
/// with it: some end of `prefix` is a start of the delimiter that follows such content.
#[cfg(feature = "alloc")]
pub(crate) fn runs_into(prefix: &[u8], delimiter: &[u8]) -> bool {
    !delimiter.is_empty() && (0..prefix.len()).any(|i| delimiter.starts_with(&prefix[i..]))
}
