//! `crumble store-check [--audit] LOCATION`: runs the store conformance checks a shared run
//! relies on (`crumble_train::store::conformance`) against a location, or with `--audit`
//! checks the invariants of the shared run there (`crumble_train::distributed::audit`) and
//! lists every record file with what became of it.

use crumble_train::distributed::audit::audit;
use crumble_train::store::{Location, Store, conformance};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A directory or s3://BUCKET/PREFIX. The conformance checks write and remove keys under
    /// probe/ and conformance/ there; the audit only reads.
    #[arg(value_name = "LOCATION")]
    location: String,
    /// Audit the shared run at LOCATION instead: commits 1..N read by key with no gap, each
    /// record file used at most once, every checkpoint and replay file holding the SHA-256
    /// its commit names, quarantined files in quarantine/ and named in quarantine.csv.
    #[arg(long)]
    audit: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let store = Store::open(&Location::parse(&a.location)?)?;
    let mut out = String::new();
    if a.audit {
        let r = audit(&store)?;
        for (key, what) in &r.keys {
            out.push_str(&format!("{key} {what}\n"));
        }
        out.push_str(&format!(
            "audit ok: {} committed generations (newest epoch {}), {} files ({} games) used \
             once each, {} duplicates, {} quarantined, {} dropped over the intake cap, {} \
             checkpoint and replay files match their commits' SHA-256\n",
            r.generations,
            r.epoch,
            r.used_files,
            r.used_games,
            r.duplicates,
            r.quarantined,
            r.dropped,
            r.generation_files
        ));
    } else {
        conformance::run_all(&store, &mut |line| out.push_str(&format!("ok: {line}\n")))?;
        out.push_str(&format!(
            "store {} passes the conformance checks\n",
            store.name()
        ));
    }
    crate::cli::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
