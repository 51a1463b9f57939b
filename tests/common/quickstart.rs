//! The quickstart's key (`quickstart/examples/quickstart.rs`, locked in
//! `tests/keys/examples/quickstart.lock`), written once for the tests and benchmarks that use it:
//! `#[path]`-included by `tests/schema.rs`, `benches/schema.rs` and `rowkey-cli/tests/cli.rs`.
//! The example keeps its own copy, which is what a reader sees first; `same_layout_as_the_lock`
//! holds this one to the example's lock, so the two cannot drift apart.

// Each includer uses a part of it.
#![allow(dead_code)]

use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
pub enum EventKind {
    PageView = 1,
    Click = 2,
    Purchase = 3,
}

/// Every kind, in discriminant order.
pub const KINDS: [EventKind; 3] = [EventKind::PageView, EventKind::Click, EventKind::Purchase];

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct EventKey {
    pub user_id: u64,
    #[rowkey(desc)]
    pub ts_millis: i64,
    pub kind: EventKind,
    pub host: String,
}

/// Fails unless this key, with the example's samples, is what the quickstart example locked.
pub fn same_layout_as_the_lock(lock: &std::path::Path) {
    let samples = [
        EventKey {
            user_id: 42,
            ts_millis: 1_700_000_000_000,
            kind: EventKind::Click,
            host: "web-2".into(),
        },
        EventKey {
            user_id: 0,
            ts_millis: 0,
            kind: EventKind::PageView,
            host: String::new(),
        },
    ];
    match rowkey::lock::check(lock, &samples) {
        Ok(rowkey::lock::Verdict::Unchanged) => {}
        other => panic!("the quickstart's key differs from its lock: {other:?}"),
    }
}
