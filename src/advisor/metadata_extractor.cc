#include "advisor/metadata_extractor.h"

#include <algorithm>
#include <exception>

#include "advisor/extraction_assembly.h"
#include "advisor/extraction_configs.h"
#include "advisor/extraction_launch.h"
#include "advisor/extraction_python.h"
#include "advisor/extraction_state.h"
#include "advisor/extraction_values.h"
#include "advisor/launch_command.h"
#include "advisor/pasted_command.h"
#include "advisor/run_values.h"
#include "advisor/shell_script.h"
#include "repo/tools.h"

namespace schedmate {

using namespace extraction;  // NOLINT: the extractor's own stages

static Result<WorkloadMetadata> ExtractMetadataUnguarded(const RepoSnapshot& snapshot, const std::string& pasted,
                                                         const ExtractOptions& options) {
  const std::string command = PastedCommand(pasted);
  State st{snapshot, options};
  st.cwd = JoinPath("", options.workdir);
  FileTreeOptions tree_options;  // the extractor needs paths only: a large monorepo is listed whole
  tree_options.max_entries = 60000;
  tree_options.max_depth = 12;
  ASSIGN_OR_RETURN(FileTree tree, FileTreeTool(snapshot, tree_options));
  for (const auto& f : tree.files) st.files.insert(f.path);
  auto console = RepoConsoleScripts(st);
  std::vector<std::string> console_names = Names(console);
  // The command is read as a small shell script: `export X=…` lines, `cd`,
  // #SBATCH lines and chains before the launch.
  Launch l;
  ShellContext ctx;
  ctx.console_scripts = console_names;
  auto found = FindShellLaunch(command, ctx);
  bool external = false;
  if (!found) {
    // A training CLI installed from elsewhere (allennlp train x.jsonnet, torchx run
    // --script train.py, t5_mesh_transformer --gin_file=…): the command and the
    // files it names are all there is to read.
    for (const auto& h : CommandHeads(command)) ctx.console_scripts.push_back(h);
    found = FindShellLaunch(command, ctx);
    external = found.has_value();
  }
  if (!found)
    return ParseLaunchCommand(command, console_names).status().ok()
               ? InvalidArgument("the command launches nothing this extractor can follow")
               : ParseLaunchCommand(command, console_names).status();
  ASSIGN_OR_RETURN(l.spec, ParseLaunchCommand(found->line, ctx.console_scripts));
  if (!l.spec.visible_devices)
    if (auto v = found->vars.find("CUDA_VISIBLE_DEVICES");
        v != found->vars.end() && !v->second.empty() && v->second.find('<') == std::string::npos)
      l.spec.visible_devices = 1 + static_cast<int>(std::count(v->second.begin(), v->second.end(), ','));
  l.sbatch_gpus_per_node = found->gpus_per_node;
  l.sbatch_nodes = found->nodes;
  l.sbatch_total_gpus = found->total_gpus;
  st.cwd = JoinPath(st.cwd, JoinPath(found->chdir, l.spec.chdir));
  RETURN_IF_ERROR(UnwrapShell(st, &l, console_names));
  std::string entry;
  if (external || (l.spec.entry_kind == LaunchSpec::Entry::kConsole && !console.count(l.spec.entry))) {
    l.spec.launcher = l.spec.entry;
    if (const std::string* script = l.spec.Override("script"); script && !FindFile(st, *script).empty()) {
      entry = FindFile(st, *script);  // torchx … --script train.py
      l.spec.entry_kind = LaunchSpec::Entry::kScript;
    }
    if (const std::string* j = l.spec.Override("j"); j && j->find('x') != std::string::npos) {  // torchx -j NxM
      auto nodes = ToCount(j->substr(0, j->find('x'))), procs = ToCount(j->substr(j->find('x') + 1));
      if (nodes && procs) {
        l.spec.nnodes = static_cast<int>(*nodes);
        l.spec.nproc_per_node = static_cast<int>(*procs);
      }
    }
    if (entry.empty()) {
      // Hydra-style overrides (solver=musicgen/x) name group files: find the config root that has them.
      HydraMain root;
      for (const auto& [k, v] : l.spec.overrides) {
        if (k.find('.') != std::string::npos || v.empty() || v.find('/') == 0) continue;
        std::string suffix = "/" + k + "/" + v + ".yaml";
        for (const auto& f : st.files)
          if (EndsWith(f, suffix) || f == suffix.substr(1)) {
            root.path = f.size() == suffix.size() - 1 ? "" : f.substr(0, f.size() - suffix.size());
            break;
          }
        if (!root.path.empty()) break;
      }
      if (!root.path.empty())
        for (const char* name : {"config", "default", "defaults"})
          if (st.files.count(JoinPath(root.path, std::string(name) + ".yaml"))) {
            root.name = name;
            break;
          }
      ReadConfigsAndOverrides(st, l, "", root);
      if (st.config_paths.empty() && st.fields.empty())
        return InvalidArgument("'" + l.spec.launcher +
                               "' runs no Python in the repository and names no config or setting");
      return Assemble(st, l, "");
    }
  } else {
    auto found_entry = FindEntry(st, &l, console);
    // A wrapper that runs training code from outside the repository (`cd
    // $MEGATRON_REPO` then `pretrain_gpt.py …`): the command line it builds
    // and the files it names are all there is to read.
    if (!found_entry.ok() && !st.wrappers.empty() && l.spec.entry_kind == LaunchSpec::Entry::kScript &&
        EndsWith(l.spec.entry, ".py")) {
      ReadConfigsAndOverrides(st, l, "", HydraMain{});
      if (st.fields.empty()) return found_entry.status();
      return Assemble(st, l, "");
    }
    ASSIGN_OR_RETURN(entry, std::move(found_entry));
    ASSIGN_OR_RETURN(std::string launched, ThroughRepositoryLauncher(st, &l, entry, console));
    if (!launched.empty()) entry = launched;
  }
  if (l.spec.entry_kind == LaunchSpec::Entry::kScript || l.spec.entry_kind == LaunchSpec::Entry::kModule)
    for (const char* f : {"main", "train", "cli_main", "run", "entrypoint", "finetune", "fit"})
      st.entry_functions.insert(f);
  if (!l.spec.positional.empty()) st.subcommand = l.spec.positional[0];
  st.command_args = l.spec.args;
  HydraMain hydra = ReadPythonSources(st, entry, options);
  LibraryDefaults(st);
  ReadConfigsAndOverrides(st, l, entry, hydra);
  ApplyFlagSettings(st);
  return Assemble(st, l, entry);
}

// A user's repository never takes the scheduler down: a library exception
// on hostile input becomes an error, and the caller falls back.
Result<WorkloadMetadata> ExtractMetadata(const RepoSnapshot& snapshot, const std::string& command,
                                         const ExtractOptions& options) {
  try {
    return ExtractMetadataUnguarded(snapshot, command, options);
  } catch (const std::exception& e) {
    return Internal(std::string("metadata extraction failed: ") + e.what());
  }
}

}  // namespace schedmate
