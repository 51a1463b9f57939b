use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(hash_prefix(len = 4))]
    tenant: String,
    #[rowkey(hash_prefix(len = 8))]
    user: String,
}

fn main() {}
