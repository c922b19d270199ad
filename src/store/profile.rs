//! Finding the SoW profile a campaign uses: its own copy under `templates/<profile>/` when
//! the umpire has one (edited to fit the installed NapMod), else the copy built into the
//! binary. `vocab` and `export` both read the vocabulary through here, so they always
//! agree on which ids a battle will carry.

use crate::error::{Error, Problem, Problems, Result};
use crate::formats::campaign::{names, parse_config};
use crate::formats::profile::{BUILTIN, Profile, builtin, load};
use crate::model::vocabulary::Vocabulary;

use super::CampaignDir;

/// The three files of a profile as found, with where they came from.
#[derive(Debug, Clone)]
pub struct ProfileFiles {
    /// Label the files' problems carry: `templates/<name>` for the campaign's copy,
    /// `built-in templates/<name>` for the shipped one.
    pub label: String,
    /// True when `vocabulary.csv` and `quality.csv` come from the campaign folder.
    pub in_campaign: bool,
    /// `profile.toml` text (the campaign's, else the built-in one).
    pub profile: String,
    /// `vocabulary.csv` bytes.
    pub vocabulary: Vec<u8>,
    /// `quality.csv` bytes.
    pub quality: Vec<u8>,
}

/// Refuses a profile name that is not a plain folder name.
fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Error::refused(format!("'{name}' is not a profile name (letters, digits, '-', '_' and '.')")))
    }
}

/// The built-in profile names, for messages.
fn builtin_names() -> String {
    BUILTIN.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
}

/// The profile files for `name`: `templates/<name>/vocabulary.csv` and `quality.csv` from the
/// campaign when `vocabulary.csv` is there (both are then required), else the built-in pair;
/// `profile.toml` from the campaign when there, else the built-in one.
pub fn profile_files(dir: &CampaignDir, name: &str) -> Result<ProfileFiles> {
    check_name(name)?;
    let rel = format!("templates/{name}");
    let shipped = builtin(name);
    let profile = match dir.read(&format!("{rel}/profile.toml"))? {
        Some(b) => crate::formats::text::decode(&b).0.into_owned(),
        None => match shipped {
            Some(b) => b.profile.to_string(),
            None => {
                return Err(Error::refused(format!(
                    "no profile '{name}': {} has no {rel}/ and the built-in profiles are {}",
                    dir.root().display(),
                    builtin_names()
                )));
            }
        },
    };
    if let Some(vocabulary) = dir.read(&format!("{rel}/vocabulary.csv"))? {
        let Some(quality) = dir.read(&format!("{rel}/quality.csv"))? else {
            return Err(Error::problem(Problem::in_file(
                &format!("{rel}/quality.csv"),
                "missing: the campaign's copy of a profile needs quality.csv beside vocabulary.csv",
            )));
        };
        return Ok(ProfileFiles { label: rel, in_campaign: true, profile, vocabulary, quality });
    }
    match shipped {
        Some(b) => Ok(ProfileFiles {
            label: format!("built-in {rel}"),
            in_campaign: false,
            profile,
            vocabulary: b.vocabulary.as_bytes().to_vec(),
            quality: b.quality.as_bytes().to_vec(),
        }),
        None => Err(Error::problem(Problem::in_file(
            &format!("{rel}/vocabulary.csv"),
            format!("missing, and there is no built-in profile '{name}' ({})", builtin_names()),
        ))),
    }
}

/// Loads the profile and vocabulary a campaign uses under `name` (see [`profile_files`]).
pub fn load_profile(dir: &CampaignDir, name: &str) -> Result<(Profile, Vocabulary)> {
    let f = profile_files(dir, name)?;
    load(&f.label, &f.profile, &f.vocabulary, &f.quality).map_err(Error::Rejected)
}

/// The profile `campaign.toml` names, `None` when the folder has no `campaign.toml`.
pub fn campaign_profile(dir: &CampaignDir) -> Result<Option<String>> {
    let Some(bytes) = dir.read(names::CAMPAIGN)? else { return Ok(None) };
    let mut p = Problems::default();
    match parse_config(&bytes, &mut p) {
        Some(c) => Ok(Some(c.profile)),
        None => Err(Error::Rejected(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_campaign_copy_wins_over_the_built_in_one() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = CampaignDir::new(tmp.path());
        let (_, v) = load_profile(&dir, "napmod-g1").expect("built-in");
        assert_eq!(v.source, "built-in templates/napmod-g1");
        let b = builtin("napmod-g1").expect("shipped");
        let t = tmp.path().join("templates").join("napmod-g1");
        std::fs::create_dir_all(&t).expect("mkdir");
        let edited = b.vocabulary.replace("NAP_FR_Line_Inf", "MY_FR_Line");
        std::fs::write(t.join("vocabulary.csv"), &edited).expect("write");
        assert!(load_profile(&dir, "napmod-g1").is_err(), "quality.csv is required beside it");
        std::fs::write(t.join("quality.csv"), b.quality).expect("write");
        let (p, v) = load_profile(&dir, "napmod-g1").expect("campaign copy");
        assert_eq!(p.name, "napmod-g1", "profile.toml falls back to the built-in one");
        assert_eq!(v.source, "templates/napmod-g1");
        assert!(v.entries.iter().any(|e| e.class == "MY_FR_Line"));
    }

    #[test]
    fn unknown_and_unsafe_names_are_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = CampaignDir::new(tmp.path());
        assert!(load_profile(&dir, "no-such").is_err());
        assert!(load_profile(&dir, "../etc").is_err());
        assert_eq!(campaign_profile(&dir).expect("no campaign.toml"), None);
    }
}
