//! The README's salted event layout on Cloud Bigtable, end to end against the emulator: a table
//! pre-split at the layout's bucket boundaries, 20,000 events written, then a time-range scan with
//! all 16 buckets read at once and merged back into time order, and the same plan split at the
//! table's sampled row keys for parallel workers.
//!
//! Needs the emulator: `.ci/servers/start.sh` builds and starts Google's `bttest` (Debian's
//! golang-go and golang-google-cloud-dev) and prints its address. Then
//!
//! ```sh
//! eval "$(.ci/servers/start.sh)"
//! cargo run --release -p rowkey-bigtable --example bigtable
//! ```
//!
//! The address comes from `BIGTABLE_EMULATOR_HOST`, or else `ROWKEY_BIGTABLE_EMULATOR`.

use std::time::{Duration, Instant};

use bigtable_rs::bigtable::{BigTable, BigTableConnection};
use bigtable_rs::google::bigtable::v2::mutate_rows_request::Entry;
use bigtable_rs::google::bigtable::v2::mutation::{Mutation as Kind, SetCell};
use bigtable_rs::google::bigtable::v2::{MutateRowsRequest, Mutation, ReadRowsRequest};
use futures::TryStreamExt;
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin;
use rowkey::{RowKey, Scan};
use rowkey_bigtable::{initial_splits, read_rows, row_key, sample_split_keys};

/// The README's event key: a whole-key salt of 16 buckets in front of time and id, so a stream of
/// new events spreads over 16 regions instead of piling onto the last one.
#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 16))]
struct Event {
    ts_millis: u64,
    event_id: u32,
}

const TABLE: &str = "events";
const FAMILY: &str = "e";
const EVENTS: u32 = 20_000;
const START_MILLIS: u64 = 1_700_000_000_000;

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let addr = std::env::var("BIGTABLE_EMULATOR_HOST")
        .or_else(|_| std::env::var("ROWKEY_BIGTABLE_EMULATOR"))
        .map_err(|_| {
            "no emulator address: run `eval \"$(.ci/servers/start.sh)\"` first (it starts \
             the Bigtable emulator and exports ROWKEY_BIGTABLE_EMULATOR)"
        })?;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(run(&addr))
}

async fn run(addr: &str) -> Result<(), Error> {
    // 1. A table pre-split at the salt's bucket boundaries: one tablet per bucket.
    let splits = initial_splits(Event::split_keys(16))?;
    create_table(addr, &splits).await?;
    println!(
        "created table {TABLE:?} pre-split at {} keys: {:02X?} ..",
        splits.len(),
        splits.iter().take(4).map(|s| &s.key).collect::<Vec<_>>()
    );

    // 2. Writes: one event every 50 ms, keys checked against Bigtable's 4 KiB limit.
    let mut client = BigTableConnection::new_with_emulator(
        addr,
        "rowkey",
        "example",
        false,
        1,
        Some(Duration::from_secs(30)),
    )?
    .client();
    let keys = (0..EVENTS)
        .map(|i| {
            row_key(&Event {
                ts_millis: START_MILLIS + u64::from(i) * 50,
                event_id: i,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    write(&mut client, &keys).await?;
    let mut per_bucket = [0u32; 16];
    for key in &keys {
        per_bucket[usize::from(key[0])] += 1;
    }
    println!("wrote {EVENTS} events; rows per bucket: {per_bucket:?}");

    // 3. A salted scan: the 16 buckets read at once, merged back into time order.
    let (from, to) = (START_MILLIS + 100_000, START_MILLIS + 160_000);
    let plan: Scan<Event> = Event::scan().ts_millis_range(from..to).into();
    let request = ReadRowsRequest {
        table_name: client.get_full_table_name(TABLE),
        ..ReadRowsRequest::default()
    };
    let started = Instant::now();
    let rows: Vec<_> = read_rows(&client, &request, &plan, 16)?
        .try_collect()
        .await?;
    let elapsed = started.elapsed();
    let events: Vec<Event> = rows
        .iter()
        .map(|(key, _)| Event::decode(key))
        .collect::<Result<_, _>>()?;
    println!(
        "scan ts_millis in [{from}, {to}): {} ranges, {} rows in {elapsed:.1?}",
        plan.ranges().count(),
        events.len()
    );
    for (event, (key, cells)) in events.iter().zip(&rows).take(5) {
        println!(
            "  {key:02X?}  {event:?}  {}",
            String::from_utf8_lossy(&cells[0].value)
        );
    }
    println!("  ...");
    assert!(
        events.windows(2).all(|w| w[0].ts_millis < w[1].ts_millis),
        "merged in time order"
    );
    assert_eq!(
        events.len() as u64,
        (to - from) / 50,
        "every event of the range"
    );

    // 4. The same plan split at the table's sampled row keys: one sub-plan per region, for
    //    parallel workers; together they read each row once.
    let samples = sample_split_keys(&mut client, TABLE).await?;
    let parts: Vec<Scan<Event>> = plan.split(&samples);
    let mut read = 0;
    for part in &parts {
        read += read_rows(&client, &request, part, 16)?
            .try_collect::<Vec<_>>()
            .await?
            .len();
    }
    println!(
        "split at {} sampled keys into {} plans ({} with ranges): {read} rows in all",
        samples.len(),
        parts.len(),
        parts.iter().filter(|p| p.ranges().next().is_some()).count()
    );
    assert_eq!(read, events.len(), "the split reads each row once");
    Ok(())
}

/// Creates the table afresh with one column family keeping one version (the emulator needs a GC
/// rule), pre-split at `splits`.
async fn create_table(
    addr: &str,
    splits: &[admin::create_table_request::Split],
) -> Result<(), Error> {
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))?
        .connect()
        .await?;
    let mut admin = admin::bigtable_table_admin_client::BigtableTableAdminClient::new(channel);
    let parent = "projects/rowkey/instances/example".to_string();
    let name = format!("{parent}/tables/{TABLE}");
    if let Err(status) = admin.delete_table(admin::DeleteTableRequest { name }).await {
        if status.code() != tonic::Code::NotFound {
            return Err(status.into());
        }
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
            table_id: TABLE.into(),
            table: Some(admin::Table {
                column_families: [(FAMILY.to_string(), family)].into_iter().collect(),
                ..Default::default()
            }),
            initial_splits: splits.to_vec(),
        })
        .await?;
    Ok(())
}

/// Writes a cell `payload = "event <id>"` per key, 1,000 rows a request.
async fn write(client: &mut BigTable, keys: &[Vec<u8>]) -> Result<(), Error> {
    for chunk in keys.chunks(1_000) {
        let entries = chunk
            .iter()
            .map(|key| {
                let event = Event::decode(key).expect("a key just encoded");
                Entry {
                    row_key: key.clone(),
                    mutations: vec![Mutation {
                        mutation: Some(Kind::SetCell(SetCell {
                            family_name: FAMILY.into(),
                            column_qualifier: b"payload".to_vec(),
                            timestamp_micros: 0,
                            value: format!("event {}", event.event_id).into_bytes(),
                        })),
                    }],
                    ..Default::default()
                }
            })
            .collect();
        let request = MutateRowsRequest {
            table_name: client.get_full_table_name(TABLE),
            entries,
            ..Default::default()
        };
        let mut responses = client.mutate_rows(request).await?;
        while let Some(response) = responses.message().await? {
            if let Some(failed) = response
                .entries
                .iter()
                .find(|e| e.status.as_ref().is_some_and(|s| s.code != 0))
            {
                return Err(
                    format!("row {} was not written: {:?}", failed.index, failed.status).into(),
                );
            }
        }
    }
    Ok(())
}

/// The layout lock of this example's key (`rowkey::lock`; `test = true` in Cargo.toml).
#[test]
fn event_keys_stay_readable() {
    rowkey::lock::assert_locked(
        "tests/keys/bigtable.lock",
        &[Event {
            ts_millis: 1_700_000_000_000,
            event_id: 7,
        }],
    );
}
