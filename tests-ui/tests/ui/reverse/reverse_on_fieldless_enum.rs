use rowkey::RowKey;

#[derive(RowKey)]
enum Kind {
    View = 0,
    Click = 1,
}

#[derive(RowKey)]
struct Key {
    #[rowkey(reverse)]
    kind: Kind,
}

fn main() {}
