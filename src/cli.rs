//! The command line: clap's derive types, turned at once into a command to run.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// The umpire's bridge between a Peninsular War hex-map campaign and Scourge of War
/// NapMod multiplayer battles.
#[derive(Debug, Parser)]
#[command(
    name = "sowbridge",
    version,
    about,
    long_about = None,
    after_help = "Examples:\n  sowbridge demo                                   # the example campaign in ./sowbridge-demo, Medellín exported\n  sowbridge --campaign sowbridge-demo/campaign status\n  sowbridge --campaign my-campaign export hex 18.28 --dry-run"
)]
pub struct Cli {
    /// The campaign folder.
    #[arg(long, global = true, env = "SOWBRIDGE_CAMPAIGN", default_value = "campaign")]
    pub campaign: PathBuf,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Output format flag shared by listing commands.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct JsonFlag {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `contacts` options.
#[derive(Debug, clap::Args)]
pub struct ContactsArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Advise each side of the enemy on every contact (8.1, 8.5: the briefing's table and dice,
    /// recorded in decisions.csv), written to turns/T<n>/advice-<side>.md; nothing exported.
    #[arg(long)]
    pub advise: bool,
    /// Record a side's decision on a contact.
    #[command(subcommand)]
    pub decide: Option<ContactsCommand>,
}

/// `contacts` subcommands.
#[derive(Debug, Subcommand)]
pub enum ContactsCommand {
    /// Record each side's decision on the contact at HEX (8.1, 8.2): both fight, a battle
    /// (`export hex`); a side withdraws, its retreat before battle (`retreat` yes in `move`).
    #[command(after_help = "Example:\n  sowbridge contacts decide 18.28 --french fight --allies withdraw")]
    Decide {
        /// Any hex of the contact.
        hex: String,
        /// The French decision: fight or withdraw.
        #[arg(long, value_name = "fight|withdraw")]
        french: Option<crate::model::decisions::Decision>,
        /// The Allies' decision: fight or withdraw.
        #[arg(long, value_name = "fight|withdraw")]
        allies: Option<crate::model::decisions::Decision>,
    },
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load and validate the whole campaign; list every problem with file and line.
    #[command(after_help = "Examples:\n  sowbridge --campaign my-campaign check\n  sowbridge check --json")]
    Check(JsonFlag),
    /// Turn and date, forces per side, contacts.
    #[command(after_help = "Examples:\n  sowbridge status\n  sowbridge status --json")]
    Status(JsonFlag),
    /// Every hex where enemy forces are in contact (rules 8.1, 8.3).
    #[command(
        after_help = "Examples:\n  sowbridge contacts\n  sowbridge contacts --json\n  sowbridge contacts --advise\n  sowbridge contacts decide 18.28 --french fight --allies withdraw"
    )]
    Contacts(ContactsArgs),
    /// Every force's supply line (rules 3.1-3.5): state, source, path, capacity, turns out of
    /// supply and, when cut, where and why; every settlement's computed control and
    /// production (2.1, 2.3); every French force's line of communications (3.5).
    #[command(after_help = "Examples:\n  sowbridge supply\n  sowbridge supply --json > supply.json")]
    Supply(JsonFlag),
    /// Build a battle's SoW files.
    #[command(
        subcommand,
        after_help = "Examples:\n  sowbridge export hex 18.28 --dry-run\n  sowbridge export hex 18.28 --out \"C:\\Games\\SOWGB\\Work\""
    )]
    Export(ExportCommand),
    /// Draw the campaign map: hexes, roads, rivers, settlements, forces and contacts, as an
    /// SVG picture or a self-contained HTML page; or edit the map in the Tiled map editor
    /// (`map export`, `map import`).
    #[command(
        args_conflicts_with_subcommands = true,
        subcommand_negates_reqs = true,
        after_help = "Examples:\n  sowbridge map --out map.svg\n  sowbridge map --out french.html --side french --zoc\n  sowbridge map --out supply.html --supply\n  sowbridge map export peninsula.tmj --image Peninsula.jpg\n  sowbridge map import peninsula.tmj --dry-run"
    )]
    Map(MapArgs),
    /// Prove the profile's SoW ids against an installed mod's Logistics folder.
    #[command(
        after_help = "Examples:\n  sowbridge vocab check \"C:\\Games\\SOWGB\\Mods\\NapMod\\Logistics\"\n  sowbridge vocab init \"C:\\Games\\SOWGB\\Mods\\NapMod\""
    )]
    Vocab(VocabArgs),
    /// Apply a battle result (the game's final dump or sowbridge's result CSV).
    #[command(
        after_help = "Examples:\n  sowbridge apply \"C:\\Games\\SOWGB\\Work\\sowgb_gamedb_03-28-09_15-00-00.csv\" --dry-run\n  sowbridge apply T20-18.28.result.csv --winner allies --withdraw-to SP-EXT=13.29"
    )]
    Apply(ApplyArgs),
    /// March the forces on the players' orders (rules 6.2, 6.3, 6.5.1, 2.5.3, 8.1–8.3).
    #[command(
        name = "move",
        after_help = "Orders files: one order a line, `force,to` (a destination hex: the cheapest legal route) or\n`force,path` (the hexes to march through, space-separated), optional `retreat` yes (8.2),\n`day` (1-14, sent by messenger that day, 6.3.1) and `from` (the headquarters: a force or a hex).\n\nExamples:\n  sowbridge move orders/french.csv orders/allies.csv --dry-run\n  sowbridge move orders/french.csv orders/allies.csv\n  sowbridge move orders/retreat.csv --json"
    )]
    Move(MoveArgs),
    /// Send messages between commanders (rule 6.3.1): each by the shortest road, intercepted
    /// on a 1 in 3 where it crosses an enemy supply line.
    #[command(
        after_help = "Messages file: one message a line, `from,to,day,text` (from and to are forces, day 1-14).\n\nExamples:\n  sowbridge messages orders/messages.csv --dry-run\n  sowbridge messages orders/messages.csv --json"
    )]
    Messages(MessagesArgs),
    /// Revert the newest applied battle, the newest move (`undo move`) or the newest turn
    /// advance (`undo turn`).
    #[command(
        after_help = "Examples:\n  sowbridge undo T20-18.28 --dry-run\n  sowbridge undo T20-18.28\n  sowbridge undo move\n  sowbridge undo turn\n  sowbridge undo contacts"
    )]
    Undo {
        /// The battle id, e.g. T20-18.28, `move` for the newest move, `turn` for the newest
        /// turn advance or `map` for the newest map import.
        battle: String,
        /// Show what would be reverted, change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Every investment and siege (rules 7.1–7.2): place, garrison, investors, kind, the turn
    /// it began, the garrison's original strength, the turn it holds until, and state.
    #[command(after_help = "Examples:\n  sowbridge sieges\n  sowbridge sieges --json")]
    Sieges(JsonFlag),
    /// Rebuild the state from the journal and prove every man is accounted for.
    #[command(after_help = "Examples:\n  sowbridge audit\n  sowbridge audit --json")]
    Audit(JsonFlag),
    /// List the battles with their state.
    #[command(after_help = "Examples:\n  sowbridge battles\n  sowbridge battles --json")]
    Battles(JsonFlag),
    /// One battle.
    #[command(
        subcommand,
        after_help = "Examples:\n  sowbridge battle show T20-18.28\n  sowbridge battle template T20-18.28 --out T20-18.28.result.csv"
    )]
    Battle(BattleCommand),
    /// Apply result files as they appear in the inbox, exactly once.
    #[command(
        after_help = "Examples:\n  sowbridge watch --inbox \"C:\\Games\\SOWGB\\Work\"\n  sowbridge watch --poll 1000      # network shares, Wine"
    )]
    Watch(WatchArgs),
    /// Write a tiny calibration battle for your own install, to settle how it writes its
    /// files (read them back with `inspect`).
    #[command(
        after_help = "Examples:\n  sowbridge calibrate\n  sowbridge calibrate --out calibration --profile x64"
    )]
    Calibrate {
        /// Output folder (default: [paths] sow_work of campaign.toml, else ./calibration).
        #[arg(long)]
        out: Option<PathBuf>,
        /// SoW profile (default: the campaign's).
        #[arg(long)]
        profile: Option<String>,
    },
    /// Report what sowbridge understands of the game's files: dumps, startlocs.csv, dumped
    /// OOBs and scenarios, or a whole Work folder.
    #[command(
        after_help = "Examples:\n  sowbridge inspect \"C:\\Games\\SOWGB\\Work\"\n  sowbridge inspect sowgb_gamedb_03-28-09_15-00-00.csv startlocs.csv --json"
    )]
    Inspect {
        /// Files or folders to read.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Write the profile settings the files show into the campaign's own
        /// templates/<profile>/profile.toml.
        #[arg(long)]
        write: bool,
    },
    /// Try sowbridge on the example campaign, leaving the one shipped untouched: copies it
    /// into a new folder and exports the battle of Medellín there.
    #[command(
        after_help = "Example:\n  sowbridge demo                 # into ./sowbridge-demo\n  sowbridge demo C:\\Temp\\demo"
    )]
    Demo {
        /// The folder to create (must not exist, or be empty).
        #[arg(default_value = "sowbridge-demo")]
        dir: PathBuf,
    },
    /// The campaign calendar.
    #[command(
        subcommand,
        after_help = "Examples:\n  sowbridge turn advance --dry-run\n  sowbridge turn advance"
    )]
    Turn(TurnCommand),
}

/// `move` options.
#[derive(Debug, clap::Args)]
pub struct MoveArgs {
    /// Orders files (CSV: `force,to` or `force,path`, optional `retreat`, `attach`), moved
    /// together; none: only the standing orders march on.
    #[arg(value_name = "ORDERS.csv")]
    pub orders: Vec<PathBuf>,
    /// Show the whole march and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw the marches on the umpire's map into FILE.svg or FILE.html (your file,
    /// not the campaign's).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
}

/// `messages` options.
#[derive(Debug, clap::Args)]
pub struct MessagesArgs {
    /// The messages file (CSV: `from,to,day,text`).
    #[arg(value_name = "MESSAGES.csv")]
    pub file: PathBuf,
    /// Roll the same dice and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `map` options.
#[derive(Debug, clap::Args)]
pub struct MapArgs {
    /// The map in the Tiled map editor.
    #[command(subcommand)]
    pub tiled: Option<MapCommand>,
    /// The picture to write: FILE.svg, or FILE.html for a page holding it.
    #[arg(long, value_name = "FILE", required = true)]
    pub out: Option<PathBuf>,
    /// Only what one side knows: its own forces, and the enemy forces in contact with them
    /// (rule 8.1), without their strength.
    #[arg(long, value_name = "french|allies")]
    pub side: Option<crate::model::Side>,
    /// Shade every force's zone of control (rules 8.1, 8.3).
    #[arg(long)]
    pub zoc: bool,
    /// Draw every force's line of supply to its source, or to where it is cut (3.1-3.3), as
    /// `supply` computes them; with --side, only that side's own.
    #[arg(long)]
    pub supply: bool,
}

/// `map export` and `map import`: the campaign's map in the Tiled map editor.
#[derive(Debug, Subcommand)]
pub enum MapCommand {
    /// Write the campaign's map as a Tiled map (FILE.tmj): the hex grid, terrain and forest
    /// layers, roads, rivers, settlements (every column of settlements.csv) and the hexes'
    /// notes, with the tileset's picture beside it.
    #[command(
        after_help = "Examples:\n  sowbridge map export peninsula.tmj\n  sowbridge map export peninsula.tmj --image Peninsula.jpg --hex-width 48"
    )]
    Export {
        /// The Tiled map to write (.tmj).
        file: PathBuf,
        /// Your own map image, put beneath the grid as an image layer to align in Tiled.
        #[arg(long, value_name = "IMAGE")]
        image: Option<PathBuf>,
        /// A hex's width in pixels, 8 to 1024 (default 32): match your image's hexes. It is
        /// taken down to an even number; the height is the near-regular hex's, rounded to an
        /// even number (80 gives 80 x 70).
        #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(8..=1024))]
        hex_width: Option<u32>,
        /// Write over FILE when it is there (its edits not yet imported are lost).
        #[arg(long)]
        replace: bool,
    },
    /// Read a Tiled map back (as written, or saved by Tiled after editing), check it as `check`
    /// does, show what changes and commit it through the journal (`undo map` reverts it).
    #[command(
        after_help = "Examples:\n  sowbridge map import peninsula.tmj --dry-run\n  sowbridge map import peninsula.tmj"
    )]
    Import {
        /// The Tiled map to read (.tmj).
        file: PathBuf,
        /// Show what would change, change nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// `battle` subcommands.
#[derive(Debug, Subcommand)]
pub enum BattleCommand {
    /// The battle's record, report and dice.
    #[command(
        after_help = "Examples:\n  sowbridge battle show T20-18.28\n  sowbridge battle show T20-18.28 --briefing allies --umpire\n  sowbridge battle show T20-18.28 --html T20-18.28.html\n  sowbridge battle show T20-18.28 --html french.html --side french"
    )]
    Show {
        /// The battle id.
        id: String,
        /// Print one side's briefing (rule 8.5) instead.
        #[arg(long, value_name = "french|allies", conflicts_with = "html")]
        briefing: Option<crate::model::Side>,
        /// With --briefing: the umpire's copy, with the dice faces behind each estimate.
        #[arg(long, requires = "briefing")]
        umpire: bool,
        /// Print the record as JSON.
        #[arg(long, conflicts_with = "html")]
        json: bool,
        /// Write the battle as one self-contained HTML page: the record, the report, the battle
        /// and aftermath pictures (the umpire's page); with --side, that side's player page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// With --html: the player's page of this side: its briefing and its view of the
        /// battle's neighbourhood, nothing of the other side's secrets.
        #[arg(long, value_name = "french|allies", requires = "html")]
        side: Option<crate::model::Side>,
    },
    /// Write the hand-result CSV of a pending battle: every exported unit, no losses yet.
    /// Fill in killed, wounded, missing, captured (and guns_lost, ammo) and `apply` it.
    #[command(after_help = "Example:\n  sowbridge battle template T20-18.28 --out T20-18.28.result.csv")]
    Template {
        /// The battle id.
        id: String,
        /// Write it to this file (default: standard output). An existing file is not replaced.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Cancel an exported battle that will not be fought (8.1): its forces are free to march,
    /// a result for it is refused; the SoW files stay. `undo ID` takes the cancel back.
    #[command(
        after_help = "Example:\n  sowbridge battle cancel T20-18.28 --dry-run\n  sowbridge battle cancel T20-18.28"
    )]
    Cancel {
        /// The battle id.
        id: String,
        /// Only say what would be cancelled.
        #[arg(long)]
        dry_run: bool,
    },
}

/// `watch` options.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// The folder the game writes its dumps to (default: [paths] inbox, else [paths] sow_work).
    #[arg(long)]
    pub inbox: Option<PathBuf>,
    /// Poll every MS milliseconds instead of file-system events (network shares, Wine).
    #[arg(long, value_name = "MS")]
    pub poll: Option<u64>,
    /// How long a file must stay unchanged before it is read, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub settle: u64,
    /// Stop after N results handled (applied, rejected or set aside).
    #[arg(long, value_name = "N")]
    pub exit_after: Option<usize>,
    /// How long a file whose last line has no line ending (still being written) may stay so,
    /// unchanged, before it is set aside in rejected/.
    #[arg(long, value_name = "SECONDS", default_value_t = 900)]
    pub incomplete_limit: u64,
}

/// Subcommands of `turn`.
#[derive(Debug, Subcommand)]
pub enum TurnCommand {
    /// Move to the next two-week turn: returns due, penalties ended, ammunition made good.
    #[command(after_help = "Examples:\n  sowbridge turn advance --dry-run\n  sowbridge turn advance")]
    Advance(TurnAdvanceArgs),
}

/// `turn advance` options.
#[derive(Debug, clap::Args)]
pub struct TurnAdvanceArgs {
    /// Print what would change, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Who won, as the umpire says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WinnerArg {
    /// The French.
    French,
    /// Spain, Portugal and Britain.
    Allies,
    /// Neither.
    Draw,
}

/// Yes or no.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum YesNo {
    /// Yes.
    Yes,
    /// No.
    No,
}

/// `apply` options.
#[derive(Debug, clap::Args)]
pub struct ApplyArgs {
    /// The result file: sowgb_gamedb_*.csv from the game, or a sowbridge result CSV.
    pub file: PathBuf,
    /// The battle, when the file could match several.
    #[arg(long)]
    pub battle: Option<String>,
    /// The winner (default: the campaign's verdict policy).
    #[arg(long, value_enum)]
    pub winner: Option<WinnerArg>,
    /// Whether a river lay at the loser's back (6.5.2), overriding the withdrawal's finding.
    #[arg(long, value_enum)]
    pub river_retreat: Option<YesNo>,
    /// Withdraw the loser (or one losing force) to this hex instead of the proposed one.
    #[arg(long, value_name = "[FORCE=]CC.RR")]
    pub withdraw_to: Vec<String>,
    /// Accept a result that lacks some exported units (they had no losses).
    #[arg(long)]
    pub allow_missing: bool,
    /// Apply a dump written before the battle's end (a battle that crashed): only the final
    /// dump is applied otherwise.
    #[arg(long)]
    pub interim: bool,
    /// A refused dump also shows how each of its rows differs from the nearest battle.
    #[arg(long, short)]
    pub verbose: bool,
    /// Print the report and every change, and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print a JSON summary.
    #[arg(long)]
    pub json: bool,
}

/// What to export.
#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// The forces in contact at a hex, as a SoW NapMod multiplayer battle.
    #[command(
        after_help = "Examples:\n  sowbridge export hex 18.28 --dry-run\n  sowbridge export hex 18.28 --reserve FR-I-LAS-1 --out \"C:\\Games\\SOWGB\\Work\""
    )]
    Hex(ExportHexArgs),
}

/// `export hex` options.
#[derive(Debug, Default, clap::Args)]
pub struct ExportHexArgs {
    /// The battle hex, CC.RR (any hex of a contact).
    pub hex: String,
    /// Output folder (default: [paths] sow_work of campaign.toml, else ./out).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The attacking side (default: the side that moved into contact).
    #[arg(long, value_name = "french|allies")]
    pub attacker: Option<crate::model::Side>,
    /// Entry delay of a joining force, overriding the computed one (repeatable).
    #[arg(long, value_name = "FORCE=MINUTES")]
    pub delay: Vec<String>,
    /// Leave a force out of the battle (repeatable).
    #[arg(long, value_name = "FORCE")]
    pub exclude: Vec<String>,
    /// Keep a light-cavalry brigade in reserve (rule 8.7; repeatable).
    #[arg(long, value_name = "ID")]
    pub reserve: Vec<String>,
    /// SoW map id for the hex's first battle.
    #[arg(long)]
    pub map: Option<String>,
    /// Map orientation for the hex's first battle: 0, 90, 180 or 270.
    #[arg(long)]
    pub orientation: Option<u16>,
    /// The side that tried to refuse battle (rule 8.2).
    #[arg(long, value_name = "french|allies")]
    pub avoiding: Option<crate::model::Side>,
    /// Let the umpire's ruling stand against a rule that would refuse this battle (2.5.3,
    /// 7.1.4; repeatable); recorded in the battle record and the report.
    #[arg(long, value_name = "RULE")]
    pub overrule: Vec<String>,
    /// SoW profile for this export (default: the campaign's).
    #[arg(long)]
    pub profile: Option<String>,
    /// Write scenario.csv in the MASTER form referencing the OOB.
    #[arg(long)]
    pub master: bool,
    /// Export again over a battle still pending at this hex.
    #[arg(long)]
    pub replace: bool,
    /// Print the plan and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print a JSON summary.
    #[arg(long)]
    pub json: bool,
    /// Refuse the export unless every SoW id it writes exists in this installed Logistics
    /// folder (repeat for layers, base game first, then the mod).
    #[arg(long, value_name = "DIR")]
    pub check_vocab: Vec<PathBuf>,
}

/// `vocab` and its subcommands.
#[derive(Debug, clap::Args)]
pub struct VocabArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: VocabCommand,
}

/// Subcommands of `vocab`.
#[derive(Debug, Subcommand)]
pub enum VocabCommand {
    /// List every class, drill, weapon and quality level of the vocabulary that the install
    /// lacks (exit 1 when anything is missing).
    #[command(
        after_help = "Examples:\n  sowbridge vocab check \"C:\\Games\\SOWGB\\Mods\\NapMod\\Logistics\"\n  sowbridge vocab check Mods/NapMod --base Logistics --json"
    )]
    Check(VocabCheckArgs),
    /// Write a starting vocabulary chosen from the install's Logistics files.
    #[command(
        after_help = "Example:\n  sowbridge vocab init \"C:\\Games\\SOWGB\\Mods\\NapMod\" --out my-vocabulary"
    )]
    Init(VocabInitArgs),
}

/// The install and the vocabulary a `vocab` command works on.
#[derive(Debug, clap::Args)]
pub struct VocabSource {
    /// The mod's Logistics folder (or the mod's own folder holding `Logistics`).
    pub dir: PathBuf,
    /// A folder layered under DIR, such as the base game's Logistics; files the mod does not
    /// ship come from it. Repeat for more layers, lowest first.
    #[arg(long = "base", value_name = "DIR")]
    pub base: Vec<PathBuf>,
    /// The profile whose vocabulary to use (default: `profile` in campaign.toml).
    #[arg(long)]
    pub profile: Option<String>,
}

/// `vocab check`.
#[derive(Debug, clap::Args)]
pub struct VocabCheckArgs {
    /// The install and the vocabulary.
    #[command(flatten)]
    pub source: VocabSource,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `vocab init`.
#[derive(Debug, clap::Args)]
pub struct VocabInitArgs {
    /// The install and the vocabulary whose rows to fill.
    #[command(flatten)]
    pub source: VocabSource,
    /// Folder to write into (default: the campaign's `templates/<profile>/`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
}
