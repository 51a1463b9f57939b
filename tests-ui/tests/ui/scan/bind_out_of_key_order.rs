use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    user: u64,
    ts: i64,
}

fn main() {
    let _ = Event::scan().ts(5);
}
