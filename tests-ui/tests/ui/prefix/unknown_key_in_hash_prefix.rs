use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(hash_prefix(length = 4))]
    name: String,
}

fn main() {}
