// What the Advisor needs from a Python file, read with a real parser
// (tree-sitter and its Python grammar), never by executing or importing it:
// imports, calls with their literal arguments (`parser.add_argument("--lr",
// type=float, default=3e-4)`, `AutoModel.from_pretrained("gpt2")`,
// `TrainingArguments(per_device_train_batch_size=8)`), and simple
// assignments (`BATCH_SIZE = 64`, `args.lr = 1e-4`).
#ifndef SCHEDMATE_ADVISOR_PYTHON_SOURCE_H_
#define SCHEDMATE_ADVISOR_PYTHON_SOURCE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct PyValue {
  enum class Kind { kString, kInt, kFloat, kBool, kNone, kName, kList, kOther };
  Kind kind = Kind::kOther;
  std::string text;  // string contents (unquoted), number text, or dotted name / source text
  std::vector<PyValue> items;  // kList: the elements of a list or tuple literal (not nested lists)
};

struct PyCall {
  std::string callee;  // dotted: "parser.add_argument", "timm.create_model"
  std::vector<PyValue> args;
  std::vector<std::pair<std::string, PyValue>> kwargs;
  int line = 0;  // 1-based
  int begin = 0;  // the call's first byte in the source (calls on one line told apart)
  std::string scope;  // the enclosing function or class, as PyAssign::scope ("" at module level)
  // A call that is one branch of a conditional expression (`autocast() if
  // args.amp else nullcontext()`): the condition's source text, and whether
  // the call is the branch taken when it is false.
  std::string condition;
  bool condition_negated = false;
  const PyValue* Kwarg(std::string_view name) const;
};

struct PyAssign {
  // How the value was bound: `x = v` (dict literals and dict(...) calls are
  // also flattened into `x.key = v`), a parameter default `def f(x=v)`, or a
  // dataclass/typer field `x: int = field(default=v)` / `typer.Option(v)`.
  enum class Origin { kAssign, kParam, kField };
  std::string target;  // dotted: "BATCH_SIZE", "config.lr", "args.batch_size", "model.backbone.depth"
  PyValue value;
  int line = 0;
  // Innermost enclosing function or class ("" at module level); a method is
  // "Class.method" (its parameters are the class's constructor arguments for __init__).
  std::string scope;
  Origin origin = Origin::kAssign;
  bool in_function = false;  // inside a def (a local, or an attribute set at run time)
  // The condition of the innermost `if`/`elif` whose body binds it (source
  // text; `if __name__ == "__main__":` does not count), "<else>" in an
  // `else:` body, empty when unconditional.
  std::string condition;
};

struct PyImport {
  std::string module;  // "transformers", ".model" for relative imports
  std::vector<std::string> names;  // imported names (empty for `import x`)
  int line = 0;
};

struct PyClass {
  std::string name;
  std::vector<std::string> bases;  // dotted: "Trainer", "transformers.Trainer"
  int line = 0;
};

// One named entry of a dict-like table of values: `X["k"] = v` (a
// subscript assignment) or the pair `"k": v` of a dict literal bound to X.
// The lines span the value, so the calls inside it are known by their line
// (a CLI that picks one entry by name, as tyro's subcommands do).
struct PyEntry {
  std::string container;  // dotted: "method_configs", "configs"
  std::string key;
  int line = 0, end_line = 0;  // 1-based, the value's first and last line
  int begin = 0, end = 0;      // the value's bytes in the source [begin, end)
};

struct PythonFacts {
  std::vector<PyEntry> entries;
  std::vector<PyImport> imports;
  std::vector<PyCall> calls;
  std::vector<PyAssign> assigns;
  std::vector<PyClass> classes;
  bool has_syntax_errors = false;
};

// Parses `source` (capped by the caller). Never fails on bad Python: the
// parts tree-sitter could parse are returned and has_syntax_errors is set.
PythonFacts ParsePython(std::string_view source);

// ParsePython's result for `source`, shared: a file read again with the same
// content (the same library module or training script in many jobs'
// repositories) is parsed once per thread. The cache is bounded (entries and
// bytes of source) and keyed by the whole content, so a hit is never another
// file's facts.
std::shared_ptr<const PythonFacts> ParsePythonShared(std::string_view source);

// Parses done and parses saved by ParsePythonShared on this thread.
struct PythonParseCacheStats {
  int64_t parsed = 0;
  int64_t hits = 0;
};
PythonParseCacheStats PythonParseCacheStatsOfThisThread();
// Empties this thread's cache (a benchmark of reading a repository for the
// first time; the counts stay).
void ForgetSharedPythonParsesOfThisThread();

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_PYTHON_SOURCE_H_
