#![allow(dead_code)]
//! Shared helpers: copy a fixture campaign into a temporary folder, run the binary, compare
//! folders byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Path of a fixture under `fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    repo().join("fixtures").join(name)
}

/// What sowbridge writes into a campaign folder: left out when a fixture is copied, so
/// that tests start from the campaign as shipped even after someone ran the README's
/// command on it.
pub const WRITTEN_STATE: [&str; 22] = [
    "battles",
    "messages.csv",
    "decisions.csv",
    "avoidance.csv",
    "trails.csv",
    "roads-seen.csv",
    "standing-orders.csv",
    "turns",
    "sieges.csv",
    "revolts.csv",
    "occupation.csv",
    "campaign-years.csv",
    "intelligence.csv",
    "map/battle-maps.csv",
    "journal.jsonl",
    "journal-baseline",
    "journal-head.txt",
    "returns.csv",
    "score.csv",
    "campaign.lock",
    ".sowbridge",
    "templates",
];

/// Copies a folder recursively, leaving out sowbridge's written state.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let r = rel.to_string_lossy().replace('\\', "/");
        if WRITTEN_STATE.iter().any(|w| r == *w || r.starts_with(&format!("{w}/"))) {
            continue;
        }
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// A temporary copy of a fixture campaign.
pub struct Camp {
    pub tmp: tempfile::TempDir,
    pub dir: PathBuf,
}

impl Camp {
    /// Copies `fixtures/<name>` into a fresh temporary folder.
    pub fn new(name: &str) -> Camp {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("campaign");
        copy_dir(&fixture(name), &dir);
        Camp { tmp, dir }
    }

    /// Runs `sowbridge --campaign <dir> args…`.
    #[track_caller]
    pub fn run(&self, args: &[&str]) -> Output {
        sowbridge(&self.dir, args)
    }

    /// Path of a file in the campaign.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// Reads a campaign file as text.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }

    /// Writes a campaign file.
    pub fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.path(rel), text).unwrap();
    }

    /// Every file of the campaign with its bytes (the lock file left out).
    pub fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        snapshot(&self.dir)
    }
}

/// Every file below a folder with its bytes (`campaign.lock` left out).
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
            if rel == "campaign.lock" {
                continue;
            }
            m.insert(rel, std::fs::read(entry.path()).unwrap());
        }
    }
    m
}

/// Runs the binary on a campaign folder.
pub fn sowbridge(campaign: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("--campaign").arg(campaign).args(args).env_remove("SOWBRIDGE_CAMPAIGN");
    output(&mut cmd)
}

/// Runs a command to its end. Wine now and then fails to start a process ("Internal
/// error", os error 1359) when many start at once; a process that did not start did
/// nothing, so it is started again.
#[track_caller]
pub fn output(cmd: &mut Command) -> Output {
    let mut tries = 0;
    loop {
        match cmd.output() {
            Ok(o) => return o,
            Err(e) if cfg!(windows) && e.raw_os_error() == Some(1359) && tries < 5 => tries += 1,
            Err(e) => panic!("cannot run {cmd:?}: {e}"),
        }
    }
}

/// Starts a command, with [`output`]'s patience for Wine.
#[track_caller]
pub fn spawn(cmd: &mut Command) -> std::process::Child {
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Ok(c) => return c,
            Err(e) if cfg!(windows) && e.raw_os_error() == Some(1359) && tries < 5 => tries += 1,
            Err(e) => panic!("cannot start {cmd:?}: {e}"),
        }
    }
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts an exit code, showing both streams when it differs.
#[track_caller]
pub fn assert_code(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "exit code\n--- stdout\n{}\n--- stderr\n{}",
        stdout(o),
        stderr(o)
    );
}

/// Losses of one SoW row in a test dump: (deserted, killed, wounded).
pub type RowLosses = (u32, u32, u32);

/// A SoW battle dump (`sowgb_gamedb_*.csv`, ISO-8859-1, CRLF) for an exported battle, with
/// the losses `f` gives each row of the chain map (`kind`, `unit`, `men`).
pub fn dump_for(c: &Camp, battle: &str, f: impl Fn(&str, Option<&str>, u32) -> RowLosses) -> Vec<u8> {
    let rec: serde_json::Value =
        serde_json::from_str(&c.read(&format!("battles/{battle}/battle.json"))).unwrap();
    let mut s = String::from("SOW Gettysburg game database\r\nDumped 03/28/1809\r\n\r\n");
    s.push_str("Side,Army,Corp,Div,Brig,Reg,Our Name,Ammo,Status,Deserted,Killed,Wounded,R1,R2,R3,R4,R5,R6,Killer Name,Casualties\r\n");
    for e in rec["chains"].as_array().unwrap() {
        let chain = e["chain"].as_str().unwrap().replace('_', ",");
        let side = chain.split(',').next().unwrap();
        let killer = if side == "1" { "2,1,1,1,1,1" } else { "1,1,1,1,1,1" };
        let (d, k, w) = f(e["kind"].as_str().unwrap(), e["unit"].as_str(), e["men"].as_u64().unwrap() as u32);
        let name = e["name"].as_str().unwrap();
        s.push_str(&format!(
            "{chain},{name},{},OK,{d},{k},{w},{killer},Enemy,{}\r\n",
            e["ammo"].as_u64().unwrap_or(0) / 2,
            k + w
        ));
    }
    s.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?')).collect()
}

/// The `startlocs.csv` of a battle's final `dumplocs` (game time the record's margin before
/// the end).
pub fn final_startlocs(c: &Camp, battle: &str) -> Vec<u8> {
    let rec: serde_json::Value =
        serde_json::from_str(&c.read(&format!("battles/{battle}/battle.json"))).unwrap();
    let end = rec["end_time"].as_str().unwrap();
    let (h, rest) = end.split_once(':').unwrap();
    let (m, _) = rest.split_once(':').unwrap();
    let margin = rec["final_dumps"]["dumplocs"].as_u64().unwrap() as u32;
    let secs: u32 = h.parse::<u32>().unwrap() * 3600 + m.parse::<u32>().unwrap() * 60 - margin;
    let t = format!("{:02}:{:02}:{:02}", secs / 3600, (secs / 60) % 60, secs % 60);
    let mut s = format!("Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,{t}\r\n");
    for e in rec["chains"].as_array().unwrap() {
        s.push_str(&format!(
            "{},10,1,0,1000,1000,DRIL_Lvl6_Inf_Line,{},4,10\r\n",
            e["id"].as_str().unwrap(),
            e["men"]
        ));
    }
    s.into_bytes()
}

/// Exports 18.28 of the fixture into `<tmp>/out`, asserting success.
pub fn export_medellin(c: &Camp, extra: &[&str]) {
    let out = c.tmp.path().join("out");
    let mut args = vec!["export", "hex", "18.28", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    assert_code(&c.run(&args), 0);
}

/// Men of every row of `forces.csv`.
pub fn men(c: &Camp) -> BTreeMap<String, u32> {
    let text = c.read("forces.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let id = h.iter().position(|x| x == "id").unwrap();
    let m = h.iter().position(|x| x == "men").unwrap();
    rdr.records().map(|r| r.unwrap()).map(|r| (r[id].to_string(), r[m].parse().unwrap_or(0))).collect()
}

/// One column of a `forces.csv` row.
pub fn force_field(c: &Camp, id: &str, col: &str) -> String {
    let text = c.read("forces.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let i = h.iter().position(|x| x == "id").unwrap();
    let j = h.iter().position(|x| x == col).unwrap();
    rdr.records().map(|r| r.unwrap()).find(|r| &r[i] == id).map(|r| r[j].to_string()).unwrap()
}

/// Reads an ISO-8859-1, CRLF file into lines of fields, checking the bytes on the way.
pub fn sow_rows(path: &Path) -> Vec<Vec<String>> {
    let bytes = std::fs::read(path).unwrap();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            assert!(i > 0 && bytes[i - 1] == b'\r', "{}: bare LF at byte {i}", path.display());
        }
    }
    let text: String = bytes.iter().map(|&b| b as char).collect();
    assert!(!text.contains('"'), "{}: quotes in a SoW file", path.display());
    text.split("\r\n").filter(|l| !l.is_empty()).map(|l| l.split(',').map(str::to_string).collect()).collect()
}

/// What `supply --json` says of the campaign.
pub fn supply_json(c: &Camp) -> serde_json::Value {
    let o = c.run(&["supply", "--json"]);
    assert_code(&o, 0);
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A force's entry in `supply --json`.
pub fn force<'a>(j: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    j["forces"].as_array().unwrap().iter().find(|f| f["force"] == id).unwrap_or_else(|| panic!("no {id}"))
}

/// A settlement's entry in `supply --json`.
pub fn place<'a>(j: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    j["settlements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name}"))
}
