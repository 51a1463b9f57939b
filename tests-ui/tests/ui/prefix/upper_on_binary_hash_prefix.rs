use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(hash_prefix(len = 4, upper))]
    name: String,
}

fn main() {}
