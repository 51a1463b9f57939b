use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 0)]
    id: u64,
}

fn main() {}
