use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(primary_key)]
    id: u64,
}

fn main() {}
