//! The house keeps its rooms (docs/ARCHITECTURE.md, "The layers" and "The service's rooms"),
//! read from the library's own imports: no files import each other in a loop; each layer
//! imports only the layers and crates its row of the table allows; in `src/service/`, the types
//! import no other file of the service, the core imports only the core and the types, a part
//! takes of another only what that page names, and no file imports `Service`
//! (`src/service/mod.rs`). The service's floors are read from that page's block of rooms, and
//! each file of the service must stand on one. Every file of `src/` is read (a file no module
//! declares is said), and no two types that other modules may name share a name in one layer.
//!
//! An import is a name a file uses: a `use` or a path in its code (`stored::games::load`,
//! `crate::tafl::Board`), followed through the `use`s that hand it on (`pub use`, globs) to the
//! file that defines it. A module only declared (`mod x;`) is no import, and neither is test
//! code (`#[cfg(test)]`). Inside a macro's call, a path is read from its tokens (names joined by
//! `::`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use syn::visit::Visit;

/// A module's path from the crate's root: `["service", "stored", "games"]`.
type ModPath = Vec<String>;

/// What a module names: the names a path can go on through.
#[derive(Default)]
struct Scope {
    /// The items it defines (types, functions, constants, traits, macros).
    items: BTreeSet<String>,
    /// Those of its items that are types other modules may name (structs, enums, unions,
    /// aliases, traits, not private).
    types: BTreeSet<String>,
    /// Its `use`s (those in its functions too): the name each brings in (none for `as _`) and
    /// the path as written.
    uses: Vec<(Option<String>, Vec<String>)>,
    /// Its glob `use`s (`use types::*`), the path as written.
    globs: Vec<Vec<String>>,
}

/// Where a path leads.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    /// To a module of the crate, and maybe on to a name in it.
    Crate(Vec<String>),
    /// Out of the crate: its first two names (`["tokio", "sync"]`, `["std", "fs"]`).
    Outside(Vec<String>),
}

/// The library's modules, each with the file it is written in.
struct Library {
    modules: BTreeMap<ModPath, (String, Scope)>,
    /// Each file's source, parsed.
    files: BTreeMap<String, syn::File>,
    /// The files of the modules declared under `#[cfg(test)]`, not read.
    test_files: BTreeSet<String>,
}

/// A path from the repository's top as the check names files (`src/bot/mod.rs`).
fn slashed(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Whether `attrs` hold `#[cfg(test)]`: test code, left out.
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => &[],
    }
}

fn impl_item_attrs(item: &syn::ImplItem) -> &[syn::Attribute] {
    match item {
        syn::ImplItem::Const(i) => &i.attrs,
        syn::ImplItem::Fn(i) => &i.attrs,
        syn::ImplItem::Type(i) => &i.attrs,
        syn::ImplItem::Macro(i) => &i.attrs,
        _ => &[],
    }
}

/// The leaves of a `use` tree: for each, the name it brings in (none for a glob or `as _`),
/// its path, and whether it is a glob.
fn use_leaves(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Option<String>, Vec<String>, bool)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            out.push((prefix.last().cloned(), prefix.clone(), false));
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            out.push((Some(n.ident.to_string()), path, false));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            let name = (r.rename != "_").then(|| r.rename.to_string());
            out.push((name, path, false));
        }
        syn::UseTree::Glob(_) => out.push((None, prefix.clone(), true)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// The `use`s inside functions and blocks, gathered into their module's scope.
struct InnerUses<'a>(&'a mut Scope);

impl<'ast> Visit<'ast> for InnerUses<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if test_only(item_attrs(item)) || matches!(item, syn::Item::Mod(_)) {
            return;
        }
        syn::visit::visit_item(self, item);
    }
    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        if !test_only(impl_item_attrs(item)) {
            syn::visit::visit_impl_item(self, item);
        }
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        add_use(self.0, u);
    }
}

fn add_use(scope: &mut Scope, u: &syn::ItemUse) {
    let mut leaves = Vec::new();
    use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
    for (name, path, glob) in leaves {
        if glob {
            scope.globs.push(path);
        } else {
            scope.uses.push((name, path));
        }
    }
}

/// Whether `item` is a type (a struct, an enum, a union, an alias, a trait) that other modules
/// may name: not private to its own.
fn shared_type(item: &syn::Item) -> bool {
    use syn::Item::*;
    let vis = match item {
        Struct(i) => &i.vis,
        Enum(i) => &i.vis,
        Union(i) => &i.vis,
        Type(i) => &i.vis,
        Trait(i) => &i.vis,
        TraitAlias(i) => &i.vis,
        _ => return false,
    };
    !matches!(vis, syn::Visibility::Inherited)
}

fn item_name(item: &syn::Item) -> Option<String> {
    use syn::Item::*;
    let ident = match item {
        Const(i) => &i.ident,
        Enum(i) => &i.ident,
        Fn(i) => &i.sig.ident,
        Static(i) => &i.ident,
        Struct(i) => &i.ident,
        Trait(i) => &i.ident,
        TraitAlias(i) => &i.ident,
        Type(i) => &i.ident,
        Union(i) => &i.ident,
        Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

impl Library {
    /// The library under `root` (its `src/lib.rs` and the modules it declares, test modules
    /// left out).
    fn read(root: &Path) -> Library {
        let mut library = Library {
            modules: BTreeMap::new(),
            files: BTreeMap::new(),
            test_files: BTreeSet::new(),
        };
        library.read_file(root, Path::new("src/lib.rs"), Vec::new());
        library
    }

    fn read_file(&mut self, root: &Path, file: &Path, module: ModPath) {
        let text = std::fs::read_to_string(root.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let parsed: syn::File =
            syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // A file's child modules live in its folder (`lib.rs`, `mod.rs`) or in the folder of its
        // own name (`service/play.rs` → `service/play/`).
        let folder = match file.file_name().and_then(|n| n.to_str()) {
            Some("lib.rs" | "mod.rs") => file.parent().unwrap().to_path_buf(),
            _ => file.with_extension(""),
        };
        let name = slashed(file);
        self.read_items(root, &name, &parsed.items, module, &folder);
        self.files.insert(name, parsed);
    }

    fn read_items(
        &mut self,
        root: &Path,
        file: &str,
        items: &[syn::Item],
        module: ModPath,
        folder: &Path,
    ) {
        let mut scope = Scope::default();
        for item in items {
            let test = test_only(item_attrs(item));
            match item {
                syn::Item::Mod(m) if m.content.is_none() => {
                    let name = m.ident.to_string();
                    let flat = folder.join(format!("{name}.rs"));
                    let nested = folder.join(&name).join("mod.rs");
                    let path = if root.join(&flat).exists() {
                        flat
                    } else {
                        nested
                    };
                    if test {
                        self.test_files.insert(slashed(&path));
                    } else {
                        let mut child = module.clone();
                        child.push(name);
                        self.read_file(root, &path, child);
                    }
                }
                _ if test => {}
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let mut child = module.clone();
                    child.push(name.clone());
                    if let Some((_, inner)) = &m.content {
                        self.read_items(root, file, inner, child, &folder.join(&name));
                    }
                }
                syn::Item::Use(u) => add_use(&mut scope, u),
                other => {
                    if let Some(name) = item_name(other) {
                        if shared_type(other) {
                            scope.types.insert(name.clone());
                        }
                        scope.items.insert(name);
                    }
                    InnerUses(&mut scope).visit_item(other);
                }
            }
        }
        self.modules.insert(module, (file.to_string(), scope));
    }

    fn scope(&self, module: &ModPath) -> &Scope {
        &self.modules[module].1
    }

    /// Whether `name` means something in `module`: a child module, an item, a name a `use`
    /// brings in.
    fn in_scope(&self, module: &ModPath, name: &str) -> bool {
        let mut child = module.clone();
        child.push(name.to_string());
        let scope = self.scope(module);
        self.modules.contains_key(&child)
            || scope.items.contains(name)
            || scope.uses.iter().any(|(n, _)| n.as_deref() == Some(name))
    }

    /// A path as written in `module`, from the crate's root or out of it.
    fn absolute(&self, module: &ModPath, path: &[String], leading_colon: bool) -> Option<Target> {
        self.absolute_in(module, path, leading_colon, true)
    }

    /// [`Library::absolute`], with the module's glob `use`s tried for a first name it does not
    /// define or bring in by name, or not.
    fn absolute_in(
        &self,
        module: &ModPath,
        path: &[String],
        leading_colon: bool,
        globs: bool,
    ) -> Option<Target> {
        let first = path.first()?;
        if leading_colon {
            return Some(Target::Outside(path.iter().take(2).cloned().collect()));
        }
        match first.as_str() {
            "crate" => Some(Target::Crate(path[1..].to_vec())),
            "self" => Some(Target::Crate([module.as_slice(), &path[1..]].concat())),
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let base = &module[..module.len().checked_sub(ups)?];
                Some(Target::Crate([base, &path[ups..]].concat()))
            }
            "Self" => None,
            _ if self.in_scope(module, first)
                || globs
                    && self
                        .scope(module)
                        .globs
                        .iter()
                        .any(|g| self.glob_names(module, g, first)) =>
            {
                Some(Target::Crate([module.as_slice(), path].concat()))
            }
            _ => Some(Target::Outside(path.iter().take(2).cloned().collect())),
        }
    }

    /// Whether the glob `use` `glob` of `module` brings in `name`.
    fn glob_names(&self, module: &ModPath, glob: &[String], name: &str) -> bool {
        match self.absolute_in(module, glob, false, false) {
            Some(Target::Crate(g)) => self.modules.contains_key(&g) && self.in_scope(&g, name),
            _ => false,
        }
    }

    /// The file a path from the crate's root leads to, followed through the `use`s that hand
    /// its names on, and whether its last name was found (a path into a glob tries each).
    fn resolve(&self, path: &[String], depth: usize) -> (Option<String>, bool) {
        let mut module: ModPath = Vec::new();
        for (i, name) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(name.clone());
            if self.modules.contains_key(&child) {
                module = child;
                continue;
            }
            let file = Some(self.modules[&module].0.clone());
            let scope = self.scope(&module);
            if scope.items.contains(name) || depth > 16 {
                return (file, true);
            }
            let rest = &path[i + 1..];
            for (n, used) in &scope.uses {
                if n.as_deref() == Some(name.as_str()) {
                    return match self.absolute(&module, used, false) {
                        Some(Target::Crate(t)) => {
                            self.resolve(&[t.as_slice(), rest].concat(), depth + 1)
                        }
                        _ => (None, true),
                    };
                }
            }
            for glob in &scope.globs {
                if let Some(Target::Crate(g)) = self.absolute(&module, glob, false) {
                    if self.modules.contains_key(&g) && self.in_scope(&g, name) {
                        return self.resolve(&[g.as_slice(), &path[i..]].concat(), depth + 1);
                    }
                }
            }
            return (file, false);
        }
        (Some(self.modules[&module].0.clone()), true)
    }

    /// Every import of the library: from each file, the file or crate it reaches, with the
    /// path as written there.
    fn imports(&self) -> Vec<Import> {
        let mut out = Vec::new();
        for (file, parsed) in &self.files {
            let module = self
                .modules
                .iter()
                .filter(|(_, (f, _))| f == file)
                .map(|(m, _)| m.clone())
                .min_by_key(|m| m.len())
                .expect("every file read is a module's");
            let mut reader = Reader {
                library: self,
                file,
                module,
                out: &mut out,
            };
            reader.visit_file(parsed);
        }
        // One import a pair of files (or a file and a crate): the first written.
        let mut seen = BTreeSet::new();
        out.retain(|i| seen.insert((i.from.clone(), i.to.clone())));
        out
    }

    fn import(&self, module: &ModPath, path: &[String], leading_colon: bool) -> Option<Reached> {
        match self.absolute(module, path, leading_colon)? {
            Target::Outside(names) => Some(Reached::Outside(names)),
            Target::Crate(t) => self.resolve(&t, 0).0.map(Reached::File),
        }
    }
}

/// What an import reaches.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Reached {
    File(String),
    /// A crate outside the library, by its first two names.
    Outside(Vec<String>),
}

/// One import: `from` uses `written`, which is in `to`.
#[derive(Debug, Clone)]
struct Import {
    from: String,
    to: Reached,
    written: String,
}

/// Reads the imports of one file, test code and child files left out.
struct Reader<'a> {
    library: &'a Library,
    file: &'a str,
    module: ModPath,
    out: &'a mut Vec<Import>,
}

impl Reader<'_> {
    fn add(&mut self, path: &[String], leading_colon: bool) {
        let path = path.strip_suffix(&["self".to_string()]).unwrap_or(path);
        if let Some(to) = self.library.import(&self.module, path, leading_colon) {
            if to != Reached::File(self.file.to_string()) {
                self.out.push(Import {
                    from: self.file.to_string(),
                    to,
                    written: path.join("::"),
                });
            }
        }
    }
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !test_only(item_attrs(item)) {
            syn::visit::visit_item(self, item);
        }
    }
    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        if !test_only(impl_item_attrs(item)) {
            syn::visit::visit_impl_item(self, item);
        }
    }
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if let Some((_, items)) = &m.content {
            self.module.push(m.ident.to_string());
            for item in items {
                self.visit_item(item);
            }
            self.module.pop();
        }
    }
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        // A `pub use` hands a name on: whoever uses the name imports the file that defines it.
        if !matches!(u.vis, syn::Visibility::Inherited) {
            return;
        }
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        for (_, path, _) in leaves {
            self.add(&path, u.leading_colon.is_some());
        }
    }
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(&names, path.leading_colon.is_some());
        syn::visit::visit_path(self, path);
    }
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        syn::visit::visit_macro(self, mac);
        let mut paths = Vec::new();
        paths_in(mac.tokens.clone(), &mut paths);
        for (names, leading_colon) in paths {
            self.add(&names, leading_colon);
        }
    }
}

/// The paths written inside a macro's call (`format!("{}", stored::games::load(..))`), read
/// from its tokens: each run of names joined by `::`, with whether it opens with `::`.
fn paths_in(tokens: proc_macro2::TokenStream, out: &mut Vec<(Vec<String>, bool)>) {
    use proc_macro2::{Spacing, TokenTree};
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    // Whether `tokens[i..]` opens with `::`.
    let colons = |i: usize| {
        matches!((tokens.get(i), tokens.get(i + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
    };
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => {
                paths_in(g.stream(), out);
                i += 1;
            }
            TokenTree::Ident(first) => {
                // A name after `::` belongs to the path that ran before it.
                let leading_colon = i >= 2 && colons(i - 2);
                let mut names = vec![first.to_string()];
                i += 1;
                while colons(i) {
                    match tokens.get(i + 2) {
                        Some(TokenTree::Ident(next)) => {
                            names.push(next.to_string());
                            i += 3;
                        }
                        _ => break,
                    }
                }
                out.push((names, leading_colon));
            }
            _ => i += 1,
        }
    }
}

/// The layer a file is in: its first folder under `src/` (`service`), or its own name for a
/// file of `src/` (`rating`). (Given a path inside a layer, the same for a room of the layer.)
fn layer(file: &str) -> &str {
    let rest = file.strip_prefix("src/").unwrap_or(file);
    let first = rest.split('/').next().unwrap_or(rest);
    first.strip_suffix(".rs").unwrap_or(first)
}

/// The import loops among the library's files: each a list of files that import each other
/// (strongly connected), with the imports that close it.
fn loops(imports: &[Import]) -> Vec<Vec<String>> {
    let mut arrows: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for import in imports {
        if let Reached::File(to) = &import.to {
            arrows
                .entry(import.from.as_str())
                .or_default()
                .insert(to.as_str());
            arrows.entry(to.as_str()).or_default();
        }
    }
    // Each file's set of files it reaches; two files are in one loop when each reaches the other.
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start];
        while let Some(f) = todo.pop() {
            for &next in &arrows[f] {
                if seen.insert(next) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&str, BTreeSet<&str>> = arrows.keys().map(|&f| (f, reach(f))).collect();
    let mut placed: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for (&file, reached) in &reaches {
        if placed.contains(file) || !reached.contains(file) {
            continue;
        }
        let members: Vec<String> = reached
            .iter()
            .filter(|&&other| reaches[other].contains(file))
            .map(|s| s.to_string())
            .collect();
        placed.extend(members.iter().cloned());
        out.push(members);
    }
    out
}

/// Every import of a loop, described: `a.rs → b.rs (written)`.
fn describe_loop(members: &[String], imports: &[Import]) -> String {
    let mut lines: Vec<String> = imports
        .iter()
        .filter_map(|i| match &i.to {
            Reached::File(to) if members.contains(&i.from) && members.contains(to) => {
                Some(format!("{} → {to} ({})", i.from, i.written))
            }
            _ => None,
        })
        .collect();
    lines.sort();
    lines.dedup();
    format!("a loop of {} files: {}", members.len(), lines.join("; "))
}

/// The crates outside the library that each layer never imports (docs/ARCHITECTURE.md's table),
/// by their first names (`std::fs` for files).
const ASYNC: [&str; 3] = ["tokio", "tokio_util", "futures"];
const SQL: [&str; 1] = ["sqlx"];
const DISCORD: [&str; 3] = ["serenity", "poise", "reqwest"];
const IMAGES: [&str; 8] = [
    "image",
    "imageproc",
    "ab_glyph",
    "png",
    "gif",
    "plotters",
    "color_quant",
    "zlib_rs",
];
const IO: [&str; 2] = ["std::fs", "std::net"];

/// The small helpers of `src/` any layer may import.
const HELPERS: [&str; 3] = ["rating", "echo", "credentials"];

/// The library's layers that each layer may import (itself and the [`HELPERS`] aside).
fn may_import(layer: &str) -> Option<&'static [&'static str]> {
    Some(match layer {
        "tafl" | "tournament" => &[],
        "ai" | "render" => &["tafl"],
        "store" => &[],
        "service" => &["tafl", "ai", "render", "store", "tournament"],
        "bot" => &["service", "tafl", "ai", "render", "tournament"],
        "cli" => &["tafl", "ai", "render", "service", "bot", "tournament"],
        _ => return None,
    })
}

/// The files that import a layer their own may not, each named in docs/ARCHITECTURE.md's table
/// with the names it takes.
const EXCEPTIONS: [(&str, &str); 2] = [
    // `OpenError` and `DEFAULT_DATABASE_URL`, re-exported by the service.
    ("src/bot/mod.rs", "store"),
    // The database's copy (`tablut-bot backup`).
    ("src/cli/backup.rs", "store"),
];

/// The file that may import `Service` (`src/service/mod.rs`): the tests' probe, which reads the
/// service's own fields.
const READS_SERVICE: &str = "src/service/probe.rs";

fn never_outside(layer: &str) -> Vec<&'static str> {
    let lists: &[&[&str]] = match layer {
        "tafl" | "ai" | "tournament" => &[&ASYNC, &SQL, &DISCORD, &IMAGES],
        "render" => &[&ASYNC, &SQL, &DISCORD, &IO],
        "store" => &[&DISCORD],
        "service" => &[&SQL, &DISCORD],
        "bot" => &[&SQL],
        _ => &[],
    };
    lists.iter().flat_map(|l| l.iter().copied()).collect()
}

/// The floors of `src/service/` as docs/ARCHITECTURE.md draws them ("The service's rooms": the
/// block whose lines open with `parts`, `core` and `types`): each floor's files and folders
/// (`src/service/stored/`), the names in parentheses left out (they tell what is inside).
#[derive(Default)]
struct Floors {
    types: Vec<String>,
    core: Vec<String>,
    parts: Vec<String>,
}

impl Floors {
    fn read(root: &Path) -> Floors {
        let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md"))
            .expect("docs/ARCHITECTURE.md is readable");
        let mut floors = Floors::default();
        let mut current: Option<&mut Vec<String>> = None;
        let mut depth = 0;
        let mut fenced = false;
        for line in doc.lines() {
            if line.starts_with("```") {
                fenced = !fenced;
                current = None;
                continue;
            }
            if !fenced {
                continue;
            }
            if !line.starts_with(' ') {
                let label = line.split_whitespace().next().unwrap_or_default();
                current = match label {
                    "types" => Some(&mut floors.types),
                    "core" => Some(&mut floors.core),
                    "parts" => Some(&mut floors.parts),
                    _ => None,
                };
            }
            let Some(floor) = current.as_deref_mut() else {
                continue;
            };
            let text = if line.starts_with(' ') {
                line
            } else {
                line.split_once(' ').map_or("", |(_, rest)| rest)
            };
            // Outside the parentheses, the names separated by commas.
            let mut outside = String::new();
            for c in text.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    c if depth == 0 => outside.push(c),
                    _ => {}
                }
            }
            floor.extend(
                outside
                    .split(',')
                    .map(str::trim)
                    .filter(|n| n.ends_with(".rs") || n.ends_with('/'))
                    .map(|n| format!("src/service/{n}")),
            );
        }
        floors
    }

    /// What is wrong with the service's file `from` importing the service's file `to`, if
    /// anything: `Service` imported; a type importing above the types; the core importing a
    /// part; a part taking of another what docs/ARCHITECTURE.md does not name.
    fn trespass(&self, from: &str, to: &str) -> Option<String> {
        let service = |f: &str| f.starts_with("src/service/");
        if !service(from) || !service(to) {
            return None;
        }
        let is_part =
            |f: &str| !on(&self.types, f) && !on(&self.core, f) && f != "src/service/mod.rs";
        if to == "src/service/mod.rs" && from != READS_SERVICE {
            Some("Service's file, src/service/mod.rs".to_string())
        } else if on(&self.types, from) && !on(&self.types, to) {
            Some(format!("{to}, above the service's types"))
        } else if on(&self.core, from) && is_part(to) {
            Some(format!("the part {to}, from the service's core"))
        } else if is_part(from)
            && from != READS_SERVICE
            && is_part(to)
            && part(from) != part(to)
            && !ACROSS_PARTS.contains(&(part(from), part(to)))
        {
            Some(format!(
                "{to}, of the part {}, which the part {} does not take",
                part(to),
                part(from)
            ))
        } else {
            None
        }
    }

    /// The files of `src/service/` on no floor (`mod.rs`, `Service`'s, aside).
    fn unplaced<'a>(&self, files: impl Iterator<Item = &'a String>) -> Vec<String> {
        files
            .filter(|f| f.starts_with("src/service/") && *f != "src/service/mod.rs")
            .filter(|f| {
                !on(&self.types, f)
                    && !on(&self.core, f)
                    && !on(&self.parts, f)
                    && !GAMES.contains(&f.as_str())
            })
            .map(|f| format!("{f} is on no floor of docs/ARCHITECTURE.md's service rooms"))
            .collect()
    }
}

/// The files of the games' part (`Games`), whose calls live in several files.
const GAMES: [&str; 5] = [
    "src/service/play.rs",
    "src/service/challenge.rs",
    "src/service/view.rs",
    "src/service/records.rs",
    "src/service/gone.rs",
];

/// The part of `src/service/` a file above the core is in: the games' [`GAMES`], a folder's
/// files (`puzzle`, `tournament`), or a file of its own (`ai`).
fn part(file: &str) -> &str {
    if GAMES.contains(&file) {
        return "games";
    }
    layer(file.strip_prefix("src/service/").unwrap_or(file))
}

/// What a part takes of another, one way (docs/ARCHITECTURE.md, "The service's rooms"): the
/// games ask the AI's part for room in its queue; a tournament starts its match games with
/// `Games::create_game`; the clock expires challenges (`challenge::expire`) and writes the
/// daily digests (`notify::send_digests`); a puzzle's autocomplete lists moves
/// (`play::matching_moves`).
const ACROSS_PARTS: [(&str, &str); 5] = [
    ("games", "ai"),
    ("tournament", "games"),
    ("timecontrol", "games"),
    ("timecontrol", "notify"),
    ("puzzle", "games"),
];

fn on(floor: &[impl AsRef<str>], file: &str) -> bool {
    floor.iter().map(AsRef::as_ref).any(|f| {
        if f.ends_with('/') {
            file.starts_with(f)
        } else {
            file == f
        }
    })
}

/// The files of `src/` the check does not read, but the binary's `src/main.rs` and the test
/// modules declared under `#[cfg(test)]`: a file left out of the check is said.
fn unread(root: &Path, library: &Library) -> Vec<String> {
    super::docs::rust_files(&root.join("src"))
        .iter()
        .map(|f| slashed(f.strip_prefix(root).expect("a file under the root")))
        .filter(|f| {
            f != "src/main.rs" && !library.files.contains_key(f) && !library.test_files.contains(f)
        })
        .map(|f| format!("{f} is not read: no module of src/lib.rs declares it"))
        .collect()
}

/// The names that name two types in one layer that other modules may use (one name, one
/// meaning; a module's private type is its own), each with the modules that define it. A layer may mirror another's name (the store's `ChallengeStatus`, a
/// row's, and the service's, a challenge's).
fn names_twice(library: &Library) -> Vec<String> {
    let mut defined: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for (module, (file, scope)) in &library.modules {
        for name in &scope.types {
            defined
                .entry((layer(file), name.as_str()))
                .or_default()
                .push(module.join("::"));
        }
    }
    defined
        .into_iter()
        .filter(|(_, modules)| modules.len() > 1)
        .map(|((layer, name), modules)| {
            format!(
                "{name} names {} types of {layer}: in {}",
                modules.len(),
                modules.join(", ")
            )
        })
        .collect()
}

/// Everything wrong with the rooms of the library under `root`, described.
fn trespasses(root: &Path) -> Vec<String> {
    let library = Library::read(root);
    let floors = Floors::read(root);
    let imports = library.imports();
    let mut out: Vec<String> = loops(&imports)
        .iter()
        .map(|members| describe_loop(members, &imports))
        .chain(unread(root, &library))
        .chain(floors.unplaced(library.files.keys()))
        .chain(names_twice(&library))
        .chain(imports.iter().filter_map(|i| {
            let what = match &i.to {
                Reached::File(to) => {
                    layer_trespass(&i.from, to).or_else(|| floors.trespass(&i.from, to))
                }
                Reached::Outside(names) => crate_trespass(&i.from, names),
            }?;
            Some(format!("{} imports {what} ({})", i.from, i.written))
        }))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// What is wrong with `from` importing the file `to` of another layer, if anything: a layer its
/// row does not allow.
fn layer_trespass(from: &str, to: &str) -> Option<String> {
    let (from_layer, to_layer) = (layer(from), layer(to));
    let allowed = to_layer == from_layer
        || HELPERS.contains(&to_layer)
        || EXCEPTIONS.contains(&(from, to_layer))
        || may_import(from_layer).is_none_or(|allowed| allowed.contains(&to_layer));
    (!allowed).then(|| format!("the layer {to_layer}"))
}

/// What is wrong with `from` importing a crate outside the library (`names`, its first two),
/// if anything: one its layer never imports.
fn crate_trespass(from: &str, names: &[String]) -> Option<String> {
    let two = names.join("::");
    never_outside(layer(from))
        .into_iter()
        .find(|n| *n == names[0] || *n == two)
        .map(|n| format!("the crate {n}"))
}

#[test]
fn every_room_imports_only_what_its_floor_allows_and_no_files_import_each_other_in_a_loop() {
    let found = trespasses(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        found.is_empty(),
        "the rooms of docs/ARCHITECTURE.md do not hold:\n{}",
        found.join("\n")
    );
}

/// The check finds a loop through a `pub use`, a part imported by the core or by a part that does
/// not take it, `Service` imported, a file no module declares, a forbidden layer and a forbidden
/// crate, and reads test code as no import.
#[test]
fn the_check_finds_a_loop_a_part_in_the_core_a_part_taken_and_a_forbidden_import() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("src/lib.rs", "pub mod service;\npub mod tafl;\n");
    write("src/stray.rs", "");
    write(
        "docs/ARCHITECTURE.md",
        "# Architecture\n\n```\nmod.rs      Service\nparts       play.rs (Games; its calls \
         also in view.rs), ai.rs\ncore        core.rs\ntypes       types/ (a file a topic)\n```\n",
    );
    write(
        "src/service/mod.rs",
        "mod ai;\nmod core;\nmod extra;\nmod play;\nmod view;\npub mod types;\npub use play::Games;\npub use types::*;\npub struct Service;\n#[cfg(test)]\nmod checks;\n",
    );
    // A test module's file: neither read nor said to be unread.
    write("src/service/checks.rs", "use crate::service::Service;\n");
    write(
        "src/service/core.rs",
        "use crate::service::Games;\npub struct Core(Games, super::Board);\n",
    );
    write(
        "src/service/play.rs",
        "use super::core::Core;\npub struct Games;\nfn f(_: Core) {}\n#[cfg(test)]\nmod tests { use crate::service::Service; }\n",
    );
    write("src/service/view.rs", "fn f(_: super::Service) {}\n");
    write("src/service/extra.rs", "pub struct Games;\n");
    write("src/service/ai.rs", "fn g(_: super::play::Games) {}\n");
    write(
        "src/service/types/mod.rs",
        "pub struct Board(crate::tafl::Board);\n",
    );
    write(
        "src/tafl/mod.rs",
        "pub struct Board;\nfn f() { let _ = tokio::spawn; let _ = crate::service::Service; }\n\
         fn g() { println!(\"{:?}\", (1, sqlx::query)); }\n",
    );
    let found = trespasses(dir.path());
    assert_eq!(
        found,
        [
            "Games names 2 types of service: in service::extra, service::play",
            "a loop of 2 files: src/service/core.rs → src/service/play.rs (crate::service::Games); \
             src/service/play.rs → src/service/core.rs (super::core::Core)",
            "src/service/ai.rs imports src/service/play.rs, of the part games, which the part ai does not take (super::play::Games)",
            "src/service/core.rs imports the part src/service/play.rs, from the service's core (crate::service::Games)",
            "src/service/extra.rs is on no floor of docs/ARCHITECTURE.md's service rooms",
            "src/service/view.rs imports Service's file, src/service/mod.rs (super::Service)",
            "src/stray.rs is not read: no module of src/lib.rs declares it",
            "src/tafl/mod.rs imports the crate sqlx (sqlx::query)",
            "src/tafl/mod.rs imports the crate tokio (tokio::spawn)",
            "src/tafl/mod.rs imports the layer service (crate::service::Service)",
        ],
        "{found:#?}"
    );
}
