use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix, text)]
struct Row {
    id: u32,
}

fn main() {}
