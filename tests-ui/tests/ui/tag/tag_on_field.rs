use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[rowkey(tag = b"evt/")]
    id: u64,
}

fn main() {}
