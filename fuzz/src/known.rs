//! Library bugs the fuzz targets found that are not fixed yet. The cases that would hit them are
//! skipped, so that fuzzing goes on finding others. Each is an ignored test in
//! `tests/fuzz_regressions.rs` named by the string returned here. When the library is fixed,
//! un-ignore the test and delete the function (the compiler then shows the call to remove).

use rowkey::{EncodeError, EncodeErrorKind, KeyRange, Prefix};

/// A query on a hash-prefixed layout that binds no field plans only the prefix of md5 of nothing.
pub fn unbound_hash_scan(prefix: Prefix, bound_fields: usize) -> Option<&'static str> {
    (matches!(prefix, Prefix::Hash(_)) && bound_fields == 0)
        .then_some("hash_prefixed_scan_with_nothing_bound_covers_the_whole_table")
}

/// `matches()` accepts a key whose salt component (its first `salt_len` bytes) starts no range: a
/// text salt not followed by its delimiter. Only for keys that are not keys of the layout.
pub fn malformed_salt_matches(
    salt_len: Option<usize>,
    key: &[u8],
    decodes: bool,
    ranges: &[KeyRange],
) -> Option<&'static str> {
    let salt = salt_len.and_then(|n| key.get(..n));
    (!decodes && salt.is_some_and(|s| !ranges.iter().any(|r| r.start().starts_with(s))))
        .then_some("text_salt_without_its_delimiter_does_not_match")
}

/// With a text delimiter of several characters, a segment that ends with the delimiter's first
/// characters makes a key that does not decode back to its value.
pub fn multi_char_delimiter(delimiter: Option<&str>) -> Option<&'static str> {
    delimiter
        .filter(|d| d.chars().count() > 1)
        .map(|_| "a_segment_ending_in_part_of_the_delimiter_is_rejected_or_round_trips")
}

/// The same bug in a query: a prefix that ends with the delimiter's first characters matches a
/// shorter segment and the start of the delimiter after it.
pub fn prefix_ends_in_part_of_delimiter(
    delimiter: Option<&str>,
    prefix: Option<&[u8]>,
) -> Option<&'static str> {
    let (d, p) = (delimiter?.as_bytes(), prefix?);
    (1..d.len())
        .any(|n| p.ends_with(&d[..n]))
        .then_some("a_segment_ending_in_part_of_the_delimiter_is_rejected_or_round_trips")
}

/// A padded segment of a text layout holds the delimiter: decoding accepts it, encoding the value
/// refuses it (`DelimiterInField`).
pub fn padded_text_with_delimiter(
    reencoded: &Result<Vec<u8>, EncodeError>,
) -> Option<&'static str> {
    matches!(reencoded, Err(e) if e.kind() == EncodeErrorKind::DelimiterInField)
        .then_some("a_padded_text_segment_holding_the_delimiter_does_not_decode")
}

/// A range on a text string segment that other segments follow is a filter, and its plan is the
/// whole table `[, )`, whatever the fields before it are bound to: on a salted layout that is no
/// longer one range per bucket.
pub fn text_filter_whole_table(exact: bool, ranges: &[KeyRange]) -> Option<&'static str> {
    (!exact && ranges.len() == 1 && ranges[0].start().is_empty() && ranges[0].stop().is_empty())
        .then_some("a_text_filter_keeps_the_bound_fields_and_the_salt_buckets")
}
