use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimiter = ":")]
struct Key {
    name: String,
    id: u32,
}

fn main() {}
