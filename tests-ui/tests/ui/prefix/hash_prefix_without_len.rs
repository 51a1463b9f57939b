use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(hash_prefix(upper))]
    name: String,
}

fn main() {}
