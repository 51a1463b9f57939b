use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(reverse)]
    active: bool,
}

fn main() {}
