use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(desc, reverse)]
    id: u64,
}

fn main() {}
