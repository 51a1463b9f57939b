use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(bucket = 16))]
    user: u64,
}

fn main() {}
