use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 16, hash = "mod"))]
struct Key {
    user: u64,
    session: u32,
}

fn main() {}
