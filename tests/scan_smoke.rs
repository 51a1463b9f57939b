use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    user: u8,
    ts: u8,
}

#[test]
fn design_section_7_example() {
    let r: Vec<_> = K::scan().user(2).ranges().collect();
    assert_eq!((r[0].start(), r[0].stop()), (&[2u8][..], &[3u8][..]));
    let r: Vec<_> = K::scan().user(2).ts_range(5..20).ranges().collect();
    assert_eq!(
        (r[0].start(), r[0].stop()),
        (&[2u8, 5][..], &[2u8, 0x14][..])
    );
}
