use rowkey::{Hashed, RowKey};

#[derive(RowKey)]
struct Key {
    host: Hashed<0>,
    ts: u64,
}

fn main() {}
