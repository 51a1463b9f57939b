use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    id: u64,
    blob: [u8; 40000],
}

fn main() {}
