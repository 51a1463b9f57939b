//! The Bigtable emulator for the store tests: its address, a client, a table created afresh and
//! pre-split, rows written, and the whole table read back. Included with `#[path]` beside
//! `common` and `servers`.

use std::sync::MutexGuard;
use std::time::Duration;

use bigtable_rs::bigtable::{BigTable, BigTableConnection};
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::mutation::{self, SetCell};
use bigtable_rs::google::bigtable::v2::row_range::StartKey;
use bigtable_rs::google::bigtable::v2::{
    MutateRowsRequest, Mutation, ReadRowsRequest, RowRange, RowSet,
};
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin;
use rowkey_bigtable::initial_splits;

use super::servers;

pub const PROJECT: &str = "rowkey";
pub const INSTANCE: &str = "e2e";
pub const FAMILY: &str = "f";

/// The emulator's address; one test at a time, as they share it.
pub fn emulator() -> (MutexGuard<'static, ()>, String) {
    let (guard, exports) = servers::start(
        "the Bigtable emulator did not start. These tests need Debian's golang-go and \
         golang-google-cloud-dev",
    );
    (guard, servers::export(&exports, "ROWKEY_BIGTABLE_EMULATOR"))
}

pub fn connect(addr: &str) -> BigTable {
    BigTableConnection::new_with_emulator(
        addr,
        PROJECT,
        INSTANCE,
        false,
        1,
        Some(Duration::from_secs(30)),
    )
    .expect("connect to the emulator")
    .client()
}

/// Creates `table` afresh (dropping an earlier one of that name), pre-split at `splits`, with one
/// column family that keeps one version (the emulator crashes on a family without a GC rule).
pub async fn create_table(addr: &str, table: &str, splits: Vec<Vec<u8>>) {
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .expect("connect the admin client");
    let mut admin = admin::bigtable_table_admin_client::BigtableTableAdminClient::new(channel);
    let parent = format!("projects/{PROJECT}/instances/{INSTANCE}");
    let name = format!("{parent}/tables/{table}");
    match admin.delete_table(admin::DeleteTableRequest { name }).await {
        Ok(_) => {}
        Err(status) if status.code() == tonic::Code::NotFound => {}
        Err(status) => panic!("delete table {table}: {status}"),
    }
    let family = admin::ColumnFamily {
        gc_rule: Some(admin::GcRule {
            rule: Some(admin::gc_rule::Rule::MaxNumVersions(1)),
        }),
        ..Default::default()
    };
    admin
        .create_table(admin::CreateTableRequest {
            parent,
            table_id: table.to_string(),
            table: Some(admin::Table {
                column_families: [(FAMILY.to_string(), family)].into_iter().collect(),
                ..Default::default()
            }),
            initial_splits: initial_splits(splits).expect("split keys within 4 KiB"),
        })
        .await
        .expect("create the table");
}

/// Writes one cell for each key, 1,000 rows a request, and checks every entry's status.
pub async fn write(client: &mut BigTable, table: &str, keys: &[Vec<u8>]) {
    for chunk in keys.chunks(1_000) {
        let entries = chunk
            .iter()
            .map(|key| Entry {
                row_key: key.clone(),
                mutations: vec![Mutation {
                    mutation: Some(mutation::Mutation::SetCell(SetCell {
                        family_name: FAMILY.to_string(),
                        column_qualifier: b"q".to_vec(),
                        timestamp_micros: 0,
                        value: b"v".to_vec(),
                    })),
                }],
                ..Default::default()
            })
            .collect();
        let request = MutateRowsRequest {
            table_name: client.get_full_table_name(table),
            entries,
            ..Default::default()
        };
        let mut responses = client.mutate_rows(request).await.expect("mutate rows");
        while let Some(response) = responses.message().await.expect("mutate rows response") {
            for entry in response.entries {
                let code = entry.status.map_or(0, |s| s.code);
                assert_eq!(code, 0, "row {} of a write failed", entry.index);
            }
        }
    }
}

/// Every row key of `table`, read in whole-table requests of 5,000 rows, each starting after the
/// last key of the one before (one request for a large table overflows the HTTP/2 client's budget
/// of buffered messages; see `read_rows`). Written against the Bigtable API alone.
pub async fn all_keys(client: &mut BigTable, table: &str) -> Vec<Vec<u8>> {
    const PAGE: usize = 5_000;
    let mut keys: Vec<Vec<u8>> = Vec::new();
    loop {
        let rows = keys.last().map(|last| RowSet {
            row_ranges: vec![RowRange {
                start_key: Some(StartKey::StartKeyOpen(last.clone())),
                end_key: None,
            }],
            ..Default::default()
        });
        let request = ReadRowsRequest {
            table_name: client.get_full_table_name(table),
            rows,
            rows_limit: PAGE as i64,
            ..Default::default()
        };
        let page = client.read_rows(request).await.expect("read the table");
        let full = page.len() == PAGE;
        keys.extend(page.into_iter().map(|(key, _)| key));
        if !full {
            return keys;
        }
    }
}
