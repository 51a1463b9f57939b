use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    host: String,
    #[rowkey(desc)]
    note: Option<String>,
}

fn main() {
    let _ = Row::scan().host("h").note_range(Some("a".to_string())..);
}
