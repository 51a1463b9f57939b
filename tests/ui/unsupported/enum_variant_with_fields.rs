use rowkey::RowKey;

#[derive(RowKey)]
enum Kind {
    View,
    Click { x: u32, y: u32 },
}

fn main() {}
