use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    #[rowkey(unit = "s")]
    at: std::time::SystemTime,
}

fn main() {}
