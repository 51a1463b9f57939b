use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    User { id: u64 },
    Order(u64, i64),
}

fn main() {}
