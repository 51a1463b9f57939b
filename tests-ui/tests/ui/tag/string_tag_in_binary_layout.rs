use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(tag = "evt/")]
struct Event {
    id: u64,
}

fn main() {}
