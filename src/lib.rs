//! sowbridge: the umpire's tool for a Peninsular War hex-map campaign fought in Scourge of
//! War NapMod. It exports the forces in contact as SoW multiplayer scenarios and applies
//! the game's battle results back to the campaign under the campaign's rules.
//!
//! Layers: [`model`] and [`rules`] are pure; [`formats`] turns text into model and back;
//! [`store`] alone touches the campaign folder; [`commands`] wires them for the CLI.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod cli;
pub mod commands;
pub mod error;
pub mod formats;
pub mod inbox;
pub mod model;
pub mod ops;
pub mod output;
pub mod rules;
pub mod store;

pub use error::{Error, Problem, Problems, Result};
