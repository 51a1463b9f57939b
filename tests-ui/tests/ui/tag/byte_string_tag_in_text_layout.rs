use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text, delimiter = ":", tag = b"evt")]
struct Event {
    id: u64,
}

fn main() {}
