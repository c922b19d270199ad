//! The one integration-test binary: the real `sowbridge` binary run on real campaign
//! folders, one module per capability.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod apply;
mod check;
mod crash;
mod export;
mod turn;
mod vocab;
mod watch;
