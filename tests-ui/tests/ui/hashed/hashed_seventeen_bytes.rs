use rowkey::{Hashed, RowKey};

#[derive(RowKey)]
struct Key {
    host: Option<Hashed<17>>,
    ts: u64,
}

fn main() {}
