use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(buckets = 16))]
    user: u64,
    #[rowkey(hash_prefix(len = 4))]
    name: String,
}

fn main() {}
