use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
enum Row {
    User { id: u64 },
    Order { user: u64, ts: i64 },
}

fn main() {}
