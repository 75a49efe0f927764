#include "advisor/extraction_launch.h"

#include <algorithm>
#include <cctype>

#include "advisor/launch_command.h"
#include "advisor/shell_script.h"
#include "repo/tools.h"

namespace schedmate::extraction {

std::map<std::string, EntryPoint> RepoConsoleScripts(State& st) {
  std::map<std::string, EntryPoint> out;
  for (const char* f : {"setup.py", "setup.cfg", "pyproject.toml"}) {
    for (const std::string& dir : {std::string(), st.cwd}) {
      std::string p = JoinPath(dir, f);
      if (!st.files.count(p)) continue;
      auto r = FileReadTool(st.snap, p, st.opt.max_file_bytes);  // not counted: packaging metadata
      if (!r.ok()) continue;
      for (auto& [k, v] : ParseConsoleScripts(r->text)) out.emplace(k, v);
      if (EndsWith(p, "setup.py"))
        for (auto& [k, v] : ParseSetupScripts(r->text))
          if (st.files.count(JoinPath(DirOf(p), v.file)))
            out.emplace(k, EntryPoint{"", "", JoinPath(DirOf(p), v.file)});
    }
  }
  return out;
}

std::vector<std::string> Names(const std::map<std::string, EntryPoint>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}

// A script the command names: relative to where it runs or to the root; a
// path behind an unknown variable (`${REPO_ROOT}/train.py`) or an absolute
// path (`/workspace/proj/train.py`) is tried from its tail inwards.
std::string FindFile(const State& st, std::string name) {
  if (name.size() > 400) return "";
  if (!name.empty() && (name[0] == '$' || name[0] == '<')) {
    size_t slash = name.find('/');
    name = slash == std::string::npos ? "" : name.substr(slash + 1);
  }
  for (int strip = 0; strip < 6 && !name.empty(); ++strip) {
    for (const std::string& base : {st.cwd, std::string()})
      if (std::string p = JoinPath(base, name); !p.empty() && (st.files.count(p) || FileInSnapshot(st.snap, p)))
        return p;
    if (name[0] != '/' && strip == 0 && name.find('$') == std::string::npos) break;
    size_t slash = name.find('/', 1);
    if (slash == std::string::npos) break;
    name = name.substr(slash + 1);
  }
  return "";
}

// Through shell wrappers (their variables, positional arguments and #SBATCH
// lines) to the Python launch.
Status UnwrapShell(State& st, Launch* l, const std::vector<std::string>& console) {
  std::map<std::string, std::string> inherited;  // a wrapper's variables reach the scripts it runs (path.sh exports)
  for (int depth = 0; depth < 4 && l->spec.entry_kind == LaunchSpec::Entry::kShell; ++depth) {
    std::string path = FindFile(st, l->spec.entry);
    if (path.empty()) return InvalidArgument(l->spec.entry + ": wrapper script not in the repository");
    if (std::find(st.read.begin(), st.read.end(), path) != st.read.end())
      return InvalidArgument(path + ": the wrapper runs itself");
    auto script = st.Read(path);
    if (!script) return InvalidArgument(path + ": wrapper script unreadable");
    st.wrappers.push_back(path);
    ShellContext ctx;
    ctx.positional = l->spec.args;
    ctx.script_path = path;
    ctx.console_scripts = console;
    ctx.read_file = [&st, &path](const std::string& name) -> std::optional<std::string> {
      for (const std::string& base : {st.cwd, DirOf(path), std::string()}) {
        std::string p = JoinPath(base, name);
        if (!p.empty() && st.files.count(p)) return st.Read(p);
      }
      return std::nullopt;
    };
    ctx.env = inherited;
    for (const auto& [k, v] : l->spec.env) ctx.env[k] = v;
    auto found = FindShellLaunch(*script, ctx);
    if (found)
      for (const auto& [k, v] : found->vars)
        if (k.size() > 1 || !std::isdigit(static_cast<unsigned char>(k[0]))) inherited[k] = v;
    if (!found) return InvalidArgument(path + ": launches no Python");
    if (found->gpus_per_node) l->sbatch_gpus_per_node = found->gpus_per_node;
    if (found->nodes) l->sbatch_nodes = found->nodes;
    if (found->total_gpus) l->sbatch_total_gpus = found->total_gpus;
    ASSIGN_OR_RETURN(LaunchSpec inner, ParseLaunchCommand(found->line, console));
    st.cwd = JoinPath(st.cwd, found->chdir.empty() ? inner.chdir : JoinPath(found->chdir, inner.chdir));
    // Outer `--k v` options not consumed as positional arguments still reach the script.
    bool positional_used = found->line.find('$') == std::string::npos && !l->spec.args.empty();
    if (!positional_used)
      for (const auto& o : l->spec.overrides)
        if (!inner.Override(o.first)) inner.overrides.push_back(o);
    if (inner.env.empty()) inner.env = l->spec.env;
    l->spec = std::move(inner);
  }
  return Status::Ok();
}

// The entry file of a script, `python -m` module or console-script launch.
Result<std::string> FindEntry(State& st, Launch* l, const std::map<std::string, EntryPoint>& console) {
  const LaunchSpec& spec = l->spec;
  std::string module;
  if (spec.entry_kind == LaunchSpec::Entry::kModule) module = spec.entry;
  if (spec.entry_kind == LaunchSpec::Entry::kConsole) {
    auto it = console.find(spec.entry);
    if (it == console.end()) return InvalidArgument(spec.entry + ": not an entry point of the repository");
    if (!it->second.file.empty()) return it->second.file;  // a script installed as a command
    module = it->second.module;
    st.entry_functions.insert(it->second.function);
  }
  if (!module.empty()) {
    std::string rel = module;
    std::replace(rel.begin(), rel.end(), '.', '/');
    for (const std::string& root : {st.cwd, std::string(), std::string("src")})
      for (const std::string& cand : {rel + ".py", rel + "/__main__.py", rel + "/__init__.py"})
        if (st.files.count(JoinPath(root, cand)) || FileInSnapshot(st.snap, JoinPath(root, cand)))
          return JoinPath(root, cand);
    // A package kept in a subdirectory (pip install -e habitat-baselines): its one module file.
    for (const std::string& tail : {"/" + rel + ".py", "/" + rel + "/__main__.py"}) {
      std::string only;
      int n = 0;
      for (const auto& f : st.files)
        if (EndsWith(f, tail) && ++n == 1) only = f;
      if (n == 1) return only;
    }
    // `python -m albert.run_pretraining` run from above a checkout that is itself the package.
    if (size_t slash = rel.find('/'); slash != std::string::npos)
      for (const std::string& cand : {rel.substr(slash + 1) + ".py", rel.substr(slash + 1) + "/__main__.py"})
        if (st.files.count(cand)) return cand;
    return InvalidArgument(module + ": module not found in the repository");
  }
  if (std::string p = FindFile(st, spec.entry); !p.empty()) return p;
  if (auto it = console.find(spec.entry); it != console.end()) {  // torchrun $(which lerobot-train)
    l->spec.entry_kind = LaunchSpec::Entry::kConsole;
    return FindEntry(st, l, console);
  }
  return InvalidArgument(spec.entry + ": entry point not found in the repository");
}

Result<std::string> ThroughRepositoryLauncher(State& st, Launch* l, const std::string& entry,
                                              const std::map<std::string, EntryPoint>& console) {
  if (l->spec.entry_kind != LaunchSpec::Entry::kScript || !EndsWith(entry, ".py") || l->spec.args.empty())
    return std::string();
  auto text = FileReadTool(st.snap, entry, st.opt.max_file_bytes);  // a look at its arguments, not counted
  if (!text.ok() || (text->text.find("\"training_script\"") == std::string::npos &&
                         text->text.find("'training_script'") == std::string::npos))
    return std::string();
  // The first word that is a script in the repository is what the copy runs.
  size_t script = 0;
  while (script < l->spec.args.size() &&
         (l->spec.args[script].empty() || l->spec.args[script][0] == '-' || FindFile(st, l->spec.args[script]).empty()))
    ++script;
  if (script == l->spec.args.size()) return std::string();
  std::string cmd = "python -m torch.distributed.launch";
  for (const auto& a : l->spec.args) {
    std::string q;
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += " '" + q + "'";
  }
  // A file that only looks like a launcher copy leaves the launch as it was.
  auto parsed = ParseLaunchCommand(cmd, Names(console));
  if (!parsed.ok()) return std::string();
  LaunchSpec inner = std::move(*parsed);
  if (inner.entry_kind != LaunchSpec::Entry::kScript && inner.entry_kind != LaunchSpec::Entry::kShell)
    return std::string();
  if (EndsWith(inner.entry, ".sh")) inner.entry_kind = LaunchSpec::Entry::kShell;  // the copy runs any executable
  if (inner.env.empty()) inner.env = l->spec.env;
  std::optional<int> nproc = inner.nproc_per_node, nnodes = inner.nnodes;
  bool unknown = inner.nproc_unknown;
  std::string launcher = inner.launcher;
  LaunchSpec original = l->spec;
  l->spec = std::move(inner);
  if (!UnwrapShell(st, l, Names(console)).ok()) {
    l->spec = std::move(original);
    return std::string();
  }
  // The processes are the launcher copy's, whatever the script it runs says.
  l->spec.launcher = launcher;
  if (nproc) l->spec.nproc_per_node = nproc;
  if (nnodes) l->spec.nnodes = nnodes;
  l->spec.nproc_unknown = l->spec.nproc_unknown || unknown;
  auto inner_entry = FindEntry(st, l, console);
  if (!inner_entry.ok()) {
    l->spec = std::move(original);
    return std::string();
  }
  return *inner_entry;
}

}  // namespace schedmate::extraction
