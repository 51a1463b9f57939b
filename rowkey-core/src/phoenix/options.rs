//! The table options a `CREATE TABLE` statement may give: Phoenix's own (its `TableProperty`)
//! and the HBase table and column family properties Phoenix passes to HBase. Phoenix takes any
//! other name without a word and keeps it as a plain HBase table attribute, so a misspelt
//! `SALT_BUCKET = 4` makes a table that is not salted; the lock reads the statement as Phoenix
//! does, and says so.

use alloc::format;

use super::tokens::{warning_at, DdlWarning};

/// Phoenix's table properties (`org.apache.phoenix.schema.TableProperty`, 4.x to 5.2 and later).
const PHOENIX: &[&str] = &[
    "APPEND_ONLY_SCHEMA",
    "AUTO_PARTITION_SEQ",
    "CHANGE_DETECTION_ENABLED",
    "COLUMN_ENCODED_BYTES",
    "DEFAULT_COLUMN_FAMILY",
    "DISABLE_WAL",
    "ENCODING_SCHEME",
    "GUIDE_POSTS_WIDTH",
    "IMMUTABLE_ROWS",
    "IMMUTABLE_STORAGE_SCHEME",
    "INCLUDE",
    "MAX_LOOKBACK_AGE",
    "MULTI_TENANT",
    "PHOENIX_TTL",
    "PHYSICAL_TABLE_NAME",
    "SALT_BUCKETS",
    "SCHEMA_VERSION",
    "STORE_NULLS",
    "STREAMING_TOPIC_NAME",
    "TRANSACTIONAL",
    "TRANSACTION_PROVIDER",
    "TTL",
    "UPDATE_CACHE_FREQUENCY",
    "USE_STATS_FOR_PARALLELIZATION",
];

/// HBase's column family properties (`ColumnFamilyDescriptorBuilder`), which Phoenix applies to
/// the table's families (or to one, as `family.NAME = value`); `TTL`, which Phoenix reads before
/// it passes it on, is in [`PHOENIX`].
const HBASE_FAMILY: &[&str] = &[
    "BLOCKCACHE",
    "BLOCKSIZE",
    "BLOOMFILTER",
    "CACHE_BLOOMS_ON_WRITE",
    "CACHE_DATA_ON_WRITE",
    "CACHE_INDEX_ON_WRITE",
    "COMPRESSION",
    "COMPRESSION_COMPACT",
    "COMPRESSION_COMPACT_MAJOR",
    "COMPRESSION_COMPACT_MINOR",
    "COMPRESS_TAGS",
    "DATA_BLOCK_ENCODING",
    "DFS_REPLICATION",
    "ENCRYPTION",
    "ENCRYPTION_KEY",
    "EVICT_BLOCKS_ON_CLOSE",
    "IN_MEMORY",
    "IN_MEMORY_COMPACTION",
    "IS_MOB",
    "KEEP_DELETED_CELLS",
    "MIN_VERSIONS",
    "MOB_COMPACT_PARTITION_POLICY",
    "MOB_THRESHOLD",
    "NEW_VERSION_BEHAVIOR",
    "PREFETCH_BLOCKS_ON_OPEN",
    "REPLICATION_SCOPE",
    "STORAGE_POLICY",
    "VERSIONS",
];

/// HBase's table properties (`TableDescriptorBuilder`), which Phoenix sets on the table.
const HBASE_TABLE: &[&str] = &[
    "COMPACTION_ENABLED",
    "DURABILITY",
    "FLUSH_POLICY",
    "MAX_FILESIZE",
    "MEMSTORE_FLUSHSIZE",
    "MERGE_ENABLED",
    "NORMALIZATION_ENABLED",
    "NORMALIZER_TARGET_REGION_COUNT",
    "NORMALIZER_TARGET_REGION_SIZE",
    "NORMALIZER_TARGET_REGION_SIZE_MB",
    "OWNER",
    "PRIORITY",
    "READONLY",
    "REGION_MEMSTORE_REPLICATION",
    "REGION_REPLICATION",
    "SPLIT_ENABLED",
    "SPLIT_POLICY",
];

/// The warning for option `name` at byte `at` of `sql`, if neither Phoenix nor HBase knows it,
/// with the nearest known name when one is close.
pub(super) fn unknown(sql: &str, name: &str, at: usize) -> Option<DdlWarning> {
    let known = [PHOENIX, HBASE_FAMILY, HBASE_TABLE].concat();
    if known.contains(&name) {
        return None;
    }
    // A quoted name keeps its case, and then Phoenix does not know `"salt_buckets"` either.
    let hint = crate::words::closest(&name.to_ascii_uppercase(), &known)
        .map_or_else(Default::default, |k| format!(" (did you mean `{k}`?)"));
    Some(warning_at(
        sql,
        at,
        format!(
            "unknown option `{name}`{hint}; Phoenix ignores it (it only becomes an HBase table \
             attribute), and so does the lock"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn the_known_lists_are_sorted_and_apart() {
        for list in [PHOENIX, HBASE_FAMILY, HBASE_TABLE] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
        let mut all = [PHOENIX, HBASE_FAMILY, HBASE_TABLE].concat();
        all.sort_unstable();
        assert!(all.windows(2).all(|w| w[0] != w[1]), "a name in two lists");
    }

    #[test]
    fn only_an_option_no_one_knows_is_warned_of_with_the_nearest_known_name() {
        let cases = [
            ("SALT_BUCKETS", None),
            ("VERSIONS", None),
            ("SPLIT_POLICY", None),
            ("SALT_BUCKET", Some(" (did you mean `SALT_BUCKETS`?)")),
            ("COMPRESION", Some(" (did you mean `COMPRESSION`?)")),
            ("VERSION", Some(" (did you mean `VERSIONS`?)")),
            ("IMUTABLE_ROWS", Some(" (did you mean `IMMUTABLE_ROWS`?)")),
            ("FOO", Some("")),
        ];
        for (name, hint) in cases {
            let warning = unknown(name, name, 0);
            match hint {
                None => assert_eq!(warning, None, "{name}"),
                Some(hint) => {
                    let text = warning.unwrap().to_string();
                    let head = format!("line 1, column 1: unknown option `{name}`{hint}; ");
                    assert!(text.starts_with(&head), "{text}");
                }
            }
        }
    }
}
