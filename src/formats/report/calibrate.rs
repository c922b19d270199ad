//! What `calibrate` tells the umpire: the one-page instruction written beside the
//! calibration battle (`CALIBRATION.txt`), and its lines on what it wrote.

use std::path::{Path, PathBuf};

use crate::model::calibration::CalibrationRecord;

/// What `calibrate` wrote.
#[derive(Debug)]
pub struct Calibration {
    /// The record written beside the scenario.
    pub record: CalibrationRecord,
    /// How many rows the order of battle has.
    pub rows: usize,
    /// The output folder.
    pub out: PathBuf,
    /// The umpire's instruction (`CALIBRATION.txt` in the scenario folder).
    pub instructions: PathBuf,
    /// The unit names file, when the profile writes one.
    pub names: Option<PathBuf>,
}

/// The umpire's one page: where to copy the battle (the OOB `oob` and the scenario folder
/// `scen` written into `out`), what to do in the game, what to bring back.
pub fn instructions(
    r: &CalibrationRecord,
    out: &Path,
    oob: &Path,
    scen: &Path,
    names: Option<&Path>,
) -> String {
    let title = format!("sowbridge calibration battle {}", r.battle);
    let d = r.final_dumps;
    let copy_names = names.map_or(String::new(), |n| {
        format!(
            "   On the Remastered (x64) game, copy also\r\n   {}\r\n   \
             into the same folder's Layout\\Media\\Language folder. Copy the whole output folder\r\n   \
             (OOBs, Scenarios, Layout) as a mod of its own into the game's Mods folder, never over\r\n   \
             the game's own Layout folder, and activate that mod.\r\n",
            n.display()
        )
    });
    let check_names = names.map_or(String::new(), |_| {
        "   Check the unit names: click a battalion and a commander of each side. Their\r\n   \
         names must read \"Calibration French 1st Bn\" and the like, not an id such as\r\n   \
         OOB_1_1_1_1_1_1 and not a blank. Write down what you see, with the second line of\r\n   \
         the unit panel (its brigade's name) if the game shows one.\r\n"
            .to_string()
    });
    format!(
        "{title}\r\n{underline}\r\n\r\n\
         Ten minutes on your own install settle what no public file shows: how your NapMod\r\n\
         build writes its battle dumps and startlocs.csv, and whether it reads sowbridge's\r\n\
         order of battle as intended.\r\n\r\n\
         1. Copy. Unless {out} is your SoW Work folder, copy the file\r\n   \
         {oob}\r\n   \
         into the Work folder's OOBs folder, and the folder\r\n   \
         {scen}\r\n   \
         into its Scenarios folder (keep the names).\r\n\
         {copy_names}\
         2. Play. Start Scourge of War with NapMod active, choose the scenario {id}\r\n   \
         (single player is enough) and let it run: the two brigades stand 300 yards apart.\r\n   \
         Order them forward so that both sides take losses. The battle ends by itself at\r\n   \
         {end} game time, after ten game minutes; do not quit before.\r\n   \
         Its script makes the game write, into the Work folder: at the start, the order of\r\n   \
         battle and the scenario as the engine loaded them (the commands dumpoobscen and\r\n   \
         dumpscen); a battle dump (sowgb_gamedb_*.csv) at two and at five minutes; and at the\r\n   \
         end startlocs.csv ({locs} s before the end), deadbods.csv ({dead} s before) and the\r\n   \
         final battle dump ({gamedb} s before), the margins of the profile.\r\n\
         {check_names}\
         3. Bring back those files from the Work folder, all written during that game, and put\r\n   \
         them in one folder together with this scenario folder. Check that the final battle\r\n   \
         dump arrived whole: its last line is a unit's row, like the lines above it, and a\r\n   \
         second look a minute later shows the same size. If it was cut, raise the margins\r\n   \
         (dumplocs_before_end, dumpdead_before_end, dumpgamedb_before_end in the profile).\r\n\
         4. Inspect. Run:\r\n     \
         sowbridge inspect <that folder>\r\n   \
         It reports what sowbridge understood and what it did not, fact by fact, and the\r\n   \
         profile settings your install needs. Then:\r\n     \
         sowbridge inspect <that folder> --write\r\n   \
         writes those settings into your campaign's own templates folder, and every export\r\n   \
         after uses them. Keep the report (sowbridge inspect --json) with your campaign.\r\n\r\n\
         Nothing here touches your campaign: the calibration battle is no campaign battle.\r\n",
        underline = "=".repeat(title.chars().count()),
        id = r.battle,
        out = out.display(),
        oob = oob.display(),
        scen = scen.display(),
        end = r.end_time,
        locs = d.dumplocs,
        dead = d.dumpdead,
        gamedb = d.dumpgamedb,
    )
}

/// What `calibrate` wrote, for stderr (each line with its line end): the battle, its final
/// dumps, the unit names file.
pub fn written(c: &Calibration) -> String {
    let r = &c.record;
    let mut s = format!(
        "wrote calibration battle {} ({} rows, map {}) into {}; read {} for what to do\n",
        r.battle,
        c.rows,
        r.map,
        c.out.display(),
        c.instructions.display()
    );
    s.push_str(&format!("final dumps: {} (profile {})\n", r.final_dumps.describe(), r.profile));
    if let Some(names) = &c.names {
        s.push_str(&format!(
            "unit names: {} names every unit; check in the game that the names show\n",
            names.display()
        ));
    }
    s
}
