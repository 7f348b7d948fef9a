//! Loading a game from a file: read it, parse it, follow a scenario to the rule file it extends,
//! check it with the user's settings, and group any problems by the text they point into; and
//! the fingerprint of a file read ([`Hashed`]), by which saves and shards know their rule files.

use crate::check::{self, Origin, Settings};
use crate::diagnostic::{Code, Problem};
use crate::files::{self, MAX_RULE_FILE};
use crate::game::Game;
use crate::report::{Findings, Source};
use crate::syntax::ast::{self, Span};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A file the game was read from, with the SHA-256 of its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hashed {
    /// The file's name as given.
    pub file: String,
    /// The SHA-256 of its text, in hex.
    pub sha256: String,
}

impl Hashed {
    /// The file and the hash of its text.
    pub fn of(source: &Source) -> Hashed {
        let digest = Sha256::digest(source.text.as_bytes());
        Hashed { file: source.name.clone(), sha256: digest.iter().map(|b| format!("{b:02x}")).collect() }
    }
}

/// Why a game could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read at all.
    Io(String),
    /// The file was read but has problems.
    Invalid(Vec<Findings>),
}

/// Reads a file as text (a regular file of at most [`MAX_RULE_FILE`] bytes); a file that is not
/// UTF-8 gets a problem at its first bad byte.
pub fn read(path: &Path) -> Result<Result<Source, Findings>, String> {
    let bytes =
        files::read(path, MAX_RULE_FILE, "a rule file").map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Ok(Source { name, text }),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            // The text shown has U+FFFD in place of the bad bytes: the span covers that character.
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let byte = e.as_bytes()[at];
            let bad = Span::new(at, at + char::REPLACEMENT_CHARACTER.len_utf8());
            let problem =
                Problem::new(Code::Syntax, "the file is not UTF-8 text", bad, format!("byte {byte:#04x} is not UTF-8"))
                    .help("rule files are UTF-8 text: save the file as UTF-8, or check that it is the right file");
            Err(Findings { source: Source { name, text }, problems: vec![problem] })
        }
    })
}

fn parse(source: &Source) -> Result<ast::File, Findings> {
    crate::syntax::parse(&source.text).map_err(|problems| Findings { source: source.clone(), problems })
}

/// Loads and checks a rule file or scenario.
pub fn load(path: &Path, settings: &Settings) -> Result<Game, LoadError> {
    let source = read(path).map_err(LoadError::Io)?.map_err(|f| LoadError::Invalid(vec![f]))?;
    let file = parse(&source).map_err(|f| LoadError::Invalid(vec![f]))?;
    match &file.body {
        ast::FileBody::Rules(items) => checked(items, None, settings, &source, None),
        ast::FileBody::Scenario(scenario) => {
            let base_path = base_path(path, &scenario.extends.value);
            let (base, base_file) = read_base(&base_path, scenario, &source)?;
            match &base_file.body {
                ast::FileBody::Rules(items) => checked(items, Some(scenario), settings, &base, Some(&source)),
                ast::FileBody::Scenario(_) => Err(extends_problem(
                    &source,
                    scenario,
                    "it is itself a scenario",
                    "a scenario extends a rule file, not another scenario",
                )),
            }
        }
    }
}

/// The path of the rule file a scenario extends: `extends` is relative to the scenario's folder.
pub(crate) fn base_path(scenario: &Path, extends: &str) -> PathBuf {
    scenario.parent().unwrap_or(Path::new(".")).join(extends)
}

fn read_base(path: &Path, scenario: &ast::Scenario, source: &Source) -> Result<(Source, ast::File), LoadError> {
    let base = match read(path) {
        Err(_) if !path.exists() => {
            let label = format!("no file {}", path.display());
            return Err(extends_problem(
                source,
                scenario,
                &label,
                "the path is relative to the folder of the scenario",
            ));
        }
        Err(message) => {
            let help = "a scenario extends a rule file; the path is relative to the scenario file";
            return Err(extends_problem(source, scenario, &message, help));
        }
        Ok(Err(findings)) => return Err(LoadError::Invalid(vec![findings])),
        Ok(Ok(base)) => base,
    };
    let file = parse(&base).map_err(|f| LoadError::Invalid(vec![f]))?;
    Ok((base, file))
}

fn extends_problem(source: &Source, scenario: &ast::Scenario, why: &str, help: &str) -> LoadError {
    let problems = vec![cannot_extend(scenario, why, help)];
    LoadError::Invalid(vec![Findings { source: source.clone(), problems }])
}

/// The problem of a scenario whose `extends` names no rule file it can extend: `why` is the
/// label at the file's name.
pub(crate) fn cannot_extend(scenario: &ast::Scenario, why: &str, help: &str) -> Problem {
    let message = format!("cannot extend `{}`", scenario.extends.value);
    Problem::new(Code::Extends, message, scenario.extends.span, why.to_string()).help(help)
}

/// Checks the rules and sorts the problems by the source they point into.
fn checked(
    items: &[ast::Item],
    scenario: Option<&ast::Scenario>,
    settings: &Settings,
    rules: &Source,
    scenario_source: Option<&Source>,
) -> Result<Game, LoadError> {
    let found = check::check(items, scenario, settings).map_err(|found| {
        let arguments = Source { name: "command line".into(), text: settings.layout().0 };
        let mut groups: Vec<Findings> = Vec::new();
        for (origin, problem) in found {
            let source = match origin {
                Origin::Rules => rules,
                Origin::Scenario => scenario_source.unwrap_or(rules),
                Origin::Arguments => &arguments,
            };
            match groups.iter_mut().find(|g| g.source.name == source.name) {
                Some(g) => g.problems.push(problem),
                None => groups.push(Findings { source: source.clone(), problems: vec![problem] }),
            }
        }
        LoadError::Invalid(groups)
    })?;
    Ok(found)
}

/// The rule file a game's run-time problems point into: the file itself, or for a scenario the
/// rule file it extends (the flow a scenario does not replace comes from there).
pub fn rules_source(path: &Path) -> Option<Source> {
    let source = read(path).ok()?.ok()?;
    let file = parse(&source).ok()?;
    match &file.body {
        ast::FileBody::Rules(_) => Some(source),
        ast::FileBody::Scenario(scenario) => read(&base_path(path, &scenario.extends.value)).ok()?.ok(),
    }
}
