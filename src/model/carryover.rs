//! What a battle leaves of each unit (the carry-over of rules 6.5.2.3 and 8.7): the value the
//! carry-over calculator (`rules::carryover`) computes and the journal keeps.

use serde::{Deserialize, Serialize};

/// What becomes of one unit's men and guns after the battle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitCarryover {
    /// Campaign unit id.
    pub unit: String,
    /// Men before the battle.
    pub men_before: u32,
    /// Men in the ranks right after the battle: before, less killed, wounded and deserted.
    pub men_after: u32,
    /// Killed: lost.
    pub killed: u32,
    /// Wounded who rejoin on `wounded_return_turn`.
    pub wounded_returning: u32,
    /// Wounded left on the field and taken prisoner by the enemy.
    pub wounded_captured: u32,
    /// Wounded who never return.
    pub wounded_lost: u32,
    /// Stragglers who rejoin on `stragglers_return_turn`.
    pub stragglers_returning: u32,
    /// Stragglers taken prisoner by the enemy (pursuit, river and the loser's remainder).
    pub stragglers_captured: u32,
    /// Stragglers who never return.
    pub stragglers_lost: u32,
    /// Stragglers drowned in a river at the loser's back (6.5.2.3).
    pub stragglers_drowned: u32,
    /// Guns before the battle.
    pub guns_before: u32,
    /// Guns after the battle.
    pub guns_after: u32,
    /// Guns taken by the enemy (the loser's guns without crew).
    pub guns_captured_by_enemy: u32,
    /// Guns lost for good (the winner's or a draw's guns without crew).
    pub guns_destroyed: u32,
    /// Turn on which the returning wounded rejoin.
    pub wounded_return_turn: u32,
    /// Turn on which the returning stragglers rejoin.
    pub stragglers_return_turn: u32,
}

impl UnitCarryover {
    /// True when every man and gun is accounted for:
    /// `men_before = men_after + killed + wounded_* + stragglers_*`, and
    /// `guns_before = guns_after + guns_captured_by_enemy + guns_destroyed`.
    pub fn conserved(&self) -> bool {
        let men = [
            self.men_after,
            self.killed,
            self.wounded_returning,
            self.wounded_captured,
            self.wounded_lost,
            self.stragglers_returning,
            self.stragglers_captured,
            self.stragglers_lost,
            self.stragglers_drowned,
        ];
        let guns = [self.guns_after, self.guns_captured_by_enemy, self.guns_destroyed];
        let sum = |v: &[u32]| v.iter().map(|&x| u64::from(x)).sum::<u64>();
        sum(&men) == u64::from(self.men_before) && sum(&guns) == u64::from(self.guns_before)
    }

    /// Men taken prisoner by the enemy (wounded and stragglers).
    pub fn captured(&self) -> u32 {
        self.wounded_captured + self.stragglers_captured
    }
}
