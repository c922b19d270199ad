//! The simultaneous march (rules 8.1–8.3, 2.5.3). Every ordered force sets out together and
//! takes each step when it has used that step's share of its turn (a road hex of a 12-hex
//! infantry force at 1/12, 2/12, …; a 14-hex cavalry force's at 1/14, 2/14, …), so that all
//! forces march hex by hex in proportion to their allowance. Steps due at the same instant
//! are taken together, judged against where every force stood before that instant.
//!
//! After each instant a force that stepped into contact with an enemy force (the same hex, a
//! hex next to it, or the extra road hex of a wholly cavalry force on the march, 8.1) halts
//! there: it has entered the enemy's zone of control. The enemy halts too, if it was on the
//! march, since the two are now in contact; but a cavalry force whose extra road hex stops an
//! enemy keeps marching, manoeuvring aside (8.3). A force does not cross the Puente de
//! Alcántara while enemy forces of at least brigade strength hold the other end (2.5.3).
//!
//! Retreats before battle march first (8.2: "if one force declines to fight it must withdraw
//! out of the enemy ZoC which may pursue if it has sufficient move allowance remaining"):
//! every other force waits where it stands until the retreats are done, then all of them
//! march as above, each with what is left of its turn.
//! Neither the order of the orders nor the order of `forces.csv` changes any of this: ties
//! are taken together and every choice among enemies goes to the lowest id.

use std::collections::{BTreeMap, HashMap};

use super::{Plan, TURN_UNITS};
use crate::model::{Campaign, HexId, Side};
use crate::rules::alcantara::{bridge_hexes, force_strength, of_brigade_strength};
use crate::rules::zoc::{ContactRule, Reach, cavalry_road_hex, contact_between, road_hex_ahead};

/// Why a force stopped short of the end of its route.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "why", rename_all = "kebab-case")]
pub enum Halt {
    /// It entered an enemy force's zone of control (8.1, 8.3), or an enemy on the march came
    /// into contact with it (`entered` false).
    Contact {
        /// The enemy force.
        enemy: String,
        /// Where the enemy stood.
        enemy_hex: HexId,
        /// How they touch.
        rule: ContactRule,
        /// True when this force stepped into the enemy's zone; false when the enemy came.
        entered: bool,
    },
    /// The Puente de Alcántara is closed to it (2.5.3).
    Bridge {
        /// The hex across the bridge, held by the enemy.
        across: HexId,
        /// Enemy battalions and squadrons there.
        battalions: u32,
        /// See `battalions`.
        squadrons: u32,
    },
}

/// What one force did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Marched {
    /// The force.
    pub force: String,
    /// Its route: its hex, then every hex ordered.
    pub route: Vec<HexId>,
    /// The hexes it marched through: its hex, then every hex entered.
    pub marched: Vec<HexId>,
    /// Why it stopped short, if it did.
    pub halt: Option<Halt>,
    /// Units of the turn it has used, this march and earlier ones this turn.
    pub used: u64,
    /// Units it had used before this march.
    pub used_before: u64,
    /// Road hexes the turn is worth on this route (what `used` is measured against).
    pub road_rate: u32,
    /// The hex it was marching into when it halted (its side moved into contact), else none.
    pub moving_to: Option<HexId>,
    /// A retreat before battle (8.2).
    pub retreat: bool,
    /// For a retreat: the enemy forces in contact with it where it ended (it was caught).
    pub caught_by: Vec<String>,
    /// The orders file and line.
    pub file: String,
    /// See `file`.
    pub line: u64,
    /// The hexes still to march after this one: the force's standing order (empty when its
    /// order ends this turn).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub standing: Vec<HexId>,
    /// The march continued a standing order.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub continued: bool,
}

impl Marched {
    /// Where it ended.
    pub fn end(&self) -> HexId {
        self.marched[self.marched.len() - 1]
    }
    /// Hexes marched.
    pub fn hexes(&self) -> usize {
        self.marched.len() - 1
    }
    /// Per cent of the turn's allowance used, this march and earlier ones.
    pub fn percent_used(&self) -> u64 {
        self.used * 100 / TURN_UNITS
    }
}

/// One force on the map during the march.
struct Piece {
    id: String,
    side: Side,
    hex: HexId,
    /// The extra road hex of its zone (8.1), as it stands now.
    cav: Option<HexId>,
    /// Index in the plans, for an ordered force.
    plan: Option<usize>,
    /// Some unit of it has men present: a force without exerts no zone of control and
    /// makes no contact (8.1).
    present: bool,
}

/// An ordered force on the march.
struct Walker {
    piece: usize,
    /// Steps taken.
    done: usize,
    halt: Option<Halt>,
    wholly_cavalry: bool,
}

/// Marches every plan at once (see the module's doc) and says what each force did, in the
/// plans' order.
pub fn march(c: &Campaign, plans: &[Plan]) -> Vec<Marched> {
    let mut board = Board::new(c, plans);
    // Every step as (phase, instant, plan, step), the instant counted from the phase's start:
    // the retreats before battle first (phase 0), then every other march (phase 1), so that
    // the decliner withdraws before the enemy pursues with its allowance (8.2).
    let mut events: Vec<(u8, u64, usize, usize)> = Vec::new();
    for (pi, p) in plans.iter().enumerate() {
        for (k, &t) in p.at.iter().enumerate() {
            events.push((u8::from(!p.retreat), t - p.used_before, pi, k));
        }
    }
    events.sort_unstable();
    let events: Vec<((u8, u64), usize, usize)> =
        events.into_iter().map(|(ph, t, pi, k)| ((ph, t), pi, k)).collect();
    let mut e = 0;
    while e < events.len() {
        let t = events[e].0;
        let mut end = e;
        while end < events.len() && events[end].0 == t {
            end += 1;
        }
        let steppers = board.steppers(&events[e..end]);
        board.step(&steppers);
        let halts = board.contacts(&steppers);
        board.halt(halts);
        e = end;
    }
    plans.iter().enumerate().map(|(pi, p)| board.outcome(pi, p)).collect()
}

/// A march under way: every force on the map as a piece, a walker for each ordered one, and
/// the pieces in each hex.
struct Board<'a> {
    c: &'a Campaign,
    plans: &'a [Plan],
    pieces: Vec<Piece>,
    walkers: Vec<Walker>,
    walker_of_plan: Vec<usize>,
    at: HashMap<HexId, Vec<usize>>,
    /// The strength of each piece found holding the far end of the bridge, once counted.
    strength: HashMap<usize, (u32, u32)>,
    /// The two ends of the bridge (north, south).
    bridge: (HexId, HexId),
}

impl<'a> Board<'a> {
    /// Every force on the map placed, the ordered ones with a walker.
    fn new(c: &'a Campaign, plans: &'a [Plan]) -> Self {
        let by_force: BTreeMap<&str, usize> =
            plans.iter().enumerate().map(|(i, p)| (p.force.as_str(), i)).collect();
        let mut pieces: Vec<Piece> = Vec::new();
        let mut walkers: Vec<Walker> = Vec::with_capacity(plans.len());
        let mut walker_of_plan = vec![usize::MAX; plans.len()];
        for f in c.oob.forces() {
            let Some(hex) = f.hex else { continue };
            let plan = by_force.get(f.id.as_str()).copied();
            let i = pieces.len();
            let cav = match plan {
                // An ordered force's extra hex is its new line of march's.
                Some(p) => {
                    let wholly = c.oob.wholly_cavalry(f);
                    walker_of_plan[p] = walkers.len();
                    walkers.push(Walker { piece: i, done: 0, halt: None, wholly_cavalry: wholly });
                    let next = plans[p].path.get(1).copied();
                    next.filter(|_| wholly).and_then(|n| road_hex_ahead(c, hex, n))
                }
                None => cavalry_road_hex(c, f),
            };
            let present = c.oob.has_men(f);
            pieces.push(Piece { id: f.id.to_string(), side: f.side(), hex, cav, plan, present });
        }
        let mut at: HashMap<HexId, Vec<usize>> = HashMap::new();
        for (i, p) in pieces.iter().enumerate() {
            at.entry(p.hex).or_default().push(i);
        }
        Board {
            c,
            plans,
            pieces,
            walkers,
            walker_of_plan,
            at,
            strength: HashMap::new(),
            bridge: bridge_hexes(),
        }
    }

    /// Who steps at this instant (`events`), judged against the positions before it; a force
    /// about to cross the bridge into a brigade's strength of the enemy halts instead.
    fn steppers(&mut self, events: &[((u8, u64), usize, usize)]) -> Vec<(usize, HexId, HexId)> {
        let mut steppers: Vec<(usize, HexId, HexId)> = Vec::new();
        for &(_, pi, k) in events {
            let w = &mut self.walkers[self.walker_of_plan[pi]];
            if w.halt.is_some() {
                continue;
            }
            let (a, b) = (self.plans[pi].path[k], self.plans[pi].path[k + 1]);
            if (a, b) == self.bridge || (a, b) == (self.bridge.1, self.bridge.0) {
                let side = self.pieces[w.piece].side;
                let mut held = (0, 0);
                for &j in self.at.get(&b).map(Vec::as_slice).unwrap_or(&[]) {
                    if self.pieces[j].side != side {
                        let s = *self
                            .strength
                            .entry(j)
                            .or_insert_with(|| force_strength(self.c, &self.pieces[j].id));
                        held = (held.0 + s.0, held.1 + s.1);
                    }
                }
                if of_brigade_strength(held) {
                    w.halt = Some(Halt::Bridge { across: b, battalions: held.0, squadrons: held.1 });
                    continue;
                }
            }
            steppers.push((pi, a, b));
        }
        steppers
    }

    /// The steps taken: each stepper moved to its next hex.
    fn step(&mut self, steppers: &[(usize, HexId, HexId)]) {
        for &(pi, a, b) in steppers {
            let w = &mut self.walkers[self.walker_of_plan[pi]];
            w.done += 1;
            let piece = w.piece;
            if let Some(v) = self.at.get_mut(&a) {
                v.retain(|&j| j != piece);
            }
            self.at.entry(b).or_default().push(piece);
            self.pieces[piece].hex = b;
            let next = self.plans[pi].path.get(w.done + 1).copied();
            self.pieces[piece].cav =
                next.filter(|_| w.wholly_cavalry).and_then(|n| road_hex_ahead(self.c, b, n));
        }
    }

    /// The halts from contacts made at this instant: a stepper entering an enemy's zone, and
    /// an enemy on the march that it touches.
    fn contacts(&self, steppers: &[(usize, HexId, HexId)]) -> Vec<(usize, Halt)> {
        let mut halts: Vec<(usize, Halt)> = Vec::new();
        for &(pi, _, b) in steppers {
            let me = self.walkers[self.walker_of_plan[pi]].piece;
            if !self.pieces[me].present {
                continue;
            }
            let mine: Reach = (self.pieces[me].side, b, self.pieces[me].cav);
            let mut touching: Vec<(ContactRule, &str, usize)> = Vec::new();
            for h in within_two(self.c, b) {
                for &j in self.at.get(&h).map(Vec::as_slice).unwrap_or(&[]) {
                    let p = &self.pieces[j];
                    if p.side == self.pieces[me].side || !p.present {
                        continue;
                    }
                    if let Some(rule) = contact_between(&self.c.map.grid, mine, (p.side, p.hex, p.cav)) {
                        touching.push((rule, p.id.as_str(), j));
                    }
                }
            }
            touching.sort();
            // This force halts on entering any enemy's zone but its own extra hex's reach.
            let entered = touching
                .iter()
                .find(|&&(rule, _, j)| rule != ContactRule::CavalryRoad || self.pieces[j].cav == Some(b));
            if let Some(&(rule, id, j)) = entered {
                halts.push((
                    me,
                    Halt::Contact {
                        enemy: id.to_string(),
                        enemy_hex: self.pieces[j].hex,
                        rule,
                        entered: true,
                    },
                ));
            }
            // An enemy on the march that it touches halts too, but not a cavalry force
            // manoeuvring aside from a force its extra hex stopped (8.3).
            for &(rule, _, j) in &touching {
                let stops_them = rule != ContactRule::CavalryRoad || mine.2 == Some(self.pieces[j].hex);
                if stops_them && self.pieces[j].plan.is_some() {
                    halts.push((
                        j,
                        Halt::Contact {
                            enemy: self.pieces[me].id.clone(),
                            enemy_hex: b,
                            rule,
                            entered: false,
                        },
                    ));
                }
            }
        }
        halts
    }

    /// The halts applied, in a fixed order, to the walkers not yet halted.
    fn halt(&mut self, mut halts: Vec<(usize, Halt)>) {
        halts.sort_by_key(|a| (a.0, halt_key(&a.1)));
        for (piece, halt) in halts {
            let Some(pi) = self.pieces[piece].plan else { continue };
            let w = &mut self.walkers[self.walker_of_plan[pi]];
            // A force that steps into contact on its route's last step halts there all the
            // same (it marched into contact); one that had arrived is not stopped by an enemy
            // that comes to it.
            let stepped_in = matches!(halt, Halt::Contact { entered: true, .. });
            if w.halt.is_none() && (w.done < self.plans[pi].at.len() || stepped_in) {
                w.halt = Some(halt);
            }
        }
    }

    /// What plan `pi` (`p`) came to.
    fn outcome(&self, pi: usize, p: &Plan) -> Marched {
        let w = &self.walkers[self.walker_of_plan[pi]];
        let marched = p.path[..=w.done].to_vec();
        let here = marched[marched.len() - 1];
        let used = if w.done == 0 { p.used_before } else { p.at[w.done - 1] };
        let moving_to = match (&w.halt, p.retreat) {
            (_, true) | (None, _) => None,
            (Some(h), false) => p.path.get(w.done + 1).copied().or(match h {
                Halt::Contact { enemy_hex, .. } if self.c.map.grid.adjacent(here, *enemy_hex) => {
                    Some(*enemy_hex)
                }
                _ => None,
            }),
        };
        let mut caught_by = Vec::new();
        if p.retreat {
            let me = &self.pieces[w.piece];
            for h in within_two(self.c, here) {
                for &j in self.at.get(&h).map(Vec::as_slice).unwrap_or(&[]) {
                    let q = &self.pieces[j];
                    if q.side != me.side
                        && me.present
                        && q.present
                        && contact_between(&self.c.map.grid, (me.side, here, None), (q.side, q.hex, q.cav))
                            .is_some()
                    {
                        caught_by.push(q.id.clone());
                    }
                }
            }
            caught_by.sort();
            caught_by.dedup();
        }
        Marched {
            force: p.force.clone(),
            route: p.path.clone(),
            marched,
            halt: w.halt.clone(),
            used,
            used_before: p.used_before,
            road_rate: p.road_rate(),
            moving_to,
            retreat: p.retreat,
            caught_by,
            file: p.file.clone(),
            line: p.line,
            standing: super::remaining(p, w.done),
            continued: p.standing,
        }
    }
}

fn halt_key(h: &Halt) -> (u8, String) {
    match h {
        Halt::Contact { enemy, entered, .. } => (u8::from(!entered), enemy.clone()),
        Halt::Bridge { .. } => (2, String::new()),
    }
}

/// `h` and every hex within two of it: where a force in contact with `h` can stand.
fn within_two(c: &Campaign, h: HexId) -> Vec<HexId> {
    let grid = &c.map.grid;
    let mut v = vec![h];
    for n in grid.neighbours(h) {
        v.push(n);
        v.extend(grid.neighbours(n));
    }
    v.sort_unstable();
    v.dedup();
    v
}
