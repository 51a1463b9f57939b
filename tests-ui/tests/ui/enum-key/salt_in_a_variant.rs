use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    User {
        #[rowkey(salt(buckets = 16))]
        id: u64,
    },
    Order { user: u64, ts: i64 },
}

fn main() {}
