use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = "4")]
    id: u64,
}

fn main() {}
