use rowkey::RowKey;

#[derive(RowKey)]
enum Kind {
    View = 0,
    Click = 256,
}

fn main() {}
