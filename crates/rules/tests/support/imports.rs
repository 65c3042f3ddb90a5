//! An import-graph checker for a source folder: which sibling modules name which, and every
//! circle among them.
//!
//! Reusable test support. Another test includes it with
//! `#[path = "../crates/rules/tests/support/imports.rs"] mod imports;` and calls
//! [`assert_no_cycles`] on its own folder. It needs nothing outside `std`.
//!
//! How it reads the code: every `.rs` file under the folder is tokenised (comments, strings and
//! character literals dropped, `#[cfg(test)]` items such as `mod tests { .. }` skipped), and every
//! path is collected — `use` lines with their `{a, b::{c, self}}` groups as well as paths in code
//! (`super::naval::Navy::default()`). A path is made absolute from the file's own module
//! (`crate::`, `super::`, `self::`, `$crate::`, or a child module declared in the file), and when
//! it lands in another sibling module of the folder, that is an edge. A name the folder's own
//! root file (`mod.rs`, `lib.rs`, `main.rs`) re-exports with `pub use x::Name` counts as module
//! `x`, so `crate::strategic::Event` is an edge to `event`. A module that is a folder
//! (`naval/mod.rs`, `naval/model.rs`, ...) is one node; paths inside it are not edges.
//! Circles are the strongly connected components of more than one module (Tarjan).
//!
//! What it does not see: names brought in by glob imports (`use super::*`), `#[path]` attributes
//! and macros that build paths from pieces. None of these are used between modules here.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Where one module names another.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    /// The file, relative to the checked folder.
    pub file: String,
    pub line: usize,
    /// The path as resolved, e.g. `crate::strategic::state::PowerId`.
    pub path: String,
}

/// The sibling modules of one folder and who names whom.
#[derive(Debug, Default)]
pub struct ModuleGraph {
    /// The folder's own module path, e.g. `crate::strategic`.
    pub module: String,
    pub modules: BTreeSet<String>,
    /// from → to → where.
    pub edges: BTreeMap<String, BTreeMap<String, Vec<Site>>>,
}

/// A circle: modules that all reach each other, and the edges among them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub modules: Vec<String>,
    /// (from, to, first place it happens).
    pub edges: Vec<(String, String, Site)>,
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "circle among {{{}}}:", self.modules.join(", "))?;
        for (from, to, site) in &self.edges {
            writeln!(f, "  {from} -> {to}   ({}:{} `{}`)", site.file, site.line, site.path)?;
        }
        Ok(())
    }
}

/// What the nodes of the graph are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nodes {
    /// The folder's direct children: a module that is a folder (`naval/`) is one node.
    TopLevel,
    /// Every file: `naval/mod.rs` is node `naval`, `naval/model.rs` is node `naval::model`.
    Files,
}

impl ModuleGraph {
    /// Reads `folder`, whose module path in its crate is `module` (`crate` for a crate's `src/`,
    /// `crate::strategic` for `src/strategic/`).
    pub fn read(folder: &Path, module: &str, nodes: Nodes) -> io::Result<ModuleGraph> {
        let base: Vec<String> = module.split("::").map(str::to_owned).collect();
        let mut files = Vec::new();
        collect_rs_files(folder, &mut files)?;
        files.sort();

        let mut sources = BTreeMap::new();
        for file in &files {
            let text = fs::read_to_string(file)?;
            sources.insert(file.clone(), Lexed::of(&text));
        }
        // Files of `#[cfg(test)] mod x;` are test code too.
        let mut test_only: Vec<PathBuf> = Vec::new();
        for (file, lexed) in &sources {
            for child in &lexed.test_modules {
                let dir = children_dir(file);
                test_only.push(dir.join(format!("{child}.rs")));
                test_only.push(dir.join(child));
            }
        }
        sources.retain(|file, _| !test_only.iter().any(|t| file.starts_with(t)));

        // Each file's module path, its paths made absolute, and the names its `use` lines bind.
        struct Source {
            rel: String,
            own: Vec<String>,
            paths: Vec<(Vec<String>, usize)>,
        }
        let mut parsed = Vec::new();
        let mut bindings: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for (file, lexed) in &sources {
            let tokens = &lexed.tokens;
            let rel_path = file.strip_prefix(folder).unwrap_or(file);
            let own = file_module(&base, rel_path);
            let children = child_modules(tokens);
            let mut absolute = Vec::new();
            for found in paths(tokens) {
                let Some(path) = resolve(&own, &children, &found.path) else { continue };
                if let Some(name) = found.binds {
                    bindings.entry(own.clone()).or_default().insert(name, path.clone());
                }
                absolute.push((path, found.line));
            }
            let rel = rel_path.to_string_lossy().replace('\\', "/");
            parsed.push(Source { rel, own, paths: absolute });
        }
        let known: BTreeSet<Vec<String>> = parsed.iter().map(|s| s.own.clone()).collect();

        let node_of = |own: &[String]| -> Option<String> {
            let rest = own.strip_prefix(base.as_slice())?;
            match nodes {
                Nodes::TopLevel => rest.first().cloned(),
                Nodes::Files => (!rest.is_empty()).then(|| rest.join("::")),
            }
        };

        let mut graph = ModuleGraph { module: module.to_owned(), ..ModuleGraph::default() };
        graph.modules = known.iter().filter_map(|own| node_of(own)).collect();
        for source in &parsed {
            let Some(from) = node_of(&source.own) else { continue };
            for (path, line) in &source.paths {
                let canonical = follow_bindings(path, &known, &bindings);
                let Some(module) = longest_module(&canonical, &known) else { continue };
                let Some(to) = node_of(module) else { continue };
                if to == from {
                    continue;
                }
                let site = Site { file: source.rel.clone(), line: *line, path: canonical.join("::") };
                graph.edges.entry(from.clone()).or_default().entry(to).or_default().push(site);
            }
        }
        Ok(graph)
    }

    /// Every circle (strongly connected component of more than one module), sorted.
    pub fn cycles(&self) -> Vec<Cycle> {
        let names: Vec<&String> = self.modules.iter().collect();
        let index: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let succ: Vec<Vec<usize>> = names
            .iter()
            .map(|n| {
                self.edges
                    .get(*n)
                    .map(|tos| tos.keys().filter_map(|t| index.get(t).copied()).collect())
                    .unwrap_or_default()
            })
            .collect();
        let mut cycles: Vec<Cycle> = tarjan(&succ)
            .into_iter()
            .filter(|scc| scc.len() > 1)
            .map(|scc| {
                let members: BTreeSet<&String> = scc.iter().map(|&i| names[i]).collect();
                let mut edges = Vec::new();
                for from in &members {
                    for (to, sites) in self.edges.get(*from).into_iter().flatten() {
                        if members.contains(to)
                            && let Some(site) = sites.iter().min()
                        {
                            edges.push(((*from).clone(), to.clone(), site.clone()));
                        }
                    }
                }
                Cycle { modules: members.into_iter().cloned().collect(), edges }
            })
            .collect();
        cycles.sort_by(|a, b| a.modules.cmp(&b.modules));
        cycles
    }

    /// The edges as `from -> to` lines, for reports.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for (from, tos) in &self.edges {
            let tos: Vec<&str> = tos.keys().map(String::as_str).collect();
            out.push_str(&format!("{from} -> {}\n", tos.join(", ")));
        }
        out
    }
}

/// Panics with every circle and its edges when the modules of `folder` (module path `module`)
/// name each other in a circle.
pub fn assert_no_cycles(folder: &Path, module: &str, nodes: Nodes) {
    let graph = match ModuleGraph::read(folder, module, nodes) {
        Ok(graph) => graph,
        Err(error) => panic!("cannot read {}: {error}", folder.display()),
    };
    assert!(!graph.modules.is_empty(), "no modules found in {}", folder.display());
    let cycles = graph.cycles();
    if !cycles.is_empty() {
        let report: Vec<String> = cycles.iter().map(ToString::to_string).collect();
        panic!("import circles in {} ({module}):\n{}", folder.display(), report.join("\n"));
    }
}

/// Every path into another crate `krate` (`rules::strategic::query::walk`) that the code under
/// `folder` names, `use` groups expanded and test items left out, sorted: what one crate asks of
/// another.
pub fn paths_into(folder: &Path, krate: &str) -> io::Result<Vec<Site>> {
    let mut files = Vec::new();
    collect_rs_files(folder, &mut files)?;
    files.sort();
    let mut out = Vec::new();
    for file in &files {
        let lexed = Lexed::of(&fs::read_to_string(file)?);
        let rel = file.strip_prefix(folder).unwrap_or(file).to_string_lossy().replace('\\', "/");
        for found in paths(&lexed.tokens) {
            if found.path.first().is_some_and(|s| s == krate) {
                out.push(Site { file: rel.clone(), line: found.line, path: found.path.join("::") });
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Every folder under `src` (itself first) with its module path (`crate`, `crate::strategic`,
/// ...), sorted: the folders whose modules [`assert_no_cycles`] is run on.
pub fn module_folders(src: &Path) -> io::Result<Vec<(PathBuf, String)>> {
    fn walk(dir: &Path, module: &str, out: &mut Vec<(PathBuf, String)>) -> io::Result<()> {
        out.push((dir.to_path_buf(), module.to_owned()));
        let mut dirs: Vec<PathBuf> =
            fs::read_dir(dir)?.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
        dirs.sort();
        for d in dirs {
            let name = d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            walk(&d, &format!("{module}::{name}"), out)?;
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(src, "crate", &mut out)?;
    Ok(out)
}

fn collect_rs_files(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_rs_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

fn is_root_file(name: &str) -> bool {
    matches!(name, "mod.rs" | "lib.rs" | "main.rs")
}

/// The module path of a file: `base` + its folders + its name (`mod.rs` names its folder).
fn file_module(base: &[String], rel: &Path) -> Vec<String> {
    let mut path = base.to_vec();
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            if !is_root_file(part) {
                path.push(part.trim_end_matches(".rs").to_owned());
            }
        } else {
            path.push(part.clone());
        }
    }
    path
}

/// Where the files of modules declared in `file` live.
fn children_dir(file: &Path) -> PathBuf {
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if is_root_file(&name) { dir } else { dir.join(name.trim_end_matches(".rs")) }
}

fn resolve(own: &[String], children: &BTreeSet<String>, path: &[String]) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut out: Vec<String>;
    let mut rest = &path[1..];
    match first.as_str() {
        "crate" | "$crate" => out = vec!["crate".to_owned()],
        "self" => out = own.to_vec(),
        "super" => {
            out = own.to_vec();
            out.pop()?;
            while rest.first().is_some_and(|s| s == "super") {
                out.pop()?;
                rest = &rest[1..];
            }
        }
        name if children.contains(name) => {
            out = own.to_vec();
            out.push(name.to_owned());
        }
        _ => return None,
    }
    out.extend(rest.iter().filter(|s| *s != "*" && *s != "self").cloned());
    Some(out)
}

/// The longest prefix of `path` that is a module of the folder.
fn longest_module<'a>(path: &'a [String], known: &BTreeSet<Vec<String>>) -> Option<&'a [String]> {
    (1..=path.len()).rev().map(|k| &path[..k]).find(|prefix| known.contains(*prefix))
}

/// Follows `use` bindings: `crate::strategic::Event`, where `strategic/mod.rs` has
/// `pub use event::Event`, becomes `crate::strategic::event::Event`.
fn follow_bindings(
    path: &[String],
    known: &BTreeSet<Vec<String>>,
    bindings: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
) -> Vec<String> {
    let mut path = path.to_vec();
    for _ in 0..16 {
        let Some(module) = longest_module(&path, known) else { break };
        let k = module.len();
        let Some(target) = path.get(k).and_then(|name| bindings.get(module)?.get(name)) else { break };
        if target.as_slice() == &path[..=k] {
            break;
        }
        let mut next = target.clone();
        next.extend_from_slice(&path[k + 1..]);
        path = next;
    }
    path
}

// ---------------------------------------------------------------------------------------------
// Tokens

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// A file's tokens with their line numbers (comments, literals and `#[cfg(test)]` items left
/// out), and the modules it declares test-only (`#[cfg(test)] mod x;`), whose files are skipped.
struct Lexed {
    tokens: Vec<(Tok, usize)>,
    test_modules: Vec<String>,
}

impl Lexed {
    fn of(text: &str) -> Lexed {
        let (tokens, test_modules) = drop_test_items(lex(text));
        Lexed { tokens, test_modules }
    }
}

/// Tokens with their line numbers; comments and literals left out.
fn lex(text: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&chars, i) {
            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
            i = end;
        } else if c == '"' || ((c == 'b' || c == 'c') && at(i + 1) == '"') {
            i += if c == '"' { 1 } else { 2 };
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let start = if c == 'b' { i + 1 } else { i };
            if at(start + 1) == '\\' {
                // An escaped character literal (`'\''`, `'\u{41}'`): past the escaped
                // character, then up to the closing quote.
                i = start + 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(start + 2) == '\'' {
                i = start + 3;
            } else {
                // A lifetime or label: skip the quote, the name follows as an identifier.
                i = start + 1;
            }
        } else if c == '$' && at(i + 1).is_alphabetic() {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push((Tok::Ident(chars[start..i].iter().collect()), line));
        } else if c.is_alphabetic() || c == '_' {
            if c == 'r' && at(i + 1) == '#' && (at(i + 2).is_alphabetic() || at(i + 2) == '_') {
                i += 2;
            }
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push((Tok::Ident(chars[start..i].iter().collect()), line));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            tokens.push((Tok::PathSep, line));
            i += 2;
        } else {
            tokens.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    tokens
}

/// The end of a raw (byte/C) string starting at `i`, if one starts there.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(chars.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

fn is_punct(tok: Option<&(Tok, usize)>, c: char) -> bool {
    matches!(tok, Some((Tok::Punct(p), _)) if *p == c)
}

fn is_ident(tok: Option<&(Tok, usize)>, name: &str) -> bool {
    matches!(tok, Some((Tok::Ident(s), _)) if s == name)
}

/// Whether `#[cfg(test)]` starts at `i`; returns the index after it.
fn cfg_test_at(tokens: &[(Tok, usize)], i: usize) -> Option<usize> {
    let pattern_ok = is_punct(tokens.get(i), '#')
        && is_punct(tokens.get(i + 1), '[')
        && is_ident(tokens.get(i + 2), "cfg")
        && is_punct(tokens.get(i + 3), '(')
        && is_ident(tokens.get(i + 4), "test")
        && is_punct(tokens.get(i + 5), ')')
        && is_punct(tokens.get(i + 6), ']');
    pattern_ok.then_some(i + 7)
}

/// The end of the item starting at `i`: after its `;` or its closing brace, whichever comes
/// first outside brackets.
fn item_end(tokens: &[(Tok, usize)], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < tokens.len() {
        match &tokens[i].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']') => depth -= 1,
            Tok::Punct('}') => {
                depth -= 1;
                if depth <= 0 {
                    return i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

fn drop_test_items(tokens: Vec<(Tok, usize)>) -> (Vec<(Tok, usize)>, Vec<String>) {
    let mut out = Vec::with_capacity(tokens.len());
    let mut test_modules = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if let Some(after) = cfg_test_at(&tokens, i) {
            let end = item_end(&tokens, after);
            test_modules.extend(declared_mod(&tokens[after..end]));
            i = end;
        } else {
            out.push(tokens[i].clone());
            i += 1;
        }
    }
    (out, test_modules)
}

/// `mod name;` (with any attributes and visibility before it) — the name.
fn declared_mod(item: &[(Tok, usize)]) -> Option<String> {
    let pos = item.iter().position(|(t, _)| matches!(t, Tok::Ident(s) if s == "mod"))?;
    match (item.get(pos + 1), item.last()) {
        (Some((Tok::Ident(name), _)), Some((Tok::Punct(';'), _))) => Some(name.clone()),
        _ => None,
    }
}

/// Modules declared in the file (`mod x;` or `mod x { .. }`).
fn child_modules(tokens: &[(Tok, usize)]) -> BTreeSet<String> {
    tokens
        .windows(2)
        .filter_map(|w| match (&w[0].0, &w[1].0) {
            (Tok::Ident(kw), Tok::Ident(name)) if kw == "mod" => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// A path found in the code, and the name it binds when it is the leaf of a `use` line.
struct Found {
    path: Vec<String>,
    line: usize,
    binds: Option<String>,
}

/// Every path of two or more segments in the tokens, `use` groups expanded, with its line.
fn paths(tokens: &[(Tok, usize)]) -> Vec<Found> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let before = i.checked_sub(1).and_then(|p| tokens.get(p));
        let in_use = is_ident(before, "use");
        let starts_path = matches!(tokens[i].0, Tok::Ident(_))
            && !matches!(before, Some((Tok::PathSep, _)))
            && (in_use || matches!(tokens.get(i + 1), Some((Tok::PathSep, _))));
        if starts_path {
            i = read_path(tokens, i, Vec::new(), in_use, &mut out);
        } else {
            i += 1;
        }
    }
    out
}

/// Reads `a::b::{c, d::e as f}` from `i` with `prefix` before it; pushes the full paths;
/// returns the index after it.
fn read_path(
    tokens: &[(Tok, usize)],
    mut i: usize,
    mut prefix: Vec<String>,
    in_use: bool,
    out: &mut Vec<Found>,
) -> usize {
    let line = tokens[i].1;
    loop {
        match tokens.get(i) {
            Some((Tok::Ident(name), _)) => {
                prefix.push(name.clone());
                i += 1;
            }
            Some((Tok::Punct('*'), _)) => {
                prefix.push("*".to_owned());
                i += 1;
            }
            Some((Tok::Punct('{'), _)) => {
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some((Tok::Punct('}'), _)) => return i + 1,
                        Some((Tok::Punct(','), _)) => i += 1,
                        Some(_) => i = read_path(tokens, i, prefix.clone(), in_use, out),
                        None => return i,
                    }
                }
            }
            _ => break,
        }
        if matches!(tokens.get(i), Some((Tok::PathSep, _))) {
            i += 1;
        } else {
            break;
        }
    }
    let mut binds = None;
    if in_use {
        // `use a::b;` binds `b`, `use a::{self}` binds `a`, `use a::b as c;` binds `c`.
        binds = match prefix.as_slice() {
            [.., parent, last] if last == "self" => Some(parent.clone()),
            [.., last] if last != "*" => Some(last.clone()),
            _ => None,
        };
        if is_ident(tokens.get(i), "as") {
            if let Some((Tok::Ident(alias), _)) = tokens.get(i + 1) {
                binds = (alias != "_").then(|| alias.clone());
            }
            i += 2;
        }
    }
    if prefix.len() >= 2 {
        out.push(Found { path: prefix, line, binds });
    }
    i
}

// ---------------------------------------------------------------------------------------------
// Strongly connected components

fn tarjan(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        succ: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.succ[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort_unstable();
            s.out.push(component);
        }
    }
    let n = succ.len();
    let mut s = State {
        succ,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}
