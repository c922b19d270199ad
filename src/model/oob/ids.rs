//! The hashing of unit ids for the order of battle's indexes.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by unit ids (or other keys of the campaign's own, such as a picture's
/// grid cells). Only ever looked up, never walked, so its order reaches no output.
pub type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// A hash set of unit ids, as [`IdMap`]: only ever asked, never walked.
pub type IdSet<K> = HashSet<K, BuildHasherDefault<IdHasher>>;

/// A small, fast hasher for the unit ids of one campaign (the Fx multiply-rotate hash of
/// rustc). The ids are the umpire's own, so no defence against chosen collisions is needed.
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHasher(u64);

impl IdHasher {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(Self::K);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The key of a unit id in the order of battle's index: 32 bits of its hash, so that the
/// index of a large order of battle is small (ids whose keys clash are told apart by the
/// clash list).
pub(super) fn hash_id(id: &str) -> u32 {
    let mut h = IdHasher::default();
    h.write(id.as_bytes());
    (h.finish() >> 32) as u32
}
