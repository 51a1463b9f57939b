use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    #[rowkey(reverse)]
    id: u32,
}

fn main() {}
