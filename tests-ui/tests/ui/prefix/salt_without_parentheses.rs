use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(salt)]
    user: u64,
}

fn main() {}
