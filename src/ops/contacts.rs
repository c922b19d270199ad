//! The contacts use case: every group of enemy forces in contact, with the side that
//! retreated before battle and was caught (8.2).

use crate::error::Result;
use crate::model::{Campaign, Side};
use crate::rules::zoc::Contact;
use crate::store::CampaignDir;

/// What `contacts` shows.
#[derive(Debug)]
pub struct ContactsOutcome {
    /// The campaign as loaded.
    pub campaign: Campaign,
    /// Every group of enemy forces in contact, with the rule that put them there.
    pub contacts: Vec<Contact>,
    /// For each contact, in the same order, the side that retreated before battle and was
    /// caught (8.2), with its force.
    pub avoiding: Vec<Option<(Side, String)>>,
}

/// The contacts of the campaign as it stands.
pub fn contacts(dir: &CampaignDir) -> Result<ContactsOutcome> {
    let campaign = dir.load()?;
    let contacts = crate::rules::zoc::contacts(&campaign);
    let avoiding = contacts.iter().map(|k| crate::rules::avoidance::avoiding_side(&campaign, k)).collect();
    Ok(ContactsOutcome { campaign, contacts, avoiding })
}
