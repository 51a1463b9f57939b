use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(buckets = 257))]
    user: u64,
}

fn main() {}
