use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 1)]
    active: Option<bool>,
}

fn main() {}
