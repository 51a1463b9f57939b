//! HBase's filters, run inside the region servers: a scan's `filterBytes` (Thrift2's `TScan`)
//! is a serialized `FilterProtos.Filter`, the filter's Java class name and its own message, as
//! HBase's Java client sends them. The messages are HBase's own, generated from the `.proto`
//! files of the pinned HBase (`src/proto/hbase.pb.rs`, by prost-build; `.ci/proto-check`
//! generates them again and fails on a difference).

use prost::Message;

use crate::proto::{filter_list, FilterList, FirstKeyOnlyFilter, KeyOnlyFilter};

/// The package of HBase's filter classes, which a filter's name is in.
const PACKAGE: &str = "org.apache.hadoop.hbase.filter.";

/// A filter as HBase reads it: the class `name` (in HBase's filter package) and its message.
fn filter(name: &str, message: &impl Message) -> crate::proto::Filter {
    crate::proto::Filter {
        name: format!("{PACKAGE}{name}"),
        serialized_filter: Some(message.encode_to_vec()),
    }
}

/// The `filterBytes` of a read of keys alone: each row's first cell (`FirstKeyOnlyFilter`)
/// without its value (`KeyOnlyFilter`), both required (`FilterList`, `MUST_PASS_ALL`). A row
/// comes back with one cell whose value is empty, so a listing or a count of a plan's rows moves
/// its keys and nothing of its cells.
pub(crate) fn keys_only() -> Vec<u8> {
    let list = FilterList {
        operator: filter_list::Operator::MustPassAll as i32,
        filters: vec![
            filter("FirstKeyOnlyFilter", &FirstKeyOnlyFilter {}),
            filter("KeyOnlyFilter", &KeyOnlyFilter { len_as_val: false }),
        ],
    };
    filter("FilterList", &list).encode_to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keys_only_filter_is_a_list_of_hbases_two_filters() {
        let bytes = keys_only();
        let outer = crate::proto::Filter::decode(&bytes[..]).unwrap();
        assert_eq!(outer.name, "org.apache.hadoop.hbase.filter.FilterList");
        let list = FilterList::decode(&outer.serialized_filter.unwrap()[..]).unwrap();
        assert_eq!(list.operator, 1, "MUST_PASS_ALL");
        let names: Vec<&str> = list.filters.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter",
                "org.apache.hadoop.hbase.filter.KeyOnlyFilter"
            ]
        );
        // KeyOnlyFilter { len_as_val: false }: field 1, varint 0.
        assert_eq!(
            list.filters[1].serialized_filter.as_deref(),
            Some(&[0x08, 0x00][..])
        );
    }
}
