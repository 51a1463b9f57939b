use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text, delimiter = "")]
struct Key {
    name: String,
    id: u32,
}

fn main() {}
