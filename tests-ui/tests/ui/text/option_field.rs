use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct Key {
    id: u32,
    value: Option<u32>,
}

fn main() {}
