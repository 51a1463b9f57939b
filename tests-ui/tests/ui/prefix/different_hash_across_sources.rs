use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(buckets = 16, hash = "md5"))]
    user: u64,
    #[rowkey(salt(buckets = 16, hash = "java"))]
    session: u32,
}

fn main() {}
