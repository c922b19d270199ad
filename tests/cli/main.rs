//! The one integration-test binary: the real `sowbridge` binary run on real campaign
//! folders, one module per capability.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
#[path = "../support/synth.rs"]
mod synth;

mod apply;
mod check;
mod crash;
mod export;
#[cfg(windows)]
mod held;
mod mutation;
mod pipes;
mod scale;
mod turn;
mod vocab;
mod watch;
