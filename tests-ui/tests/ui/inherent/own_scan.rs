use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    user: u64,
}

impl Event {
    fn scan() -> u64 {
        7
    }
}

fn main() {}
