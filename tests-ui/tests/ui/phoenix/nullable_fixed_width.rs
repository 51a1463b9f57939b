use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    host: String,
    port: Option<u16>,
}

fn main() {}
