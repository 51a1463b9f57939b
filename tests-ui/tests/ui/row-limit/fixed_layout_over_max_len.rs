use rowkey::RowKey;

// 8 + 8 = 16 bytes, over a DynamoDB-style limit of 12.
#[derive(RowKey)]
#[rowkey(max_len = 12)]
struct Key {
    id: u64,
    ts: i64,
}

fn main() {}
