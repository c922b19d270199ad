//! The one integration-test binary: the real `sowbridge` binary run on real campaign
//! folders, one module per capability.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "../support/synth.rs"]
mod synth;

mod apply;
mod as_the_rules_write;
mod calibrate;
mod check;
mod crash;
mod decision;
mod dispatch;
mod excel;
mod export;
mod final_dumps;
mod geography;
mod golden;
#[cfg(windows)]
mod held;
mod interrupted;
mod labels;
mod layers;
mod march;
mod messages;
mod mutation;
mod names;
mod newcomer;
mod nothing_lost;
mod one_truth;
mod pictures;
mod pipes;
mod realfiles;
mod results;
mod rules_as_written;
mod scale;
mod standing_orders;
mod stock_ids;
mod supply;
mod supply_rules;
mod tiled;
mod turn;
mod turn_phases;
mod vocab;
mod watch;
mod wiped_out;
