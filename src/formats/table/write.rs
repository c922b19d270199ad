//! Writing a CSV file back in the dialect it was read in.

use crate::model::dialect::Dialect;

/// Writes a CSV file for the campaign folder in the dialect it was read in (a new file:
/// UTF-8, `,`, LF), quoting only where needed.
pub fn write_csv<I, R>(dialect: Dialect, headers: &[&str], extra: &[String], rows: I) -> Vec<u8>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator<Item = String>,
{
    let mut w = dialect.writer().from_writer(Vec::new());
    let head: Vec<&str> = headers.iter().copied().chain(extra.iter().map(String::as_str)).collect();
    // Writing into a Vec<u8> cannot fail.
    let _ = w.write_record(&head);
    for r in rows {
        let r: Vec<String> = r.into_iter().collect();
        let _ = w.write_record(&r);
    }
    dialect.encode(w.into_inner().unwrap_or_default())
}
