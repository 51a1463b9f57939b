use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    user: u64,
    ts: i64,
}

fn main() {
    let _ = Event::scan().user_range(1..5).ts(5);
}
