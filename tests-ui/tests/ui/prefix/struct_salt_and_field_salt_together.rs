use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Key {
    #[rowkey(salt(buckets = 16))]
    user: u64,
    name: String,
}

fn main() {}
