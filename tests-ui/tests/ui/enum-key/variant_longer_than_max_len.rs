use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 16)]
enum Row {
    User { id: u64 },
    Order { user: u64, ts: i64 },
}

fn main() {}
