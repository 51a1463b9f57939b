use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    User { id: u64 },
    Ranges { from: u64, to: u64 },
}

fn main() {}
