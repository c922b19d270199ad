//! SoW hierarchy chains: the six indices (side, army, corps, division, brigade, regiment)
//! that place a row in a SoW order of battle. A row's rank is its first zero index
//! (sow-formats.md §1.3). The chain is the key that joins the game's dump to the campaign.

use std::fmt;
use std::str::FromStr;

/// Six hierarchy indices, each 0–99.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Chain(pub [u8; 6]);

impl Chain {
    /// The SoW level of the row: 1 (side) … 6 (regiment or gun).
    pub fn level(&self) -> usize {
        self.0.iter().position(|&x| x == 0).unwrap_or(6)
    }
    /// The side index (1 or 2).
    pub fn side(&self) -> u8 {
        self.0[0]
    }
    /// The army index.
    pub fn army(&self) -> u8 {
        self.0[1]
    }
    /// The OOB row id derived from the chain, as GCM did: `OOB_1_1_2_1_3_4`.
    pub fn id(&self) -> String {
        format!("OOB_{self}")
    }
    /// A chain with index `i` (0-based level) set.
    pub fn with(mut self, level: usize, index: u8) -> Chain {
        self.0[level] = index;
        self
    }
}

impl fmt::Display for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e, g] = self.0;
        write!(f, "{a}_{b}_{c}_{d}_{e}_{g}")
    }
}

impl FromStr for Chain {
    type Err = String;
    /// Parses `1_1_2_1_3_4` (also with `,` or `.` between the indices).
    fn from_str(s: &str) -> Result<Self, String> {
        let parts: Vec<&str> = s.trim().split(['_', ',', '.']).collect();
        if parts.len() != 6 {
            return Err(format!("'{s}' is not a chain of six indices"));
        }
        let mut out = [0u8; 6];
        for (i, p) in parts.iter().enumerate() {
            out[i] = p
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|&v| v <= 99)
                .ok_or_else(|| format!("'{p}' in chain '{s}' is not an index 0-99"))?;
        }
        Ok(Chain(out))
    }
}

impl serde::Serialize for Chain {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Chain {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_print_parse_and_rank() {
        let c: Chain = "1_1_2_1_3_4".parse().unwrap();
        assert_eq!(c.level(), 6);
        assert_eq!(c.id(), "OOB_1_1_2_1_3_4");
        assert_eq!(Chain([1, 1, 0, 0, 0, 0]).level(), 2);
        assert_eq!("2,1,7,0,0,0".parse::<Chain>().unwrap().level(), 3);
        assert!("1_1_2".parse::<Chain>().is_err());
        assert!("1_1_2_1_3_100".parse::<Chain>().is_err());
    }
}
