//! Tests of a battle's aftermath.

use super::*;
use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
use crate::model::Campaign;
use crate::model::battle::BattleRecord;
use crate::model::result::{Losses, Matched};
use crate::rules::ScriptedDice;

/// A French brigade at 05.03 beaten by a Spanish one at 05.02, a major road south to 05.11.
fn campaign() -> Campaign {
    let mut files = CampaignFiles::default();
    let mut put = |name: &'static str, text: &str| {
        files.files.insert(name, text.as_bytes().to_vec());
    };
    put(names::CAMPAIGN, "name = \"Test\"\nseed = 1808\nturn = 20\n[map]\ncolumns = 12\nrows = 12\n");
    put(names::HEXES, "hex,terrain\n");
    let road: String = (3..11).map(|r| format!("05.{r:02},05.{:02},major\n", r + 1)).collect();
    put(names::ROADS, &format!("from,to,class\n{road}"));
    put(names::RIVERS, "from,to,name\n");
    put(names::SETTLEMENTS, "name,hex,kind,control\n");
    put(names::COMMANDERS, "name,side\n");
    put(
        names::FORCES,
        "id,parent,level,name,nation,arm,men,squadrons,guns,hex\n\
         FR-1,,brigade,French brigade,Fr,,,,,05.03\n\
         FR-1-a,FR-1,battalion,1/4e Ligne,Fr,line,600,,,\n\
         SP-1,,brigade,Spanish brigade,Sp,,,,,05.02\n\
         SP-1-a,SP-1,battalion,Bailen,Sp,line,700,,,\n",
    );
    parse_campaign(&files).unwrap()
}

fn battle() -> BattleRecord {
    let part = |force: &str, side: &str, hex: &str| {
        serde_json::json!({"force": force, "name": force, "side": side, "hex": hex, "role": "principal",
            "distance": 0, "bearing": null, "edge": "centre", "crosses_river": null, "delay_minutes": 0,
            "delay_overridden": false, "out_of_supply": false})
    };
    let unit = |unit: &str, force: &str, side: &str, men: u32| serde_json::json!({"unit": unit, "force": force, "side": side, "men": men, "guns": 0, "squadrons": 0, "ammo": 100});
    serde_json::from_value(serde_json::json!({
        "id": "T20-05.03", "state": "exported", "turn": 20, "hex": "05.03", "place": "hex 05.03",
        "attacker": "Allies", "attacker_reason": "test", "avoiding": null,
        "participants": [part("FR-1", "French", "05.03"), part("SP-1", "Allies", "05.02")],
        "excluded": [], "unavailable": [], "reserves": [],
        "map": {"id": "M", "orientation": 0, "reused": false, "reason": "", "features": []},
        "profile": "napmod-g1", "seed": 1808, "dice": [], "army_index": {"French": 1, "Allies": 1},
        "start_time": "10:00:00", "end_time": "15:00:00", "chains": [],
        "units": [unit("FR-1-a", "FR-1", "French", 600), unit("SP-1-a", "SP-1", "Allies", 700)],
        "scenario_dir": "", "oob": "", "files": {}, "result": null
    }))
    .unwrap()
}

fn matched() -> Matched {
    let mut m = Matched::default();
    m.losses.insert("FR-1-a".into(), Losses { killed: 60, wounded: 90, deserted: 50, ..Losses::default() });
    m.losses.insert("SP-1-a".into(), Losses { killed: 10, wounded: 20, deserted: 5, ..Losses::default() });
    m
}

#[test]
fn the_beaten_force_withdraws_away_from_the_victor_and_every_man_is_accounted_for() {
    let mut c = campaign();
    let b = battle();
    let opts = AftermathOptions { winner: Some(Some(Side::Allies)), ..AftermathOptions::default() };
    let a = compute(&c, &b, &matched(), None, &opts, &mut ScriptedDice::new([])).unwrap();
    assert_eq!(a.verdict.winner, Some(Side::Allies));
    assert_eq!(a.withdrawals.len(), 1);
    let w = &a.withdrawals[0];
    assert_eq!(w.plan.force, "FR-1");
    let to = w.to.expect("the road south, away from the Spanish");
    assert!(c.map.grid.distance(to, "05.02".parse().unwrap()) > 2, "{to}");
    for co in &a.carryover {
        assert!(co.conserved(), "{co:?}");
    }
    a.apply(&mut c, &b);
    assert_eq!(c.oob.get("FR-1").and_then(|f| f.hex), Some(to));
    let fr = a.carryover.iter().find(|co| co.unit == "FR-1-a").unwrap();
    assert_eq!(c.oob.get("FR-1-a").map(|u| u.men), Some(fr.men_after));
    assert!(fr.men_after <= 600 - 60 - 90 - 50 + 50, "killed and wounded leave the battalion");
    let score: Vec<(Side, u32, u32)> =
        c.score.iter().map(|r| (r.side, r.battles_won, r.battles_lost)).collect();
    assert!(score.contains(&(Side::Allies, 1, 0)) && score.contains(&(Side::French, 0, 1)), "{score:?}");
}

#[test]
fn a_draw_moves_nobody_and_refuses_a_river_retreat_rule_6_5_2() {
    let c = campaign();
    let b = battle();
    let draw = AftermathOptions { winner: Some(None), ..AftermathOptions::default() };
    let a = compute(&c, &b, &matched(), None, &draw, &mut ScriptedDice::new([])).unwrap();
    assert!(a.withdrawals.is_empty());
    let river = AftermathOptions { river_retreat: Some(true), ..draw };
    let e = compute(&c, &b, &matched(), None, &river, &mut ScriptedDice::new([])).unwrap_err();
    assert!(e.to_string().contains("rules 6.5.2 and 8.4"), "{e}");
}

#[test]
fn a_destination_for_a_force_that_did_not_lose_is_refused() {
    let c = campaign();
    let b = battle();
    let opts = AftermathOptions {
        winner: Some(Some(Side::Allies)),
        withdraw_to: vec![(Some("SP-1".to_string()), "05.01".parse().unwrap())],
        ..AftermathOptions::default()
    };
    let e = compute(&c, &b, &matched(), None, &opts, &mut ScriptedDice::new([])).unwrap_err();
    assert!(e.to_string().contains("SP-1 is not a losing force"), "{e}");
}
