//! HBase's filters, run inside the region servers: a scan's `filterBytes` (Thrift2's `TScan`)
//! is a serialized `FilterProtos.Filter`, the filter's Java class name and its own message, as
//! HBase's Java client sends them. The messages are HBase's own, generated from the `.proto`
//! files of the pinned HBase (`src/proto/hbase.pb.rs`, by prost-build; `.ci/proto-check`
//! generates them again and fails on a difference).
//!
//! A read uses three of them, alone or together (`FilterList`, every one required):
//!
//! | filter | when | what the region servers skip |
//! |---|---|---|
//! | `MultiRowRangeFilter` | a scanner reads several ranges of a plan (one region's) | the rows between them, by seeking to the next range |
//! | `FuzzyRowFilter` | a plan wider than its query knows bytes at fixed offsets ([`rowkey::KeyPattern`]) | the rows whose bytes there differ, by seeking to the next that may match |
//! | `FirstKeyOnlyFilter` + `KeyOnlyFilter` | reads of keys alone | every cell but each row's first, and its value |

use prost::Message;
use rowkey::{KeyPattern, KeyRange};

use crate::proto::{
    filter_list, BytesBytesPair, FilterList, FirstKeyOnlyFilter, FuzzyRowFilter, KeyOnlyFilter,
    MultiRowRangeFilter, RowRange,
};

/// The package of HBase's filter classes, which a filter's name is in.
const PACKAGE: &str = "org.apache.hadoop.hbase.filter.";

/// A filter as HBase reads it: the class `name` (in HBase's filter package) and its message.
fn filter(name: &str, message: &impl Message) -> crate::proto::Filter {
    crate::proto::Filter {
        name: format!("{PACKAGE}{name}"),
        serialized_filter: Some(message.encode_to_vec()),
    }
}

/// What every scanner of one read asks the region servers to leave behind, besides its ranges.
#[derive(Clone, Debug, Default)]
pub(crate) struct Filters {
    /// Each row's key alone.
    pub(crate) keys_only: bool,
    /// The bytes every row the plan matches has at fixed offsets.
    pub(crate) pattern: Option<KeyPattern>,
}

impl Filters {
    /// The `filterBytes` of a scanner from `from` on: the ranges of `within` from `from` on (a
    /// `MultiRowRangeFilter`; `None` reads the scanner's own range whole) and this read's
    /// filters, or `None` when there is nothing to filter.
    pub(crate) fn bytes(&self, within: Option<&[KeyRange]>, from: &[u8]) -> Option<Vec<u8>> {
        let mut filters = Vec::new();
        if let Some(ranges) = within {
            filters.push(multi_row_range(ranges, from));
        }
        if let Some(pattern) = &self.pattern {
            filters.push(fuzzy_row(pattern));
        }
        if self.keys_only {
            filters.push(filter("FirstKeyOnlyFilter", &FirstKeyOnlyFilter {}));
            filters.push(filter(
                "KeyOnlyFilter",
                &KeyOnlyFilter { len_as_val: false },
            ));
        }
        match filters.len() {
            0 => None,
            1 => filters.pop().map(|f| f.encode_to_vec()),
            _ => {
                let list = FilterList {
                    operator: filter_list::Operator::MustPassAll as i32,
                    filters,
                };
                Some(filter("FilterList", &list).encode_to_vec())
            }
        }
    }
}

/// The ranges of `ranges` (sorted, not overlapping) that hold keys at or after `from`, the first
/// of them starting no earlier than `from`: what a scanner resumed at `from` has left to read.
pub(crate) fn remaining<'r>(
    ranges: &'r [KeyRange],
    from: &'r [u8],
) -> impl Iterator<Item = (&'r [u8], &'r [u8])> {
    // The first range whose stop is past `from` (an empty stop is the end of the table).
    let first = ranges.partition_point(|r| !r.stop().is_empty() && r.stop() <= from);
    ranges[first..]
        .iter()
        .map(move |r| (r.start().max(from), r.stop()))
}

/// HBase's `MultiRowRangeFilter` of the ranges of `ranges` left from `from` on: each
/// `[start, stop)`, start included and stop excluded as in a scan, an empty stop the end of the
/// table as HBase reads it.
fn multi_row_range(ranges: &[KeyRange], from: &[u8]) -> crate::proto::Filter {
    let row_range_list = remaining(ranges, from)
        .map(|(start, stop)| RowRange {
            start_row: Some(start.to_vec()),
            start_row_inclusive: Some(true),
            stop_row: Some(stop.to_vec()),
            stop_row_inclusive: Some(false),
        })
        .collect();
    filter(
        "MultiRowRangeFilter",
        &MultiRowRangeFilter { row_range_list },
    )
}

/// HBase's `FuzzyRowFilter` of `pattern`: one fuzzy key a byte string the pattern allows, its
/// mask 1 ("any byte") over the `offset` bytes before it and 0 ("this byte") over the string
/// (HBase's first mask form, which every 2.x server reads).
fn fuzzy_row(pattern: &KeyPattern) -> crate::proto::Filter {
    let offset = pattern.offset();
    let fuzzy_keys_data = pattern
        .alternatives()
        .map(|bytes| {
            let mut first = vec![0; offset];
            first.extend_from_slice(bytes);
            let mut second = vec![1; offset];
            second.resize(offset + bytes.len(), 0);
            BytesBytesPair { first, second }
        })
        .collect();
    filter(
        "FuzzyRowFilter",
        &FuzzyRowFilter {
            fuzzy_keys_data,
            is_mask_v2: None,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> (String, Vec<u8>) {
        let outer = crate::proto::Filter::decode(bytes).unwrap();
        (outer.name, outer.serialized_filter.unwrap())
    }

    fn names(list: &FilterList) -> Vec<&str> {
        list.filters
            .iter()
            .map(|f| f.name.trim_start_matches(PACKAGE))
            .collect()
    }

    #[test]
    fn a_keys_only_read_is_a_list_of_hbases_two_filters() {
        let filters = Filters {
            keys_only: true,
            pattern: None,
        };
        let (name, message) = decode(&filters.bytes(None, b"").unwrap());
        assert_eq!(name, "org.apache.hadoop.hbase.filter.FilterList");
        let list = FilterList::decode(&message[..]).unwrap();
        assert_eq!(list.operator, 1, "MUST_PASS_ALL");
        assert_eq!(names(&list), ["FirstKeyOnlyFilter", "KeyOnlyFilter"]);
        // KeyOnlyFilter { len_as_val: false }: field 1, varint 0.
        assert_eq!(
            list.filters[1].serialized_filter.as_deref(),
            Some(&[0x08, 0x00][..])
        );
    }

    #[test]
    fn a_plain_read_sends_no_filter() {
        assert_eq!(Filters::default().bytes(None, b"a"), None);
    }

    #[test]
    fn a_resumed_scanner_asks_only_for_the_ranges_left() {
        let ranges = [
            KeyRange::new(b"a", b"c"),
            KeyRange::new(b"e", b"g"),
            KeyRange::new(b"k", b""),
        ];
        let left = |from: &[u8]| -> Vec<(Vec<u8>, Vec<u8>)> {
            remaining(&ranges, from)
                .map(|(a, b)| (a.to_vec(), b.to_vec()))
                .collect()
        };
        let v = |s: &str| s.as_bytes().to_vec();
        assert_eq!(left(b"").len(), 3);
        assert_eq!(left(b"b")[0], (v("b"), v("c")));
        assert_eq!(left(b"c")[0], (v("e"), v("g")), "a stop is excluded");
        assert_eq!(left(b"h"), [(v("k"), v(""))]);
        assert_eq!(left(b"z"), [(v("z"), v(""))], "an empty stop is the end");

        let (name, message) = decode(&Filters::default().bytes(Some(&ranges[..]), b"f").unwrap());
        assert_eq!(name, "org.apache.hadoop.hbase.filter.MultiRowRangeFilter");
        let sent = MultiRowRangeFilter::decode(&message[..])
            .unwrap()
            .row_range_list;
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[0].start_row.as_deref(), Some(&b"f"[..]));
        assert_eq!(sent[0].stop_row.as_deref(), Some(&b"g"[..]));
        assert_eq!(
            (sent[0].start_row_inclusive, sent[0].stop_row_inclusive),
            (Some(true), Some(false))
        );
        assert_eq!(sent[1].stop_row.as_deref(), Some(&b""[..]));
    }
}
