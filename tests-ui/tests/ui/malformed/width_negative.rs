use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = -1)]
    id: u64,
}

fn main() {}
