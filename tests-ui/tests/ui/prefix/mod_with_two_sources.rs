use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(buckets = 16, hash = "mod"))]
    user: u64,
    #[rowkey(salt(buckets = 16, hash = "mod"))]
    session: u32,
}

fn main() {}
