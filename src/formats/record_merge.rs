//! Taking a journalled change back by its records, not its bytes. A state file re-saved by a
//! spreadsheet (other line ends, a byte-order mark, Windows-1252, `;` between fields, fields
//! quoted, rows sorted, columns reordered) holds the same records in other bytes: `undo`
//! reverts the change's records in the file as it is now, and writes the file back the way it
//! was saved. Only a field the change set that has since been given another value is a
//! conflict, named by its row, its field and both values.

use std::collections::BTreeMap;

use super::table::Sheet;

/// A record in words for a message.
fn shown(r: &BTreeMap<String, String>, columns: &[String]) -> String {
    columns.iter().map(|c| r.get(c).map_or("", String::as_str)).collect::<Vec<_>>().join(",")
}

/// Takes back, in `now`, the change that made `then_after` of `then_before` (the file before
/// and after it, as the journal has them); `None` for a file that is (or is to be) absent.
/// The result keeps `now`'s records that the change did not touch, its row and column order,
/// and the way it was saved. Every conflict is returned at once, each naming the row, the field
/// and both values.
pub fn revert_records(
    file: &str,
    then_before: Option<&[u8]>,
    then_after: Option<&[u8]>,
    now: Option<&[u8]>,
) -> Result<Option<Vec<u8>>, Vec<String>> {
    let (b, a, n) = match (then_before, then_after, now) {
        (b, None, None) => return Ok(b.map(<[u8]>::to_vec)),
        (_, None, Some(_)) => {
            return Err(vec![format!("{file}: the change removed the file, and it is back")]);
        }
        (_, Some(_), None) => return Err(vec![format!("{file}: the file is missing")]),
        (b, Some(a), Some(n)) => {
            (b.map(|b| Sheet::read(file, b)), Sheet::read(file, a), Sheet::read(file, n))
        }
    };
    let empty =
        Sheet { names: a.names.clone(), columns: a.columns.clone(), rows: Vec::new(), dialect: a.dialect };
    let created = b.is_none();
    let b = b.unwrap_or(empty);
    let mut n = n;
    let key = a.columns.first().cloned().unwrap_or_default();
    let conflicts = match (b.keys(&key), a.keys(&key), n.keys(&key)) {
        (Some(bk), Some(ak), Some(_)) => revert_keyed(file, &key, (&b, &bk), (&a, &ak), &mut n),
        _ => revert_rows(file, &b, &a, &mut n),
    };
    if !conflicts.is_empty() {
        return Err(conflicts);
    }
    if created && n.rows.is_empty() {
        return Ok(None);
    }
    Ok(Some(n.write()))
}

/// [`revert_records`] for rows keyed by their first column: field by field.
fn revert_keyed(
    file: &str,
    key: &str,
    (b, bk): (&Sheet, &[String]),
    (a, ak): (&Sheet, &[String]),
    n: &mut Sheet,
) -> Vec<String> {
    let before: BTreeMap<&String, &BTreeMap<String, String>> = bk.iter().zip(&b.rows).collect();
    let after: BTreeMap<&String, &BTreeMap<String, String>> = ak.iter().zip(&a.rows).collect();
    let mut conflicts = Vec::new();
    let find = |n: &Sheet, k: &str| n.rows.iter().position(|r| r.get(key).map(String::as_str) == Some(k));
    for (k, ar) in &after {
        let Some(i) = find(n, k) else {
            conflicts.push(format!("{file}: {k}: the row is gone"));
            continue;
        };
        match before.get(k) {
            Some(br) => {
                for c in &a.columns {
                    let (was, set) =
                        (br.get(c).map_or("", String::as_str), ar.get(c).map_or("", String::as_str));
                    if was == set {
                        continue;
                    }
                    match n.rows[i].get_mut(c) {
                        Some(v) if v == set => *v = was.to_string(),
                        Some(v) => conflicts.push(format!(
                            "{file}: {k}, {c}: is {v} now, the change to take back left it {set} (edited by hand since?)"
                        )),
                        None => conflicts.push(format!("{file}: {k}: the column {c} is gone")),
                    }
                }
            }
            // A row the change added goes, unless it was edited since.
            None if a.columns.iter().all(|c| n.rows[i].get(c) == ar.get(c)) => {
                n.rows.remove(i);
            }
            None => conflicts.push(format!(
                "{file}: {k}: the row the change added is {} now, it was {} (edited by hand since?)",
                shown(&n.rows[i], &a.columns),
                shown(ar, &a.columns)
            )),
        }
    }
    // Rows the change removed come back, after the row that came before them.
    for (j, k) in bk.iter().enumerate() {
        if after.contains_key(k) {
            continue;
        }
        if find(n, k).is_some() {
            conflicts.push(format!("{file}: {k}: the change removed the row, and it is back"));
            continue;
        }
        let at = bk[..j].iter().rev().find_map(|p| find(n, p)).map_or(0, |i| i + 1);
        n.rows.insert(at, b.rows[j].clone());
    }
    conflicts
}

/// [`revert_records`] for rows without a key of their own (`returns.csv`): the rows the
/// change added go, the rows it removed come back at the end.
fn revert_rows(file: &str, b: &Sheet, a: &Sheet, n: &mut Sheet) -> Vec<String> {
    let mut conflicts = Vec::new();
    let mut removed: Vec<&BTreeMap<String, String>> = b.rows.iter().collect();
    let mut added = Vec::new();
    for r in &a.rows {
        match removed.iter().position(|x| *x == r) {
            Some(i) => {
                removed.remove(i);
            }
            None => added.push(r),
        }
    }
    for r in added {
        match n.rows.iter().position(|x| a.columns.iter().all(|c| x.get(c) == r.get(c))) {
            Some(i) => {
                n.rows.remove(i);
            }
            None => conflicts.push(format!(
                "{file}: the row {} that the change added is gone (edited by hand since?)",
                shown(r, &a.columns)
            )),
        }
    }
    n.rows.extend(removed.into_iter().cloned());
    conflicts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_taken_back_from_a_file_saved_by_excel() {
        let before = b"id,men\nA,600\nB,500\n";
        let after = b"id,men\nA,540\nB,500\n";
        let now = b"\xEF\xBB\xBFmen;id\r\n500;B\r\n540;A\r\n";
        let back = revert_records("forces.csv", Some(before), Some(after), Some(now)).unwrap().unwrap();
        assert_eq!(back, b"\xEF\xBB\xBFmen;id\r\n500;B\r\n600;A\r\n");
    }

    #[test]
    fn a_field_set_by_the_change_and_edited_since_is_a_conflict_naming_both_values() {
        let before = b"id,men\nA,600\n";
        let after = b"id,men\nA,540\n";
        let now = b"id,men\r\nA,530\r\n";
        let e = revert_records("forces.csv", Some(before), Some(after), Some(now)).unwrap_err();
        assert_eq!(
            e,
            vec![
                "forces.csv: A, men: is 530 now, the change to take back left it 540 (edited by hand since?)"
            ]
        );
    }

    #[test]
    fn rows_added_go_and_a_file_created_goes() {
        let after = b"turn,unit,men\n21,A,10\n21,A,10\n";
        let now = b"turn,unit,men\r\n\"21\",\"A\",\"10\"\r\n21,A,10\r\n";
        assert_eq!(revert_records("returns.csv", None, Some(after), Some(now)), Ok(None));
        let before = b"turn,unit,men\n21,A,10\n";
        let back = revert_records("returns.csv", Some(before), Some(after), Some(now)).unwrap().unwrap();
        assert_eq!(back, b"turn,unit,men\r\n21,A,10\r\n");
    }
}
