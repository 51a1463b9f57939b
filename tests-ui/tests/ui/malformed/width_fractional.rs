use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 4.5)]
    id: u64,
}

fn main() {}
