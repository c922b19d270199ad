//! The use cases commands, the watcher and `inspect` share: typed request in, typed outcome
//! out, no argument parsing and no printing. Each reads the campaign through the store and
//! asks the rules; only the store commits.

pub mod apply;
pub mod audit;
pub mod battles;
pub mod calibrate;
pub mod check;
pub mod contacts;
pub mod demo;
pub mod export;
pub mod inspect;
pub mod map;
pub mod march;
pub mod messages;
pub mod sieges;
pub mod status;
pub mod tiled;
pub mod turn;
pub mod undo;
pub mod vocab;
pub mod watch;

use crate::error::Result;
use crate::model::Campaign;
use crate::rules::supply::SupplyReport;
use crate::store::CampaignDir;

/// Lets a large value go on a thread of its own: a use case done with the supply report of
/// many thousand forces need not wait while its memory is given back (a process that ends
/// first simply ends). Not where more is allocated after it: memory freed on another thread
/// while the use case goes on leaves its peak higher (a turn advance frees its values where
/// it is).
pub fn let_go<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}

/// The campaign as the rules see it now, with the supply working behind it: loaded once from
/// the folder, each settlement's control computed (or overruled) and each force's supply
/// state taken from its line today (`rules::supply::now`). Every command that shows, exports
/// or applies reads this one value.
pub fn campaign_now(dir: &CampaignDir) -> Result<(Campaign, SupplyReport)> {
    Ok(crate::rules::supply::now(dir.load()?))
}

/// [`campaign_now`], with `beside` worked out beside supply and control on the campaign as
/// loaded (`rules::supply::now_beside`): for what asks neither.
pub fn campaign_now_beside<T: Send>(
    dir: &CampaignDir,
    beside: impl FnOnce(&Campaign) -> T + Send,
) -> Result<(Campaign, SupplyReport, T)> {
    Ok(crate::rules::supply::now_beside(dir.load()?, beside))
}
