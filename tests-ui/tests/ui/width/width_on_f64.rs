use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 4)]
    score: f64,
}

fn main() {}
