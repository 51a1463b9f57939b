use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(buckets = "16"))]
    user: u64,
}

fn main() {}
