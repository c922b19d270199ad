//! Reading a CSV file's records one at a time, header first, in whichever encoding and
//! dialect it was saved in.

use std::io::Read as _;

use crate::error::{Problem, Problems};
use crate::formats::excel::other_separator;
use crate::formats::text::Encoding;
use crate::model::dialect::{Dialect, LineEnd, separator_name};

use super::columns::duplicate_columns;

/// The records of a CSV file one at a time, with the header read first: what both
/// [`Table::parse`] and the streaming reader of the order of battle stand on. Problems with
/// the file's shape (bad CSV, more fields than the header) are pushed and the record
/// skipped; blank records are skipped silently.
#[derive(Debug)]
pub struct Records<'b, R = &'b [u8]> {
    file: &'b str,
    rdr: csv::Reader<Tail<R>>,
    /// Header names, trimmed, lower-cased.
    pub headers: Vec<String>,
    /// The record [`Records::next_record`] lends out.
    rec: Option<csv::StringRecord>,
    /// A record's buffers kept for the next raw read (no allocation per record).
    spare: Option<csv::ByteRecord>,
    decoding: Decoding,
    /// How the file was saved, as far as read.
    dialect: Dialect,
    /// Records that were one field holding the other separator (the first one's line and
    /// their number), reported once at the end of the file.
    mixed: Option<(u64, u64)>,
    /// Records left out for their shape (bad CSV, too many fields, the other separator).
    skipped: u64,
    /// The text of a file whose lines end with CR alone, whose line numbers are counted here
    /// (the csv crate counts LFs), with how far it was counted: (byte, lines before it).
    cr_lines: Option<(&'b [u8], usize, u64)>,
}

/// A source that remembers how many bytes it gave and the last of them, and whether it is
/// exhausted: what tells a last line without a line end from one with it.
#[derive(Debug)]
struct Tail<R> {
    inner: R,
    read: u64,
    last: Option<u8>,
    done: bool,
}

impl<R: std::io::Read> std::io::Read for Tail<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        match buf[..n].last() {
            Some(&b) => {
                self.read += n as u64;
                self.last = Some(b);
            }
            None => self.done = !buf.is_empty(),
        }
        Ok(n)
    }
}

impl<R> Tail<R> {
    fn new(inner: R) -> Self {
        Tail { inner, read: 0, last: None, done: false }
    }
}

/// How the records' bytes become text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decoding {
    /// The whole file was decoded before it was read as CSV.
    Decoded,
    /// Read as UTF-8 so far; `non_ascii` once a record (or a byte-order mark) was not ASCII.
    Utf8 { non_ascii: bool },
    /// A record was not UTF-8 while all before it were ASCII: the file is Windows-1252.
    Windows1252,
    /// A record was not UTF-8 after others that were and were not ASCII (or, streamed, the
    /// lines end with CR alone): only the whole file can say how to read it (see
    /// [`Records::undecidable`]).
    Undecidable,
}

impl<'b> Records<'b> {
    /// Opens already decoded text, read from a file in `encoding`; `None` (with a problem
    /// pushed) when the header line cannot be read.
    pub fn open(
        file: &'b str,
        text: &'b str,
        encoding: Encoding,
        problems: &mut Problems,
    ) -> Option<Records<'b>> {
        let dialect = Dialect::sniff(text.as_bytes(), encoding);
        let rdr = dialect.reader().from_reader(Tail::new(text.as_bytes()));
        let mut records = Records::start(file, rdr, Decoding::Decoded, dialect, problems)?;
        if dialect.line_end == LineEnd::Cr {
            records.cr_lines = Some((text.as_bytes(), 0, 0));
        }
        Some(records)
    }
}

/// A UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How far a streamed file is read ahead for its header line, to find its dialect.
const HEADER_LOOKAHEAD: u64 = 1 << 16;

impl<'b, R: std::io::Read> Records<'b, std::io::Chain<std::io::Cursor<Vec<u8>>, R>> {
    /// Reads a file straight from a reader, without holding it whole, and decides its
    /// encoding as [`decode`] does for a whole file: UTF-8 (with or without a byte-order
    /// mark) when every record is, else Windows-1252. A file that is not UTF-8 only after
    /// some records that were (and not all ASCII), or that starts with a UTF-16 byte-order
    /// mark, cannot be decided record by record, and the lines of a file whose lines end
    /// with CR alone are counted on the whole text: reading stops and
    /// [`Records::undecidable`] says so, for the caller to decode the whole file. `None`
    /// (with a problem pushed) when the header cannot be read.
    pub fn stream(file: &'b str, mut src: R, problems: &mut Problems) -> Option<Self> {
        let mut head = Vec::with_capacity(BOM.len());
        if let Err(e) = src.by_ref().take(BOM.len() as u64).read_to_end(&mut head) {
            problems.push(Problem::in_file(file, format!("cannot read: {e}")));
            return None;
        }
        let bom = head == BOM;
        if bom {
            head.clear();
        }
        // A UTF-16 byte-order mark: the whole file's decoding follows it.
        let utf16 = head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF");
        // The header line, read ahead, says how the file was saved.
        while !head.contains(&b'\n') && (head.len() as u64) < HEADER_LOOKAHEAD {
            match src.by_ref().take(4096).read_to_end(&mut head) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    problems.push(Problem::in_file(file, format!("cannot read: {e}")));
                    return None;
                }
            }
        }
        let dialect = Dialect::sniff(&head, if bom { Encoding::Utf8Bom } else { Encoding::Utf8 });
        let rdr = dialect
            .reader()
            .buffer_capacity(1 << 16)
            .from_reader(Tail::new(std::io::Cursor::new(head).chain(src)));
        // Behind a UTF-16 byte-order mark, or with lines that end with CR alone (whose line
        // numbers only the whole text gives), the whole file is read instead.
        let decoding = if utf16 || dialect.line_end == LineEnd::Cr {
            Decoding::Undecidable
        } else {
            Decoding::Utf8 { non_ascii: bom }
        };
        Records::start(file, rdr, decoding, dialect, problems)
    }
}

impl<'b, R: std::io::Read> Records<'b, R> {
    fn start(
        file: &'b str,
        mut rdr: csv::Reader<Tail<R>>,
        decoding: Decoding,
        dialect: Dialect,
        problems: &mut Problems,
    ) -> Option<Records<'b, R>> {
        let raw = match rdr.byte_headers() {
            Ok(h) => h.clone(),
            Err(e) => {
                problems.push(Problem::at(file, 1, "", format!("cannot read the header line: {e}")));
                return None;
            }
        };
        let mut records = Records {
            file,
            rdr,
            headers: Vec::new(),
            rec: None,
            spare: None,
            decoding,
            dialect,
            mixed: None,
            skipped: 0,
            cr_lines: None,
        };
        let header = records.text_of(raw.clone());
        records.headers = header.iter().map(|s| s.trim().to_ascii_lowercase()).collect();
        let line = raw.position().map_or(1, csv::Position::line);
        duplicate_columns(file, line, &records.headers, problems);
        Some(records)
    }

    /// How the file was saved (its encoding as far as read: settled once it is all read).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Records left out so far for their shape (each with a problem pushed).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// The 1-based line of a position of the reader.
    fn line_at(&mut self, pos: Option<&csv::Position>) -> u64 {
        let Some(pos) = pos else { return 0 };
        let Some((text, at, before)) = &mut self.cr_lines else { return pos.line() };
        let byte = usize::try_from(pos.byte()).unwrap_or(usize::MAX).min(text.len());
        if byte >= *at {
            *before += text[*at..byte].iter().filter(|&&b| b == b'\r').count() as u64;
            *at = byte;
        }
        *before + 1
    }

    /// The 1-based line a record just read starts on. The reader places a record where the
    /// blank lines before it begin (it skips them as part of the record), so those are
    /// counted out: the lines the record spans, less the line ends inside its fields and
    /// its own (none for a last line without one).
    fn record_line(&mut self, rec: &csv::StringRecord) -> u64 {
        let start = self.line_at(rec.position());
        let end_pos = self.rdr.position().clone();
        let end = self.line_at(Some(&end_pos));
        let line_end = if self.cr_lines.is_some() { b'\r' } else { b'\n' };
        let src = self.rdr.get_ref();
        let open_end = src.done && end_pos.byte() == src.read && src.last != Some(line_end);
        let spans = end.saturating_sub(start);
        // A record that ends its one line (nearly every record) starts where it is placed:
        // its fields are not searched for line ends.
        if spans <= 1 && !open_end {
            return start;
        }
        let inside = rec.as_slice().bytes().filter(|&b| b == line_end).count() as u64;
        start + spans.saturating_sub(inside + u64::from(!open_end))
    }

    /// True when reading stopped at a record whose encoding only the whole file can decide
    /// (or, streamed, at the start of a file whose lines end with CR alone).
    pub fn undecidable(&self) -> bool {
        self.decoding == Decoding::Undecidable
    }

    /// A record's text, deciding the encoding as it goes.
    fn text_of(&mut self, raw: csv::ByteRecord) -> csv::StringRecord {
        let raw = match csv::StringRecord::from_byte_record(raw) {
            Ok(text) => match self.decoding {
                Decoding::Utf8 { non_ascii: false } if !text.as_slice().is_ascii() => {
                    self.decoding = Decoding::Utf8 { non_ascii: true };
                    return text;
                }
                Decoding::Windows1252 => text.into_byte_record(),
                _ => return text,
            },
            Err(e) => {
                let raw = e.into_byte_record();
                match self.decoding {
                    Decoding::Utf8 { non_ascii: true } | Decoding::Undecidable => {
                        self.decoding = Decoding::Undecidable;
                        return csv::StringRecord::new();
                    }
                    _ => {
                        self.decoding = Decoding::Windows1252;
                        self.dialect.encoding = Encoding::Windows1252;
                    }
                }
                raw
            }
        };
        let mut text =
            csv::StringRecord::with_capacity(raw.as_slice().len() + raw.as_slice().len() / 8, raw.len());
        for field in &raw {
            text.push_field(&encoding_rs::WINDOWS_1252.decode_without_bom_handling(field).0);
        }
        text.set_position(raw.position().cloned());
        text
    }

    /// Reads the next record as text into `rec`.
    fn read_text(&mut self, rec: &mut csv::StringRecord) -> csv::Result<bool> {
        if self.decoding == Decoding::Decoded {
            return self.rdr.read_record(rec);
        }
        if self.decoding == Decoding::Undecidable {
            return Ok(false);
        }
        let mut raw = self.spare.take().unwrap_or_default();
        match self.rdr.read_byte_record(&mut raw) {
            Ok(true) => {}
            done => {
                self.spare = Some(raw);
                return done;
            }
        }
        let text = self.text_of(raw);
        self.spare = Some(std::mem::replace(rec, text).into_byte_record());
        Ok(self.decoding != Decoding::Undecidable)
    }

    /// The next data record and its 1-based line, or `None` at the end of the file.
    pub fn next_record(&mut self, problems: &mut Problems) -> Option<(u64, &csv::StringRecord)> {
        let mut rec = self.rec.take().unwrap_or_default();
        let line = self.read_into(&mut rec, problems);
        let rec = self.rec.insert(rec);
        line.map(|l| (l, &*rec))
    }

    /// Reads the next data record into `rec` (its buffers reused); its 1-based line, or
    /// `None` at the end of the file.
    pub fn read_into(&mut self, rec: &mut csv::StringRecord, problems: &mut Problems) -> Option<u64> {
        loop {
            match self.read_text(rec) {
                Ok(false) => {
                    self.report_mixed(problems);
                    return None;
                }
                Ok(true) => {
                    let line = self.record_line(rec);
                    if rec.iter().all(|f| f.bytes().all(|b| b.is_ascii_whitespace())) {
                        continue;
                    }
                    let other = other_separator(self.dialect.separator);
                    if rec.len() == 1 && self.headers.len() > 1 && rec.as_slice().as_bytes().contains(&other)
                    {
                        self.mixed.get_or_insert((line, 0)).1 += 1;
                        self.skipped += 1;
                        continue;
                    }
                    if rec.len() > self.headers.len() {
                        problems.push(Problem::at(
                            self.file,
                            line,
                            "",
                            format!("{} fields but the header has {}", rec.len(), self.headers.len()),
                        ));
                        self.skipped += 1;
                        continue;
                    }
                    return Some(line);
                }
                Err(e) => {
                    let line = self.line_at(e.position());
                    problems.push(Problem::at(self.file, line, "", format!("malformed CSV: {e}")));
                    self.skipped += 1;
                }
            }
        }
    }

    /// One problem for every record that held the other separator: a file saved in two
    /// ways is one mistake, not one per field.
    fn report_mixed(&mut self, problems: &mut Problems) {
        let Some((line, n)) = self.mixed.take() else { return };
        let more = match n {
            1 => String::new(),
            2 => " and 1 more line".to_string(),
            n => format!(" and {} more lines", n - 1),
        };
        problems.push(Problem::at(
            self.file,
            line,
            "",
            format!(
                "this line{more} separate fields with {} but the header line with {}: save the whole \
                 file again with one separator",
                separator_name(other_separator(self.dialect.separator)),
                self.dialect.separator_name(),
            ),
        ));
    }

    /// Reads up to `max` more records into a batch (emptied first, its records' buffers
    /// reused); false once the file is done.
    pub fn fill_batch(&mut self, b: &mut RecordBatch, max: usize, problems: &mut Problems) -> bool {
        b.len = 0;
        b.lines.clear();
        while b.len < max {
            if b.records.len() == b.len {
                b.records.push(csv::StringRecord::new());
            }
            let Some(line) = self.read_into(&mut b.records[b.len], problems) else { return false };
            b.lines.push(line);
            b.len += 1;
        }
        true
    }
}

/// Records read ahead, with their lines: what the reading thread of a large file hands to
/// the thread that uses them. Fields are as read, not yet trimmed.
#[derive(Debug, Default)]
pub struct RecordBatch {
    records: Vec<csv::StringRecord>,
    lines: Vec<u64>,
    len: usize,
}

impl RecordBatch {
    /// The records and their lines, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &csv::StringRecord)> {
        self.lines.iter().copied().zip(&self.records[..self.len])
    }
}
