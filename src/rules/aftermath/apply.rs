//! The aftermath applied to the campaign: men, guns and ammunition, returns, river
//! penalties, the losers' hexes, the score (4.0) and the generals' records (8.5).

use std::collections::BTreeMap;

use crate::model::battle::BattleRecord;
use crate::model::ledger::{Return, ReturnKind};
use crate::model::{Campaign, Side, Turn};

use super::Aftermath;

impl Aftermath {
    /// Changes the campaign value: every unit's men, guns and ammunition, the returns, the
    /// river penalties, the losers' hexes, the score (4.0) and the generals' records (8.5).
    /// Returns the commanders hit, by name, with whether each was killed.
    pub fn apply(&self, c: &mut Campaign, b: &BattleRecord) -> Vec<(String, bool)> {
        let turn = c.config.turn;
        let year = Turn(turn).campaign_year();
        let winner = self.verdict.winner;
        let side_of: BTreeMap<&str, Side> = b.units.iter().map(|u| (u.unit.as_str(), u.side)).collect();
        let mut prisoners: BTreeMap<Side, u32> = BTreeMap::new();
        let mut guns_taken: BTreeMap<Side, u32> = BTreeMap::new();
        for co in &self.carryover {
            let side = side_of.get(co.unit.as_str()).copied().unwrap_or(Side::French);
            *prisoners.entry(side.enemy()).or_default() += co.captured();
            *guns_taken.entry(side.enemy()).or_default() += co.guns_captured_by_enemy;
            if let Some(u) = c.oob.get_mut(&co.unit) {
                u.men = co.men_after;
                u.guns = co.guns_after;
                if let Some(a) = self.ammo.get(&co.unit) {
                    u.ammo = Some((*a).min(100) as u8);
                }
            }
            for (men, kind, at) in [
                (co.stragglers_returning, ReturnKind::Stragglers, co.stragglers_return_turn),
                (co.wounded_returning, ReturnKind::Wounded, co.wounded_return_turn),
            ] {
                if men > 0 {
                    c.returns.push(Return {
                        turn: at,
                        unit: co.unit.clone(),
                        men,
                        kind,
                        battle: b.id.clone(),
                    });
                }
            }
        }
        self.river.apply(&mut c.oob);
        for w in &self.withdrawals {
            if let (Some(to), Some(f)) = (w.to, c.oob.get_mut(&w.plan.force)) {
                f.hex = Some(to);
                f.moving_to = None;
            }
        }
        // Score (4.0) and commanders' records (8.5).
        match winner {
            Some(w) => {
                c.score_row(year, w).battles_won += 1;
                c.score_row(year, w.enemy()).battles_lost += 1;
            }
            None => {
                c.score_row(year, Side::French).battles_drawn += 1;
                c.score_row(year, Side::Allies).battles_drawn += 1;
            }
        }
        for s in [Side::French, Side::Allies] {
            let r = c.score_row(year, s);
            r.prisoners_taken += prisoners.get(&s).copied().unwrap_or(0);
            r.guns_captured += guns_taken.get(&s).copied().unwrap_or(0);
        }
        let generals = crate::rules::records::generals_who_fought(&c.oob, b);
        for (name, side) in &generals {
            if let Some(cm) = c.commanders.iter_mut().find(|x| &x.name == name) {
                cm.battles_fought += 1;
                if winner == Some(*side) {
                    cm.battles_won += 1;
                }
            }
        }
        let mut hit_names = Vec::new();
        for h in &self.commanders {
            let Some(name) = c.oob.get(&h.formation).and_then(|f| f.commander().map(str::to_string)) else {
                continue;
            };
            if let Some(cm) = c.commanders.iter_mut().find(|x| x.name == name) {
                cm.status = if h.killed { "killed".to_string() } else { "wounded".to_string() };
                hit_names.push((name, h.killed));
            }
        }
        hit_names
    }
}
