//! Watcher latency: from a complete result file renamed into the inbox to the campaign
//! committed, measured over many files with the release binary.
//!
//! `cargo run --release --example watch_latency -- [--files N] [--settle MS]`
//!
//! It copies `fixtures/peninsula` into a temporary folder, exports Medellín, starts
//! `sowbridge watch`, and for each file: renames the final `startlocs.csv` into the inbox
//! (the watcher moves the one it used to `processed/`), writes a dump (with different losses
//! each time, so each has its own content hash) beside the inbox, renames the dump in, waits until `journal.jsonl` holds one more apply entry, then undoes the battle so
//! that the next file finds it pending again. Prints each latency, the median and the target
//! (the settle window plus 300 ms).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn bin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let name = if cfg!(windows) { "sowbridge.exe" } else { "sowbridge" };
    dir.join(name)
}

fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let rel = e.path().strip_prefix(from).unwrap();
        let r = rel.to_string_lossy();
        if ["battles", "map/battle-maps.csv", "journal", "returns.csv", "score.csv", "campaign.lock"]
            .iter()
            .any(|w| r.starts_with(w))
        {
            continue;
        }
        let d = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&d).unwrap();
        } else {
            std::fs::copy(e.path(), &d).unwrap();
        }
    }
}

fn sow(campaign: &Path, args: &[&str]) {
    let o = Command::new(bin()).arg("--campaign").arg(campaign).args(args).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

fn dump(record: &serde_json::Value, k: u32) -> Vec<u8> {
    let mut s = String::from(
        "SOW game database\r\n\r\n\r\nSide,Army,Corp,Div,Brig,Reg,Our Name,Ammo,Status,Deserted,Killed,Wounded,R1,R2,R3,R4,R5,R6,Killer Name,Casualties\r\n",
    );
    for e in record["chains"].as_array().unwrap() {
        let chain = e["chain"].as_str().unwrap().replace('_', ",");
        let men = e["men"].as_u64().unwrap() as u32;
        let lost = if e["kind"] == "unit" { men * (k % 7 + 1) / 40 } else { 0 };
        s.push_str(&format!(
            "{chain},{},10,OK,{lost},{},{lost},0,0,0,0,0,0,,0\r\n",
            e["name"].as_str().unwrap(),
            lost / 2
        ));
    }
    s.chars().map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?')).collect()
}

fn startlocs(record: &serde_json::Value) -> Vec<u8> {
    let end = record["end_time"].as_str().unwrap();
    let secs: u32 = end.split(':').map(|x| x.parse::<u32>().unwrap()).fold(0, |a, x| a * 60 + x) - 3;
    let mut s = format!(
        "Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,{:02}:{:02}:{:02}\r\n",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    for e in record["chains"].as_array().unwrap() {
        s.push_str(&format!("{},1,1,0,1,1,F,{},1,1\r\n", e["id"].as_str().unwrap(), e["men"]));
    }
    s.into_bytes()
}

fn applies(campaign: &Path) -> usize {
    std::fs::read_to_string(campaign.join("journal.jsonl"))
        .map(|j| j.lines().filter(|l| l.contains("\"kind\":\"apply\"")).count())
        .unwrap_or(0)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let opt = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let files = opt("--files", 15) as usize;
    let settle = opt("--settle", 2000);
    let tmp = std::env::temp_dir().join(format!("sowbridge-latency-{}", std::process::id()));
    let campaign = tmp.join("campaign");
    let inbox = tmp.join("Work");
    let staging = tmp.join("staging");
    for d in [&campaign, &inbox, &staging] {
        std::fs::create_dir_all(d).unwrap();
    }
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/peninsula"), &campaign);
    sow(&campaign, &["export", "hex", "18.28", "--out", tmp.join("out").to_str().unwrap()]);
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(campaign.join("battles/T20-18.28/battle.json")).unwrap())
            .unwrap();
    let mut watcher = Command::new(bin())
        .arg("--campaign")
        .arg(&campaign)
        .args(["watch", "--inbox", inbox.to_str().unwrap(), "--settle", &settle.to_string()])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let mut lat = Vec::new();
    for k in 0..files {
        let name = format!("sowgb_gamedb_{k:04}.csv");
        // As the game writes them: the final dumplocs, then the dump (the watcher moves the
        // startlocs.csv it used to processed/ with its dump).
        std::fs::write(staging.join("startlocs.csv"), startlocs(&record)).unwrap();
        std::fs::rename(staging.join("startlocs.csv"), inbox.join("startlocs.csv")).unwrap();
        std::fs::write(staging.join(&name), dump(&record, k as u32)).unwrap();
        let before = applies(&campaign);
        let t0 = Instant::now();
        std::fs::rename(staging.join(&name), inbox.join(&name)).unwrap();
        while applies(&campaign) == before {
            assert!(t0.elapsed() < Duration::from_secs(60), "file {k} was not applied");
            std::thread::sleep(Duration::from_millis(5));
        }
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        println!("file {k:>3}: {ms:>7.0} ms");
        lat.push(ms);
        while !inbox.join("processed").join(&name).exists() {
            std::thread::sleep(Duration::from_millis(10));
        }
        sow(&campaign, &["undo", "T20-18.28"]);
    }
    let _ = watcher.kill();
    let _ = watcher.wait();
    lat.sort_by(f64::total_cmp);
    let median = lat[lat.len() / 2];
    let target = settle as f64 + 300.0;
    println!(
        "watcher latency over {files} files: median {median:.0} ms, min {:.0}, max {:.0}; target settle {settle} ms + 300 = {target:.0} ms: {}",
        lat[0],
        lat[lat.len() - 1],
        if median <= target { "PASS" } else { "FAIL" }
    );
    let _ = std::fs::remove_dir_all(&tmp);
    if median <= target { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
