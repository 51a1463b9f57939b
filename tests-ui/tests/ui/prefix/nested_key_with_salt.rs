use rowkey::RowKey;

#[derive(RowKey)]
struct Inner {
    #[rowkey(salt(buckets = 16))]
    user: u64,
}

#[derive(RowKey)]
struct Key {
    inner: Inner,
    name: String,
}

fn main() {}
