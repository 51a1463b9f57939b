use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(tag = b"")]
struct Event {
    id: u64,
}

fn main() {}
