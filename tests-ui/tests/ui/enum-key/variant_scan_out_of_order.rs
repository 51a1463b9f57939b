use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    User { id: u64 },
    Order { user: u64, ts: i64 },
}

fn main() {
    // The variant comes first, then its fields in key order.
    let _ = Row::scan().order().ts(5);
}
