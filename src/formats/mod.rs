//! Text in and out: the campaign's CSV and TOML files, SoW profiles and vocabularies.

pub mod books;
pub mod campaign;
pub mod decisions;
pub mod excel;
pub mod fields;
pub mod html;
pub mod inspect;
pub mod ledger;
pub mod logistics;
pub mod maps;
pub mod messages;
pub mod orders;
pub mod profile;
pub mod record_merge;
pub mod report;
pub mod results;
pub mod sow;
pub mod standing;
pub mod supply;
pub mod svg;
pub mod table;
pub mod text;
pub mod tiled;
mod toml_words;
pub mod vocabulary;
