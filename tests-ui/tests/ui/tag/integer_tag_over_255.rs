use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(tag = 256)]
struct Event {
    id: u64,
}

fn main() {}
