//! `resched algorithms`: the oracle's catalogue ([`resched::oracle::catalogue`]) as a table or as
//! JSON — every algorithm's name, aliases, paper and section, the label the paper's tables use,
//! the jobs it accepts and the parameters it takes.
use super::Exit;
use resched::error::{Error, Result};
use resched::oracle::catalogue::{Family, Param, CATALOGUE};

/// Arguments of `resched algorithms`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the catalogue as JSON (one object per algorithm).
    #[arg(long)]
    pub json: bool,
}

fn family(f: Family) -> &'static str {
    match f {
        Family::Rigid => "rigid",
        Family::Either => "rigid or moldable",
    }
}

/// The flags (or name parts) that set the parameters.
fn params(ps: &[Param]) -> Vec<&'static str> {
    ps.iter()
        // default: a parameter the command line sets by another means (the `r-list:<m>` part of
        // the name) is shown by its own name
        .map(|p| super::flag("algorithms", p.name()).unwrap_or(p.name()))
        .collect()
}

/// Runs the command.
pub fn run(a: Args) -> Result<Exit> {
    if a.json {
        let v: Vec<serde_json::Value> = CATALOGUE
            .iter()
            .map(|e| {
                serde_json::json!({
                    "name": e.name,
                    "aliases": e.aliases,
                    "paper": e.paper.cite(),
                    "section": e.section,
                    "label": e.label,
                    "family": family(e.family),
                    "parameters": params(e.params),
                    "evaluated_by_paper": e.evaluated,
                    "summary": e.summary,
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&v).map_err(|e| Error::json("output", &e))?;
        crate::outln!("{text}")?;
        return Ok(Exit::Ok);
    }
    for e in CATALOGUE {
        crate::outln!("{}  [{}]", e.name, e.label)?;
        if !e.aliases.is_empty() {
            crate::outln!("    aliases:    {}", e.aliases.join(", "))?;
        }
        crate::outln!("    {}", e.summary)?;
        crate::outln!("    paper:      {}, {}", e.paper.cite(), e.section)?;
        crate::outln!("    jobs:       {}", family(e.family))?;
        crate::outln!("    parameters: {}", params(e.params).join(", "))?;
    }
    Ok(Exit::Ok)
}
