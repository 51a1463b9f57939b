use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(hash_prefix(len = 0))]
    name: String,
}

fn main() {}
