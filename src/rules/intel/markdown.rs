//! The text of an 8.5 briefing. The player's text gives the side's own points, the reading,
//! which dice were rolled and the report; it leaves out the enemy's point total (which would
//! reveal its light cavalry and its commander's record, which 8.5 does not give) and the faces
//! rolled (with a face and the report the player could work back the enemy's exact strength).
//! The umpire's text adds both.

use std::fmt::Write;

use super::{Briefing, IntelPoints, Reading};

/// `12345` as `12,345`.
fn thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `1 division`, `2 divisions`; corps is its own plural.
fn count_of(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `-10 %`, `exact`, `+20 %`.
fn signed_pct(pct: i32) -> String {
    match pct {
        0 => "exact".to_string(),
        p if p > 0 => format!("+{p} %"),
        p => format!("{p} %"),
    }
}

fn points_rows(out: &mut String, p: &IntelPoints) {
    let rows = [
        ("light cavalry squadrons (2 points each)", p.light_cavalry_squadrons, 2 * p.light_cavalry_squadrons),
        ("dragoon squadrons (1 point each)", p.dragoon_squadrons, p.dragoon_squadrons),
        ("light infantry battalions (1 point each)", p.light_battalions, p.light_battalions),
    ];
    for (what, n, pts) in rows {
        let _ = writeln!(out, "| {what} | {n} | {pts} |");
    }
    match &p.commander {
        Some(name) => {
            let _ =
                writeln!(out, "| battles fought by {name} | {} | {} |", p.battles_fought, p.battles_fought);
            let _ = writeln!(out, "| battles won by {name} | {} | {} |", p.battles_won, p.battles_won);
        }
        None => out.push_str("| no commander named | 0 | 0 |\n"),
    }
}

fn what_is_known(r: Reading) -> &'static str {
    if r.advises_brigades() {
        "the enemy's corps, divisions and brigades"
    } else {
        "the enemy's corps and divisions"
    }
}

impl Briefing {
    /// The side's briefing as Markdown, to hand to its player: its own points, the reading, the dice used, the enemy's formations, its men and guns as
    /// reported with their accuracy, and the enemy forces in contact by name and hex.
    /// Never the enemy's point total or exact strength, nor the faces rolled.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let side = self.side;
        let _ = writeln!(out, "# Briefing of the {side}: battle {} at {}\n", self.battle, self.hex);
        out.push_str("Information of enemy forces prior to battle (rule 8.5).\n\n");

        out.push_str("## Points\n\n| source | count | points |\n|---|---:|---:|\n");
        points_rows(&mut out, &self.own);
        let _ = writeln!(out, "| **{side} total** | | **{}** |\n", self.own.total);
        let _ = writeln!(
            out,
            "The {side} have {}: {} are known, and its men and guns within ±{} %.\n",
            self.reading.describe(),
            what_is_known(self.reading),
            self.reading.accuracy_pct()
        );

        let die = self.reading.die();
        let _ = writeln!(
            out,
            "## Dice\n\nOne d{die} for the enemy's men and another d{die}, rolled separately, for its guns.\n"
        );

        out.push_str("## Report\n\n");
        let mut formations =
            vec![count_of(self.corps, "corps", "corps"), count_of(self.divisions, "division", "divisions")];
        if let Some(b) = self.brigades {
            formations.push(count_of(b, "brigade", "brigades"));
        }
        let _ = writeln!(out, "- Formations: {}.", formations.join(", "));
        let _ = writeln!(
            out,
            "- Strength: about {} men and {} (accuracy ±{} %).\n",
            thousands(self.reported_men),
            count_of(self.reported_guns, "gun", "guns"),
            self.reading.accuracy_pct()
        );

        out.push_str("## Enemy forces in contact (rule 8.1)\n\n");
        if self.enemy_forces.is_empty() {
            out.push_str("- none known\n");
        }
        for f in &self.enemy_forces {
            let _ = writeln!(out, "- {} at {}", f.name, f.hex);
        }
        out
    }

    /// The player's text followed by the faces rolled and the error each gave, for the
    /// battle record.
    pub fn to_umpire_markdown(&self) -> String {
        let mut out = self.to_markdown();
        let die = self.reading.die();
        let _ = writeln!(out, "\n## Umpire: the enemy's points (the {})\n", self.side.enemy());
        out.push_str("| source | count | points |\n|---|---:|---:|\n");
        points_rows(&mut out, &self.enemy_points);
        let _ = writeln!(out, "| **{} total** | | **{}** |", self.side.enemy(), self.enemy_points.total);
        out.push_str("\n## Umpire: dice rolled\n\n");
        for (what, face, pct) in
            [("men", self.men_roll, self.men_error_pct), ("guns", self.guns_roll, self.guns_error_pct)]
        {
            let _ = writeln!(out, "- enemy {what}: d{die} = {face}, {}", signed_pct(pct));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_numbers_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(950), "950");
        assert_eq!(thousands(8600), "8,600");
        assert_eq!(thousands(123_456), "123,456");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn errors_read_as_signed_percentages() {
        assert_eq!(signed_pct(-30), "-30 %");
        assert_eq!(signed_pct(0), "exact");
        assert_eq!(signed_pct(20), "+20 %");
    }
}
