//! The reports: the text a turn leaves for the umpire and each side, drawn from the rules'
//! outcomes (`rules::turn`, `rules::intel`). With `svg/` and `html.rs` this is the one part
//! of `formats/` that reads the rules.

pub mod audit;
pub mod battle;
pub mod battles;
pub mod calibrate;
pub mod check;
pub mod contacts;
pub mod demo;
pub mod dispatch;
pub mod export;
pub mod inspect;
pub mod map;
pub mod march;
pub mod messages;
pub mod sieges;
pub mod standing;
pub mod status;
pub mod supply;
pub mod tiled;
pub mod turn;
pub mod undo;
pub mod vocab;
