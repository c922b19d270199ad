//! One side's searches of the roads (3.2, 3.5): every source of the side at once, or for a
//! Spanish provincial army the sources of its own province only (2.2); strict, and loose to
//! explain a cut line; and for the French from Bayonne and Perpignan.

use std::collections::BTreeMap;

use super::trail::{self, Walk};
use super::{
    Communication, Depot, FRANCE, ForceSupply, Net, Source, TURNS_AT_A_CUT_LINE, Tree, capacity, first_break,
    sources,
};
use crate::model::supply::Trail;
use crate::model::{Campaign, HexId, Side, Supply, Unit};
use crate::rules::control::{Garrisons, SettlementControl};

/// Sources a group of forces may draw on, and the searches from them: strict, and loose (to
/// explain a cut line, run only when one is cut).
struct Reach {
    srcs: Vec<Source>,
    /// The sources by hex (their index in `srcs`), for a walk along a trail.
    at: BTreeMap<HexId, usize>,
    hexes: Vec<HexId>,
    strict: Tree,
    loose: Option<Tree>,
}

impl Reach {
    fn new(net: &Net<'_>, srcs: Vec<Source>) -> Reach {
        let hexes: Vec<HexId> = srcs.iter().map(|s| s.hex).collect();
        let strict = net.search(&hexes, true);
        let mut at = BTreeMap::new();
        for (i, &h) in hexes.iter().enumerate() {
            at.entry(h).or_insert(i);
        }
        Reach { srcs, at, hexes, strict, loose: None }
    }
}

/// One side's searches of the roads: from its sources (3.2), strict and, to explain a cut
/// line, loose; and for the French from Bayonne and Perpignan (3.5). The loose searches run
/// only when a line is cut.
pub(super) struct SideSearch<'a> {
    c: &'a Campaign,
    side: Side,
    control: &'a [SettlementControl],
    net: Net<'a>,
    /// Every source of the side.
    all: Reach,
    /// A Spanish provincial army's: the sources of its province (2.2), by province.
    provinces: BTreeMap<String, Reach>,
    /// The forces' trails (3.2), by force.
    trails: BTreeMap<&'a str, &'a Trail>,
    france: Vec<HexId>,
    loc: Option<Tree>,
    loc_loose: Option<Tree>,
}

impl<'a> SideSearch<'a> {
    pub(super) fn new(
        c: &'a Campaign,
        side: Side,
        control: &'a [SettlementControl],
        g: &'a Garrisons,
        depots: &[Depot],
    ) -> SideSearch<'a> {
        let net = Net::new(c, side, control, g);
        let all = Reach::new(&net, sources(c, side, control, g, depots));
        let france: Vec<HexId> = c
            .map
            .settlements
            .iter()
            .zip(control)
            .filter(|(s, k)| FRANCE.contains(&s.name.as_str()) && k.control.side() == Some(Side::French))
            .map(|(s, _)| s.hex)
            .collect();
        let loc = (side == Side::French).then(|| net.search(&france, true));
        let trails = c.trails.iter().map(|t| (t.force.as_str(), t)).collect();
        SideSearch {
            c,
            side,
            control,
            net,
            all,
            provinces: BTreeMap::new(),
            trails,
            france,
            loc,
            loc_loose: None,
        }
    }

    /// The province whose sources a force may draw on (2.2), for a Spanish force; else none,
    /// and every source of the side.
    fn province_of(&self, f: &Unit) -> Option<String> {
        super::depot::own_province(self.c, f).map(|(p, _)| p.to_string())
    }

    /// The sources and searches for a force: its province's (2.2), or the side's.
    fn reach(&mut self, f: &Unit) -> (&mut Reach, Option<String>) {
        let Some(p) = self.province_of(f) else { return (&mut self.all, None) };
        let (net, all) = (&self.net, &self.all);
        let reach = self.provinces.entry(p.clone()).or_insert_with(|| {
            Reach::new(net, all.srcs.iter().filter(|s| s.province == p).cloned().collect())
        });
        (reach, Some(p))
    }

    /// A force's line of supply (3.1-3.4): in, with its source, path and capacity; or out,
    /// with where and why it is cut, its turns out in a row and the rules' orders (3.3).
    pub(super) fn line(&mut self, f: &Unit, hex: HexId, turns_out_before: u32) -> ForceSupply {
        let mut fs = ForceSupply {
            force: f.id.clone(),
            side: self.side,
            hex,
            state: Supply::Out,
            source: None,
            path: Vec::new(),
            break_hex: None,
            reason: None,
            capacity: None,
            turns_out: 0,
            orders: Vec::new(),
        };
        let (c, control) = (self.c, self.control);
        let trail = self.trails.get(f.id.as_str()).and_then(|t| trail::from_hex(t, hex));
        let province = self.reach(f).1;
        let reach = match &province {
            Some(p) => &self.provinces[p],
            None => &self.all,
        };
        let found = match trail {
            Some(t) => match trail::walk(&self.net, &reach.at, t) {
                Walk::In(path, i) => Some((path, i)),
                Walk::Cut(path, at, why) => {
                    let end = path.last().copied().unwrap_or(hex);
                    let to = reach
                        .at
                        .get(&end)
                        .map_or_else(|| format!("back to {end}"), |&i| format!("to {}", reach.srcs[i].name));
                    fs.break_hex = Some(at);
                    fs.reason = Some(format!("cut at {at} on its trail {to}: {why}"));
                    fs.path = path;
                    None
                }
                Walk::NoSource(path) => {
                    let end = path.last().copied().unwrap_or(hex);
                    fs.reason = Some(format!(
                        "its trail ends at {end}, no supply source of the {}{}: its supply follows it (3.2); the umpire may set its trail in trails.csv",
                        self.side,
                        province.as_deref().map(|p| format!(" in {p} (2.2)")).unwrap_or_default()
                    ));
                    fs.path = path;
                    None
                }
            },
            None => reach.strict.path_to(c.map.grid, hex),
        };
        match found {
            Some((path, i)) => {
                // A force without men present loads no line (3.4): its guns have no crew.
                let st = if c.oob.has_men(f) { c.oob.strength(f) } else { Default::default() };
                fs.state = Supply::In;
                fs.source = Some(reach.srcs[i].name.clone());
                let cap = capacity(&self.net, control, &path, st.men(), st.guns);
                fs.capacity = Some(cap);
                fs.path = path;
                if let Some(p) = province.as_deref().filter(|_| f.depot().is_none()) {
                    fs.reason = Some(format!(
                        "names no depot: draws on the sources of {p}, the Spanish province it stands in (2.2)"
                    ));
                }
            }
            None => {
                fs.turns_out = turns_out_before + 1;
                if fs.reason.is_none() {
                    self.explain_cut(&mut fs, f, hex, province.as_deref());
                }
                if fs.turns_out > TURNS_AT_A_CUT_LINE {
                    let to = fs.break_hex.map_or_else(|| "the break".to_string(), |h| h.to_string());
                    fs.orders.push(format!(
                        "out of supply for more than {TURNS_AT_A_CUT_LINE} turns: must retreat to the break at {to} (3.3)"
                    ));
                } else {
                    fs.orders
                        .push("may hold or withdraw; cannot advance towards a known enemy (3.3)".to_string());
                }
            }
        }
        fs
    }

    /// Why a force's line is cut: no road, no source (of its province, 2.2), or the first
    /// break on the nearest road back to a source.
    fn explain_cut(&mut self, fs: &mut ForceSupply, f: &Unit, hex: HexId, province: Option<&str>) {
        let (side, c) = (self.side, self.c);
        if c.map.road_neighbours(hex).is_empty() {
            fs.reason = Some(format!("no road at {hex}: a supply line runs along roads (3.1)"));
            return;
        }
        let (reach, _) = self.reach(f);
        if reach.srcs.is_empty() {
            fs.reason = Some(match province {
                Some(p) => format!(
                    "no supply source in {p}, its own province: a Spanish army draws on its own province's depots (2.2, 3.2)"
                ),
                None => format!("the {side} have no supply source (3.2)"),
            });
            return;
        }
        let reach = match province {
            Some(p) => self.provinces.get_mut(p),
            None => Some(&mut self.all),
        };
        let Some(reach) = reach else { return };
        let (net, hexes) = (&self.net, &reach.hexes);
        let tree = reach.loose.get_or_insert_with(|| net.search(hexes, false));
        match tree.path_to(c.map.grid, hex) {
            Some((path, i)) => {
                let (at, why) =
                    first_break(&self.net, &path).unwrap_or((hex, "the line is cut (3.3)".to_string()));
                fs.break_hex = Some(at);
                fs.reason = Some(format!("cut at {at} on the road to {}: {why}", reach.srcs[i].name));
                fs.path = path;
            }
            None => {
                fs.reason = Some(match province {
                    Some(p) => format!("no road from {hex} reaches a {side} supply source in {p} (2.2, 3.2)"),
                    None => format!("no road from {hex} reaches a {side} supply source (3.2)"),
                })
            }
        }
    }

    /// A French force's line of communications back to Bayonne or Perpignan (3.5); `None`
    /// for the Allies.
    pub(super) fn communication(&mut self, f: &Unit, hex: HexId) -> Option<Communication> {
        let c = self.c;
        let loc = self.loc.as_ref()?;
        if let Some((path, i)) = loc.path_to(c.map.grid, hex) {
            let to = c
                .map
                .settlements
                .iter()
                .find(|s| s.hex == self.france[i])
                .map_or_else(|| self.france[i].to_string(), |s| s.name.clone());
            return Some(Communication {
                force: f.id.clone(),
                state: "open",
                to: Some(to),
                path,
                break_hex: None,
                reason: None,
            });
        }
        let net = &self.net;
        let tree = self.loc_loose.get_or_insert_with(|| {
            let ends: Vec<HexId> = c
                .map
                .settlements
                .iter()
                .filter(|s| FRANCE.contains(&s.name.as_str()))
                .map(|s| s.hex)
                .collect();
            net.search(&ends, false)
        });
        let (at, why) = match tree.path_to(c.map.grid, hex) {
            Some((path, _)) => {
                first_break(&self.net, &path).map_or((None, None), |(h, w)| (Some(h), Some(w)))
            }
            None => (None, Some("no road reaches Bayonne or Perpignan".to_string())),
        };
        let why = why.or_else(|| Some("Bayonne and Perpignan are not friendly (3.5)".to_string()));
        Some(Communication {
            force: f.id.clone(),
            state: "cut",
            to: None,
            path: Vec::new(),
            break_hex: at,
            reason: why,
        })
    }
}
