use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    #[rowkey(tag = b"o")]
    Order { id: u64 },
    #[rowkey(tag = b"ord")]
    OrderLine { id: u64, line: u16 },
}

fn main() {}
