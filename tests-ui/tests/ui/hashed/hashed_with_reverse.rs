use rowkey::{Hashed, RowKey};

#[derive(RowKey)]
struct Key {
    #[rowkey(reverse)]
    host: Hashed<8>,
    ts: u64,
}

fn main() {}
