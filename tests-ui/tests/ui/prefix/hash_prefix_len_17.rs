use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(hash_prefix(len = 17))]
    name: String,
}

fn main() {}
