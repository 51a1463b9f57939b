use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text)]
struct Message {
    #[rowkey(format = "%d%m%Y")]
    day: chrono::NaiveDate,
}

fn main() {
    // Day first: the keys do not sort by date, so only equality and IN lists apply.
    let _ = Message::scan().day_range(..);
}
