use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    user: u64,
}

impl Event {
    fn explain(&self) -> String {
        format!("user {}", self.user)
    }
}

fn main() {}
