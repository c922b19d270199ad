//! The places of the sieges (7.1): which can be invested, the strong and sea-supplied places, the
//! provincial capitals, and what each adds to the garrison's holdout.

use crate::model::{Campaign, Settlement, SettlementKind, Side};

/// The strong fortress-cities of 7.1.1, which hold out 1dA + 1 turns.
pub const STRONG: [&str; 5] = ["Zaragosa", "Gerona", "Pamplona", "San Sebastian", "Burgos"];
/// The places 7.1.1 lets the sea supply, which hold out 1dA + 2 turns when the Allies defend.
pub const SEA_SUPPLIED: [&str; 5] = ["Barcelona", "Gibraltar", "Tarragona", "Valencia", "Cádiz"];
/// The provincial capitals of 2.2, where a Spanish garrison marching out with the honours of
/// war goes (7.1.2), by province.
pub const PROVINCIAL_CAPITALS: [(&str, &str); 13] = [
    ("Galicia", "Santiago"),
    ("Asturias", "Oviedo"),
    ("Cantabria", "Santander"),
    ("Leon and Old Castile", "Valladolid"),
    ("Vascongadas", "Vitoria"),
    ("Navarra", "Pamplona"),
    ("Aragon", "Zaragosa"),
    ("Cataluña", "Barcelona"),
    ("Valencia", "Valencia"),
    ("Murcia", "Murcia"),
    ("Castile-La Mancha", "Toledo"),
    ("Andalucía", "Seville"),
    ("Extremadura", "Mérida"),
];

/// A name folded for comparison: lower case, the accents of the rules' place names dropped.
pub fn fold(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'â' => 'a',
            'é' | 'è' | 'ê' => 'e',
            'í' => 'i',
            'ó' | 'ô' => 'o',
            'ú' => 'u',
            'ñ' => 'n',
            'ç' => 'c',
            'z' => 's',
            other => other,
        })
        .collect()
}

pub(super) fn named(list: &[&str], name: &str) -> bool {
    list.iter().any(|n| fold(n) == fold(name))
}

/// The places that can be invested: fortresses and Toledo's Alcázar (2.5, 2.5.3).
pub fn investable(s: &Settlement) -> bool {
    s.kind.is_fortress() || s.citadel
}

/// The modifier to the 1dA turns an invested place holds out (7.1.1).
pub fn holdout_modifier(s: &Settlement, defender: Side) -> i32 {
    let mut m = 0;
    if s.kind == SettlementKind::FortressCity && named(&STRONG, &s.name) {
        m += 1;
    }
    if defender == Side::Allies && named(&SEA_SUPPLIED, &s.name) {
        m += 2;
    }
    if s.kind == SettlementKind::FortressTown || (s.citadel && !s.kind.is_fortress()) {
        m -= 1;
    }
    m
}

/// Why the modifier is what it is, for the report.
pub(super) fn holdout_words(s: &Settlement, defender: Side) -> String {
    let mut w = Vec::new();
    if s.kind == SettlementKind::FortressCity && named(&STRONG, &s.name) {
        w.push("+1 a strong fortress-city");
    }
    if defender == Side::Allies && named(&SEA_SUPPLIED, &s.name) {
        w.push("+2 supplied by sea, the Allies defending");
    }
    if s.kind == SettlementKind::FortressTown {
        w.push("−1 a fortress-town");
    } else if s.citadel && !s.kind.is_fortress() {
        w.push("−1 the citadel counts as a fortress-town (2.5.3)");
    }
    if w.is_empty() { String::new() } else { format!(" {}", w.join(", ")) }
}

/// True while a place generates no supply line (7.1.1: investment "will cut any supply line
/// it generates"): `invested_by` is set or an investment or siege of it goes on.
pub fn supply_cut(c: &Campaign, place: &str) -> bool {
    c.books.active_siege(place).is_some()
        || c.map.settlements.iter().any(|s| s.name == place && s.invested_by.is_some() && investable(s))
}
