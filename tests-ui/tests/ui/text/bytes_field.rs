use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct Key {
    id: u32,
    value: Vec<u8>,
}

fn main() {}
