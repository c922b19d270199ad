//! `vocab check` and `vocab init`: prove that every SoW id the campaign's vocabulary will
//! write into a battle exists in the umpire's installed NapMod, and write a starting
//! vocabulary from that install (`ops::vocab`).

use anyhow::Result;

use crate::cli::{VocabArgs, VocabCommand, VocabSource};
use crate::formats::report::vocab as report;
use crate::ops::vocab::{InitRequest, Install, Note};
use crate::store::CampaignDir;

/// Runs `vocab check` or `vocab init`.
pub fn run(dir: &CampaignDir, args: VocabArgs) -> Result<()> {
    let mut note = |n: Note| crate::errout!("{}", report::note(&n));
    match args.command {
        VocabCommand::Check(a) => {
            let o = crate::ops::vocab::check(dir, &install(&a.source), &mut note)?;
            if let Some(line) = report::names_line(&o.names) {
                crate::errln!("{line}");
            }
            if a.json {
                super::print_json(&report::check_json(&o))?;
            } else if o.problems.is_empty() {
                crate::outln!("{}", report::check_passed(&o, &a.source.dir));
            }
            Ok(o.problems.into_result()?)
        }
        VocabCommand::Init(a) => {
            let req = InitRequest { install: install(&a.source), out: a.out, force: a.force };
            let o = crate::ops::vocab::init(dir, &req, &mut note)?;
            crate::outln!("{}", report::init_written(&o));
            Ok(())
        }
    }
}

/// The install and vocabulary the arguments name.
fn install(s: &VocabSource) -> Install {
    Install { dir: s.dir.clone(), base: s.base.clone(), profile: s.profile.clone() }
}
