use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(buckets = 16, hash = "mod"))]
    name: String,
}

fn main() {}
