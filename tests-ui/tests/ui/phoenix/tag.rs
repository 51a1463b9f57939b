use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix, tag = 7)]
struct Row {
    id: u32,
}

fn main() {}
