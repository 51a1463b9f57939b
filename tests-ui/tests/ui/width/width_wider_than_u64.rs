use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 9)]
    id: u64,
}

fn main() {}
