use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey]
    id: u64,
}

fn main() {}
