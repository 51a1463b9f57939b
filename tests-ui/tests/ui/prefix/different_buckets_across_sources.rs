use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(buckets = 16))]
    user: u64,
    #[rowkey(salt(buckets = 32))]
    session: u32,
}

fn main() {}
