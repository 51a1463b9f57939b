use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 2)]
    tag: [u8; 4],
}

fn main() {}
