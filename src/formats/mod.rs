//! Text in and out: the campaign's CSV and TOML files, and (later) SoW's files.

pub mod campaign;
pub mod table;
pub mod text;
