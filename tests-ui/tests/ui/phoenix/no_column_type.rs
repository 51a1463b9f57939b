use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    id: u32,
    initial: char,
}

fn main() {}
