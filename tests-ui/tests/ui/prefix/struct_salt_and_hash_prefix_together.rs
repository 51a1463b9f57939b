use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Key {
    #[rowkey(hash_prefix(len = 4))]
    name: String,
}

fn main() {}
