//! `check`, `status` and `contacts` on the Peninsular fixture and broken copies of it.

use crate::common::*;

#[test]
fn the_fixture_is_valid() {
    let c = Camp::new("peninsula");
    let o = c.run(&["check"]);
    assert_code(&o, 0);
}
