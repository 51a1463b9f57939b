use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    id: u32,
    #[rowkey(desc)]
    payload: Vec<u8>,
}

fn main() {}
