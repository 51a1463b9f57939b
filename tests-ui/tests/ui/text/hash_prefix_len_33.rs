use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text, delimiter = "-")]
struct Key {
    #[rowkey(hash_prefix(len = 33))]
    id: String,
}

fn main() {}
