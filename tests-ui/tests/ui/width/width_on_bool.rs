use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 1)]
    active: bool,
}

fn main() {}
