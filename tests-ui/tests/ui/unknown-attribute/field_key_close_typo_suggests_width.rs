use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(widht = 4)]
    id: u64,
}

fn main() {}
