//! Plausibility limits of the campaign's numbers. A number past them is a typing slip or a
//! damaged file, never a campaign: refused where it is read, so that no sum or next turn
//! computed from it can overflow.

/// The highest turn: two-week turns from June 1808 would reach it in the 46th year.
pub const MAX_TURN: u32 = 1_000;

/// The most men one row of the order of battle (or one return) may hold: more than any corps
/// of the Peninsular War.
pub const MAX_UNIT_MEN: u32 = 100_000;

/// The most guns one row may hold.
pub const MAX_UNIT_GUNS: u32 = 1_000;

/// The most squadrons one row may hold.
pub const MAX_UNIT_SQUADRONS: u32 = 1_000;

/// The most men the whole order of battle may hold: every sum of men stays far below 2^32.
pub const MAX_TOTAL_MEN: u64 = 10_000_000;
