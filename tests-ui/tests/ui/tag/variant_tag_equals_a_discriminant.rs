use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    User { id: u64 },
    #[rowkey(tag = 0)]
    Order { id: u64 },
}

fn main() {}
