use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    payload: Vec<u8>,
    id: u32,
}

fn main() {}
