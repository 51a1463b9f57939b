use rowkey::{DecodeKey, RowKey};

// Every bad attribute of one derive is reported in the same compile, and the code that uses the
// key shows no follow-on errors.
#[derive(RowKey)]
#[rowkey(salt(buckets = 300))]
struct Event {
    #[rowkey(widht = 4)]
    user: u64,
    #[rowkey(desc, reverse)]
    ts: i64,
    #[rowkey(width = 0)]
    host: String,
}

fn main() {
    let e = Event { user: 1, ts: 2, host: String::new() };
    let key = e.to_vec().unwrap();
    let _ = Event::decode(&key);
    println!("{}", Event::LAYOUT);
}
