//! Reading a [`SpeedupModel`] from JSON: one flat object whose `model` names the variant.
//!
//! Why not serde's internally tagged enum (`#[serde(tag = "model")]`, still used to *write* the
//! model): serde buffers a tagged object before it knows the variant, and its buffer keeps
//! numbers as machine words or `f64` — or, with serde_json's `arbitrary_precision`, as a private
//! map that no integer field accepts — and the field path of an error stops at the buffered
//! object. Reading every parameter into one flat struct, then checking which ones the named model
//! takes, keeps every number exact and every error precise (`jobs[2].speedup.pbar`, or "the
//! roofline model has no parameter `gamma`").
use super::json;
use super::speedup::SpeedupModel;
use crate::time::Time;
use serde::de::{self, Deserialize, Deserializer};

/// Every parameter any model takes, all optional.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpeedup {
    model: String,
    #[serde(default)]
    times: Option<Vec<Time>>,
    #[serde(default)]
    monotonic: Option<bool>,
    #[serde(default)]
    w: Option<Time>,
    #[serde(default, deserialize_with = "json::opt_u32")]
    pbar: Option<u32>,
    #[serde(default)]
    c: Option<Time>,
    #[serde(default)]
    gamma: Option<Time>,
    #[serde(default)]
    delta: Option<Time>,
    #[serde(default, deserialize_with = "json::opt_u32")]
    bits: Option<u32>,
    #[serde(default)]
    of: Option<Box<SpeedupModel>>,
}

/// The model names and the parameters each one takes (the table of the `speedup` module doc).
const MODELS: [(&str, &[&str]); 9] = [
    ("table", &["times", "monotonic"]),
    ("monotonic", &["times"]),
    ("arbitrary", &["times"]),
    ("roofline", &["w", "pbar"]),
    ("communication", &["w", "c"]),
    ("amdahl", &["w", "gamma"]),
    ("mix", &["w", "gamma", "pbar", "c"]),
    ("power", &["w", "delta"]),
    ("rounded", &["bits", "of"]),
];

impl RawSpeedup {
    /// The parameters given (besides `model`).
    fn given(&self) -> Vec<&'static str> {
        let flags = [
            ("times", self.times.is_some()),
            ("monotonic", self.monotonic.is_some()),
            ("w", self.w.is_some()),
            ("pbar", self.pbar.is_some()),
            ("c", self.c.is_some()),
            ("gamma", self.gamma.is_some()),
            ("delta", self.delta.is_some()),
            ("bits", self.bits.is_some()),
            ("of", self.of.is_some()),
        ];
        flags.iter().filter(|f| f.1).map(|f| f.0).collect()
    }

    /// The model, or a message naming the unknown model, a foreign or a missing parameter.
    fn into_model(self) -> Result<SpeedupModel, String> {
        let Some(&(name, takes)) = MODELS.iter().find(|m| m.0 == self.model) else {
            let names: Vec<&str> = MODELS.iter().map(|m| m.0).collect();
            return Err(format!(
                "unknown model `{}`, expected one of {}",
                self.model,
                names.join(", ")
            ));
        };
        let list = takes.join(", ");
        if let Some(foreign) = self.given().into_iter().find(|g| !takes.contains(g)) {
            return Err(format!(
                "the {name} model has no parameter `{foreign}` (it takes {list})"
            ));
        }
        let need = |v: Option<Time>, p: &str| {
            v.ok_or_else(|| format!("missing `{p}` (the {name} model takes {list})"))
        };
        let need_u32 = |v: Option<u32>, p: &str| {
            v.ok_or_else(|| format!("missing `{p}` (the {name} model takes {list})"))
        };
        let times = |v: Option<Vec<Time>>| {
            v.ok_or_else(|| format!("missing `times` (the {name} model takes {list})"))
        };
        Ok(match name {
            "table" => SpeedupModel::Table {
                times: times(self.times)?,
                // default: a table is not declared monotonic unless `"monotonic": true` (documented)
                monotonic: self.monotonic.unwrap_or(false),
            },
            "monotonic" => SpeedupModel::Monotonic {
                times: times(self.times)?,
            },
            "arbitrary" => SpeedupModel::Arbitrary {
                times: times(self.times)?,
            },
            "roofline" => SpeedupModel::Roofline {
                w: need(self.w, "w")?,
                pbar: need_u32(self.pbar, "pbar")?,
            },
            "communication" => SpeedupModel::Communication {
                w: need(self.w, "w")?,
                c: need(self.c, "c")?,
            },
            "amdahl" => SpeedupModel::Amdahl {
                w: need(self.w, "w")?,
                gamma: need(self.gamma, "gamma")?,
            },
            "mix" => SpeedupModel::Mix {
                w: need(self.w, "w")?,
                gamma: need(self.gamma, "gamma")?,
                pbar: need_u32(self.pbar, "pbar")?,
                c: need(self.c, "c")?,
            },
            "power" => SpeedupModel::Power {
                w: need(self.w, "w")?,
                delta: need(self.delta, "delta")?,
            },
            _ => SpeedupModel::Rounded {
                bits: need_u32(self.bits, "bits")?,
                of: self
                    .of
                    .ok_or_else(|| format!("missing `of` (the {name} model takes {list})"))?,
            },
        })
    }
}

impl<'de> Deserialize<'de> for SpeedupModel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SpeedupModel, D::Error> {
        RawSpeedup::deserialize(d)?
            .into_model()
            .map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<SpeedupModel, String> {
        crate::model::parse_json::<SpeedupModel>(json, "s.json").map_err(|e| e.to_string())
    }

    #[test]
    fn reads_every_model_and_round_trips() {
        for json in [
            r#"{"model":"table","times":[4,2,"3/2",1],"monotonic":true}"#,
            r#"{"model":"table","times":[4,2]}"#,
            r#"{"model":"monotonic","times":[4,3]}"#,
            r#"{"model":"arbitrary","times":[1,2]}"#,
            r#"{"model":"roofline","w":10,"pbar":3}"#,
            r#"{"model":"communication","w":10,"c":"1/2"}"#,
            r#"{"model":"amdahl","w":10,"gamma":0.2}"#,
            r#"{"model":"mix","w":10,"gamma":"1/5","pbar":2,"c":1}"#,
            r#"{"model":"power","w":10,"delta":"0.5"}"#,
            r#"{"model":"rounded","bits":20,"of":{"model":"amdahl","w":1,"gamma":0}}"#,
        ] {
            let m = read(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            let back = read(&serde_json::to_string(&m).unwrap()).unwrap();
            assert_eq!(back, m, "{json}");
        }
        let m =
            read(r#"{"model":"amdahl","w":123456789012345678901234567,"gamma":1e-30}"#).unwrap();
        let SpeedupModel::Amdahl { w, gamma } = m else {
            panic!("not amdahl")
        };
        assert_eq!(w.to_string(), "123456789012345678901234567");
        assert_eq!(
            gamma.recip().unwrap().to_string(),
            format!("1{}", "0".repeat(30))
        );
        let m = read(r#"{"model":"roofline","w":1,"pbar":1e2}"#).unwrap();
        assert_eq!(
            m,
            SpeedupModel::Roofline {
                w: Time::one(),
                pbar: 100
            }
        );
    }

    #[test]
    fn errors_name_the_parameter() {
        for (json, needles) in [
            (
                r#"{"model":"roofline","w":10,"pbar":2,"gamma":1}"#,
                &["no parameter `gamma`", "takes w, pbar"][..],
            ),
            (r#"{"model":"roofline","w":10}"#, &["missing `pbar`"]),
            (
                r#"{"model":"fast","w":10}"#,
                &["unknown model `fast`", "roofline"],
            ),
            (r#"{"w":10}"#, &["missing field `model`"]),
            (
                r#"{"model":"roofline","w":10,"pbar":2.5}"#,
                &["field `pbar`", "2.5"],
            ),
            (
                r#"{"model":"roofline","w":10,"pbar":1e400}"#,
                &["field `pbar`", "1e+400"],
            ),
            (
                r#"{"model":"roofline","w":10,"pbar":-3}"#,
                &["field `pbar`", "-3"],
            ),
            (
                r#"{"model":"rounded","bits":4,"of":{"model":"amdahl","w":1,"gamma":"x"}}"#,
                &["field `of.gamma`"],
            ),
            (
                r#"{"model":"roofline","w":10,"pbar":2,"zeta":1}"#,
                &["unknown field `zeta`"],
            ),
        ] {
            let e = read(json).unwrap_err();
            for n in needles {
                assert!(e.contains(n), "{json}: `{n}` not in {e}");
            }
        }
    }
}
