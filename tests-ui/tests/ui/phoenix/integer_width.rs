use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    #[rowkey(width = 2)]
    id: u32,
}

fn main() {}
