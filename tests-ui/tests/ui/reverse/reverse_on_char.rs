use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(reverse)]
    initial: char,
}

fn main() {}
