use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    user: u64,
}

impl Event {
    const LAYOUT: &'static str = "user";
}

fn main() {}
