use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    id: u32,
    note: Option<Option<String>>,
}

fn main() {}
