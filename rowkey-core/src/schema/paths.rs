//! A key's fields by their dotted paths (`user.id`, `Kind::Click.at`): each value slot numbered
//! depth first, each field's mode fixed where it is placed, and a field found by its path.

use alloc::format;
use alloc::vec::Vec;

use super::intern;
use super::nodes::{Field, Kind, Node};
use crate::field::FieldMode;

impl Node {
    /// Numbers the value slots of this node's fields, variants and nested keys depth first, from
    /// `paths.len()` on, and pushes each slot's dotted path (`at` and the names below it): a key's
    /// values are a slice indexed by slot, and a node's slots are one range.
    pub(crate) fn number(&mut self, at: &str, paths: &mut Vec<&'static str>) {
        let start = paths.len();
        if self.is_enum() {
            for v in &mut self.variants {
                let path = join(at, v.short_name());
                v.leaf = paths.len();
                paths.push(intern::str(&path));
                v.number_fields(&path, paths);
                v.leaves = v.leaf..paths.len();
            }
        } else {
            self.number_fields(at, paths);
        }
        self.leaves = start..paths.len();
    }

    /// Fixes the mode of every field in this key placed with `mode` (the root with
    /// `FieldMode::LAST`): each field's `placed`, and in turn the keys nested in it.
    pub(crate) fn place(&mut self, mode: FieldMode) {
        for v in &mut self.variants {
            v.place(mode);
        }
        for f in &mut self.fields {
            f.placed = mode.nest(f.mode);
            if let Kind::Record(child) = &mut f.kind {
                child.place(f.placed);
            }
        }
    }

    fn number_fields(&mut self, at: &str, paths: &mut Vec<&'static str>) {
        for f in &mut self.fields {
            let path = join(at, f.name);
            f.leaf = paths.len();
            f.path = intern::str(&path);
            paths.push(f.path);
            if let Kind::Record(child) = &mut f.kind {
                child.number(&path, paths);
            }
        }
    }
}

/// `name` under the dotted path `at`.
pub(crate) fn join(at: &str, name: &str) -> alloc::string::String {
    if at.is_empty() {
        alloc::string::String::from(name)
    } else {
        format!("{at}.{name}")
    }
}

/// The field at the dotted `path` under `node`, if one is there.
pub(crate) fn find<'n>(node: &'n Node, path: &str) -> Option<&'n Field> {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    if node.is_enum() {
        let v = node.variants.iter().find(|v| v.short_name() == head)?;
        return find(v, rest?);
    }
    let field = node.fields.iter().find(|f| f.name == head)?;
    match (&field.kind, rest) {
        (Kind::Record(child), Some(rest)) => find(child, rest),
        (Kind::Record(_), None) => None,
        (_, None) => Some(field),
        (_, Some(_)) => None,
    }
}
