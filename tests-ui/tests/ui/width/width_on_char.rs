use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 2)]
    initial: char,
}

fn main() {}
