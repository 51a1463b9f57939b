use rowkey::RowKey;

#[derive(RowKey)]
struct Site {
    #[rowkey(reverse)]
    host: String,
}

fn main() {
    // `www.example.com` is stored `moc.elpmaxe.www`: a prefix of the host is no prefix of the key.
    let _ = Site::scan().host_prefix("www.");
}
