//! The public surface of plans (DESIGN section 11): every state of a generated builder, whether a
//! field is left to bind or the plan is finished, in the fixed lane or the general one, offers the
//! plan methods with no trait imported, and answers exactly as the `Scan` it converts into.

// Only the derive's name: the plan methods need no trait in scope.
use rowkey::RowKey as _;

#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
struct Fixed {
    user: u16,
    #[rowkey(desc)]
    ts: i32,
}

#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
struct Variable {
    #[rowkey(salt(buckets = 4))]
    host: String,
    ts: u8,
}

#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
enum Row {
    User { id: u8 },
    Order { user: u8, ts: u8 },
    Empty {},
}

/// One state's answers, by its own methods, next to those of the `Scan` it converts into.
macro_rules! same_as_scan {
    ($state:expr, $keys:expr, $bounds:expr) => {{
        let state = $state;
        let scan: rowkey::Scan<_> = state.clone().into();
        assert_eq!(
            state.ranges().collect::<Vec<_>>(),
            scan.ranges().collect::<Vec<_>>()
        );
        assert_eq!(state.is_exact(), scan.is_exact());
        assert_eq!(state.salt_len(), scan.salt_len());
        assert_eq!(format!("{state:?}"), format!("{scan:?}"));
        for key in $keys {
            assert_eq!(state.matches(key), scan.matches(key), "matches {key:02X?}");
            let (a, b) = (state.after(key), scan.after(key));
            assert_eq!(
                a.ranges().collect::<Vec<_>>(),
                b.ranges().collect::<Vec<_>>()
            );
        }
        let (a, b) = (state.split($bounds), scan.split($bounds));
        assert_eq!(a.len(), b.len());
        for (a, b) in a.iter().zip(&b) {
            assert_eq!(
                a.ranges().collect::<Vec<_>>(),
                b.ranges().collect::<Vec<_>>()
            );
        }
        state.ranges().count()
    }};
}

fn keys<K: rowkey::RowKey>(values: &[K]) -> Vec<Vec<u8>> {
    values.iter().map(|v| v.to_vec().unwrap()).collect()
}

#[test]
fn every_fixed_state_answers_as_its_scan() {
    let ks = keys(&[
        Fixed { user: 1, ts: 5 },
        Fixed { user: 2, ts: -1 },
        Fixed { user: 2, ts: 9 },
        Fixed { user: 3, ts: 0 },
    ]);
    let splits = [&ks[1][..], &ks[3][..]];
    assert_eq!(same_as_scan!(Fixed::scan(), &ks, splits), 1);
    assert_eq!(same_as_scan!(Fixed::scan().user(2), &ks, splits), 1);
    assert_eq!(same_as_scan!(Fixed::scan().user_in([3, 1]), &ks, splits), 2);
    assert_eq!(same_as_scan!(Fixed::scan().user(2).ts(9), &ks, splits), 1);
    assert_eq!(
        same_as_scan!(Fixed::scan().user(2).ts_range(0..), &ks, splits),
        1
    );
    assert_eq!(
        same_as_scan!(Fixed::scan().user_in([1, 2]).ts_range(..6), &ks, splits),
        2
    );
    assert_eq!(same_as_scan!(Fixed::scan().user_range(2..), &ks, splits), 1);
}

#[test]
fn every_general_state_answers_as_its_scan() {
    let ks = keys(&[
        Variable {
            host: "a".into(),
            ts: 1,
        },
        Variable {
            host: "ab".into(),
            ts: 2,
        },
        Variable {
            host: "b".into(),
            ts: 3,
        },
    ]);
    let splits = [&[1u8][..], &[3u8][..]];
    assert_eq!(same_as_scan!(Variable::scan(), &ks, splits), 4);
    assert_eq!(same_as_scan!(Variable::scan().host("ab"), &ks, splits), 1);
    assert_eq!(
        same_as_scan!(Variable::scan().host("ab").ts(2), &ks, splits),
        1
    );
    assert_eq!(
        same_as_scan!(Variable::scan().host_prefix("a"), &ks, splits),
        4
    );
    assert_eq!(
        same_as_scan!(Variable::scan().host_range("a".."b"), &ks, splits),
        4
    );
    assert_eq!(Variable::scan().salt_len(), 1);
}

#[test]
fn every_enum_state_answers_as_its_scan() {
    let ks = keys(&[
        Row::User { id: 1 },
        Row::Order { user: 1, ts: 2 },
        Row::Order { user: 2, ts: 2 },
        Row::Empty {},
    ]);
    let splits = [&ks[2][..]];
    assert_eq!(same_as_scan!(Row::scan(), &ks, splits), 1);
    assert_eq!(same_as_scan!(Row::scan().user(), &ks, splits), 1);
    assert_eq!(same_as_scan!(Row::scan().empty(), &ks, splits), 1);
    assert_eq!(same_as_scan!(Row::scan().order().user(1), &ks, splits), 1);
    assert_eq!(
        same_as_scan!(Row::scan().order().user(1).ts_range(..3), &ks, splits),
        1
    );
    assert!(Row::scan().empty().matches(&ks[3]) && !Row::scan().empty().matches(&ks[0]));
}

#[test]
fn split_keys_needs_only_the_row_key_trait() {
    // `use rowkey::RowKey as _` above: the trait in scope, no other name.
    assert_eq!(Variable::split_keys(4), [[1], [2], [3]]);
    assert!(Fixed::split_keys(4).is_empty());
}

/// Fields whose scan methods share names (`page`'s list is `page_in`, a field of its own): each
/// field's methods stay on its own state, and bind as the key's order says.
#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
struct MethodsMeet {
    page: u8,
    page_in: u8,
}

#[test]
fn fields_whose_method_names_meet_still_bind_in_key_order() {
    let key = |page, page_in| MethodsMeet { page, page_in }.to_vec().unwrap();
    let plan = MethodsMeet::scan().page_in([1, 3]).page_in(7);
    assert!(plan.matches(&key(1, 7)) && plan.matches(&key(3, 7)));
    assert!(!plan.matches(&key(2, 7)) && !plan.matches(&key(1, 8)));
    assert_eq!(plan.ranges().count(), 2);
    let plan = MethodsMeet::scan().page(4).page_in_range(2..5);
    assert!(plan.matches(&key(4, 2)) && !plan.matches(&key(4, 5)));
}
