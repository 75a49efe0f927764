// The extractor's working state (part of advisor/metadata_extractor.h):
// every value a run's command, configs and code set, keyed by setting and by
// schema field, with where it came from and how strongly it binds; the files
// listed and read; what the code calls and imports. The stages that fill it
// (extraction_launch.h, extraction_python.h, extraction_configs.h) and the
// ones that read it (extraction_values.h, extraction_guesses.h,
// extraction_assembly.h) all sit on this header. Also the path helpers they
// share: joining, resolving a path the run names, a module's files.
#ifndef SCHEDMATE_ADVISOR_EXTRACTION_STATE_H_
#define SCHEDMATE_ADVISOR_EXTRACTION_STATE_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "advisor/extract_options.h"
#include "advisor/python_source.h"
#include "core/facts.h"
#include "core/status.h"
#include "repo/snapshot.h"

namespace schedmate::extraction {

// Precedence of a value's origin: later stages override earlier ones.
enum Precedence { kLibrary = 0, kImported = 1, kEntryDefault = 2, kConfig = 3, kCommand = 5 };

struct Candidate {
  std::string value, file, key;
  int line = 0;
  int precedence = -1;
  int specificity = 0;
  int order = 0;
};

std::string Lower(std::string s);
// The part of a dotted key after its last dot.
std::string LastSegment(const std::string& k);
bool EndsWith(const std::string& s, std::string_view suffix);
// A key as every source spells it: lower case, '-' to '_', no leading dashes,
// and without the namespace objects code stores arguments in.
std::string NormalKey(std::string key);

struct State {
  const RepoSnapshot& snap;
  const ExtractOptions& opt;
  std::set<std::string> files;                                     // what file_tree lists
  std::vector<std::string> read;                                   // files read, in order
  std::map<std::string, std::map<std::string, Candidate>> fields;  // field → key → value
  std::map<std::string, Candidate> values;                         // every key → value (interpolation)
  std::map<std::string, PyValue> constants;                        // module-level NAME → literal
  std::set<std::string> imports;                                   // top-level package names seen
  std::vector<std::string> callees;                                // call names seen (model type, framework)
  std::set<std::string> entry_callees;                             // calls in the entry file and its closest imports
  std::set<std::string> entry_imports;         // packages the entry file and its closest imports use
  std::vector<std::string> wrappers;           // shell wrappers followed
  std::map<std::string, std::string> aliases;  // argparse short flag → its long name
  std::vector<std::string> positionals;        // argparse positional arguments, in order
  bool spawns_per_gpu = false;                 // mp.spawn / device_count(): one process per visible GPU
  bool autocast_bf16 = false;
  bool multi_device = false;                // pmap/pjit/Mesh, a TF distribution strategy: every visible device
  std::vector<std::string> config_classes;  // values of target/_target_/class_path/type in the run's configs
  std::string autocast_dtype;               // "bf16"/"fp16" from a literal autocast dtype near the entry
  // Mixed precision in the code near the entry: always on (torch.autocast(),
  // GradScaler(), model.half()), or switched by a setting (enabled=cfg.AMP).
  bool mixed_always = false;
  std::set<std::string> mixed_switches;                   // keys of the settings that switch it
  std::map<std::string, std::vector<std::string>> bases;  // class → its bases, over every file read
  struct DefaultConfig {
    std::string flag, path, from;
  };
  std::vector<DefaultConfig> default_configs;                     // a config flag's default file
  std::vector<std::pair<std::string, std::string>> code_configs;  // (path, from file): configs the code loads
  // (path relative to the file's own directory, from file): a package default
  // the code joins to dirname(__file__); looked for there only.
  std::vector<std::pair<std::string, std::string>> own_dir_configs;
  // A setting the entry binds under `if <flag>:` (`if opt.O: opt.fp16 = True`):
  // it holds only when the flag is on, which the command decides.
  struct FlagSetting {
    std::string flag, key, value, file;
    int line = 0;
  };
  std::vector<FlagSetting> flag_settings;
  // A setting the entry binds to a conditional expression over other settings
  // (`lr = (0.002 if opts.cfg == 'stylegan2' else 0.0025) if opts.glr is None
  // else opts.glr`): evaluated once the command and configs are read.
  std::vector<FlagSetting> conditional_settings;  // flag holds the expression
  std::set<std::string> nargs_flags;                              // options declared nargs='+'/'*'
  std::set<std::string> base_configs;                             // Python configs with an mmengine-style _base_
  std::vector<std::string> config_paths;                          // config files read
  std::set<std::string> entry_functions;  // fire/typer/console-script functions (their parameters are arguments)
  // A CLI that picks one named config object by its subcommand (tyro's
  // subcommand_type_from_defaults / subcommand_cli_from_dict /
  // overridable_config_cli over `configs["name"] = Config(...)`): the
  // command's first bare word, and per file the lines of the chosen entry's
  // value and of its siblings' values.
  std::string subcommand;
  std::vector<std::string> command_args;  // the command's arguments after the entry, in order
  // The code joins "default" + a config's extension to a directory it walks
  // (`os.path.join(config_dir, "default" + ext)`): a named config sits on the
  // default.<ext> files of its directory and the directories above it.
  bool config_dir_defaults = false;
  // Per file, the source bytes [begin, end) of the chosen entry's value and of its siblings'.
  std::map<std::string, std::vector<std::pair<int, int>>> chosen_entry, other_entries;
  std::string cwd;                        // where the command runs
  std::string hydra_root;                 // the Hydra config directory, when the run uses Hydra
  int order = 0;
  bool data_parallel = false;

  State(const RepoSnapshot& s, const ExtractOptions& o) : snap(s), opt(o) {}

  // A value for a schema field (or a helper field: steps, epochs, bf16, ...)
  // under the key it came from; a later value of the same key wins when its
  // precedence is at least as high.
  void SetField(const std::string& field, const std::string& key, const std::string& value, const std::string& file,
                int line, int prec, int specificity);
  // A path under a key that is no dataset key, one of whose segments begins
  // with known data, hints at the dataset (used only when nothing names it).
  void SetDataPathHint(const std::string& key, const std::string& value, const std::string& file, int line, int prec);
  // A setting `raw_key = value`: recorded under its normal key, and under the
  // schema field its words name (advisor/field_keys.h).
  void Set(const std::string& raw_key, const std::string& value, const std::string& file, int line, int prec);
  // One file, counted against the budget of files read.
  std::optional<std::string> Read(const std::string& path);
  // A literal, or a module constant it names ("BATCH_SIZE").
  std::optional<std::string> Literal(const PyValue& v) const;
};

std::string DirOf(const std::string& path);
// `dir/rel` normalised within the snapshot ("a/./b", "a/x/../b"; never above it).
std::string JoinPath(const std::string& dir, const std::string& rel_in);
// A config file by its extension (YAML, JSON, TOML, Jsonnet, gin, Python).
bool IsConfigLike(const std::string& p);
// A path the run names, found in the snapshot: relative to where the command
// runs, to the root, or to `near`; with a config extension added when it has
// none; or, for a registry name like "llama3/8B_lora", the one file whose
// path ends with it.
std::optional<std::string> ResolvePath(const State& st, const std::string& value, const std::string& near,
                                       bool configs_only);
// Candidate files for a module imported from `from_file`.
std::vector<std::string> ModuleFiles(const std::string& module, const std::string& from_file, const std::string& cwd);
// ml_collections: `configs/x.py:gpu8` is the file configs/x.py called with "gpu8".
std::string StripConfigArg(const std::string& v);

// The bare words of `args` that follow an option declared nargs='+'/'*'
// (`--methods simclr byol`): that option's values, not positionals.
std::set<std::string> NargsOwnedWords(const State& st, const std::vector<std::string>& args);

}  // namespace schedmate::extraction

#endif  // SCHEDMATE_ADVISOR_EXTRACTION_STATE_H_
