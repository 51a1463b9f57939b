use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt(hash = "java"))]
    user: u64,
}

fn main() {}
