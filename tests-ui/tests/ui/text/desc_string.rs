use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct Key {
    #[rowkey(desc)]
    name: String,
    id: u32,
}

fn main() {}
