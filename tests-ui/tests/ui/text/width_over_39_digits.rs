use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text)]
struct Key {
    #[rowkey(width = 40)]
    id: u128,
}

fn main() {}
