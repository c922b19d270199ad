//! Scourge of War's own files: the order of battle, the scenario folder, and (in `results`)
//! what the game writes back.

pub mod deploy;
pub mod names;
pub mod oob;
pub mod scenario;
