#include "experiments/sweep_spec.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/json.h"
#include "experiments/json_location.h"

namespace schedmate {
namespace fs = std::filesystem;

const std::vector<std::string>& SweepCommands() {
  static const std::vector<std::string> kCommands = {"simulate", "lucid", "standalone", "backfill", "sia"};
  return kCommands;
}

namespace {

// Flags every task gets from the sweep itself.
constexpr std::string_view kOwnedFlags[] = {"--seed", "--json", "--progress", "--out", "--config"};

bool IsPlainName(const std::string& s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0]++;
    for (size_t j = 1; j <= b.size(); ++j)
      diagonal = std::exchange(row[j], std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])}));
  }
  return row[b.size()];
}

// Reads one sweep file; each error names file:line: field.
class SweepParser {
 public:
  SweepParser(std::string_view text, std::string path) : text_(text), path_(std::move(path)) {}

  Status Error(const JsonPath& at, const std::string& message) const {
    int line = JsonLineOf(text_, at);
    return InvalidArgument(path_ + (line > 0 ? ":" + std::to_string(line) : "") + ": field '" + JsonPathString(at) +
                           "': " + message);
  }

  Status Known(const Json& obj, const JsonPath& at, std::initializer_list<std::string_view> known) const {
    for (const auto& [key, value] : obj.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      JsonPath field = at;
      field.push_back(key);
      std::string list, closest;
      size_t best = 3;
      for (std::string_view k : known) {
        list += " " + std::string(k);
        if (size_t d = EditDistance(key, k); d < best) best = d, closest = k;
      }
      return Error(field,
                   "unknown field" + (closest.empty() ? "" : " (did you mean '" + closest + "'?)") + "; known:" + list);
    }
    return Status::Ok();
  }

  Result<std::string> String(const Json& v, const JsonPath& at) const {
    if (!v.is_string()) return Error(at, std::string("must be a string, got ") + v.type_name());
    return v.get<std::string>();
  }

  Result<std::string> Name(const Json& v, const JsonPath& at) const {
    ASSIGN_OR_RETURN(std::string s, String(v, at));
    if (!IsPlainName(s)) return Error(at, "'" + s + "' must be 1-64 letters, digits, '-', '_' or '.'");
    return s;
  }

  Result<std::vector<std::string>> Strings(const Json& v, const JsonPath& at) const {
    if (!v.is_array()) return Error(at, std::string("must be an array of strings, got ") + v.type_name());
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      JsonPath item = at;
      item.push_back(i);
      ASSIGN_OR_RETURN(std::string s, String(v[i], item));
      out.push_back(std::move(s));
    }
    return out;
  }

  Status NoOwnedFlags(const std::vector<std::string>& args, const JsonPath& at) const {
    for (size_t i = 0; i < args.size(); ++i)
      for (std::string_view flag : kOwnedFlags)
        if (args[i] == flag || args[i].rfind(std::string(flag) + "=", 0) == 0) {
          JsonPath item = at;
          item.push_back(i);
          return Error(item, "'" + std::string(flag) + "' is set by the sweep (seeds, config, keep_outputs)");
        }
    return Status::Ok();
  }

  Result<std::vector<int64_t>> Seeds(const Json& v, const JsonPath& at) const {
    if (!v.is_array() || v.empty()) return Error(at, "must be a non-empty array of seeds (whole numbers >= 0)");
    std::vector<int64_t> out;
    for (size_t i = 0; i < v.size(); ++i) {
      JsonPath item = at;
      item.push_back(i);
      if (!v[i].is_number_integer() || v[i].get<int64_t>() < 0)
        return Error(item, "a seed must be a whole number >= 0, got " + DumpJson(v[i]));
      if (std::find(out.begin(), out.end(), v[i].get<int64_t>()) != out.end())
        return Error(item, "seed " + DumpJson(v[i]) + " is listed twice");
      out.push_back(v[i].get<int64_t>());
    }
    return out;
  }

  Result<std::vector<SweepSetting>> Settings(const Json& v, const JsonPath& at) const {
    if (!v.is_array() || v.empty()) return Error(at, "must be a non-empty array of {\"name\", \"args\"}");
    std::vector<SweepSetting> out;
    std::set<std::string> names;
    for (size_t i = 0; i < v.size(); ++i) {
      JsonPath item = at;
      item.push_back(i);
      if (!v[i].is_object()) return Error(item, "must be an object {\"name\", \"args\"}");
      RETURN_IF_ERROR(Known(v[i], item, {"name", "args"}));
      SweepSetting s;
      if (!v[i].contains("name")) return Error(item, "has no 'name'");
      ASSIGN_OR_RETURN(s.name, Name(v[i]["name"], Child(item, "name")));
      if (!names.insert(s.name).second) return Error(Child(item, "name"), "'" + s.name + "' is used twice");
      if (v[i].contains("args")) {
        ASSIGN_OR_RETURN(s.args, Strings(v[i]["args"], Child(item, "args")));
        RETURN_IF_ERROR(NoOwnedFlags(s.args, Child(item, "args")));
      }
      out.push_back(std::move(s));
    }
    return out;
  }

  // {"--policy": ["fifo", "sjf"], "--load": [0.8, 0.9]} → every combination.
  Result<std::vector<SweepSetting>> Matrix(const Json& v, const JsonPath& at) const {
    if (!v.is_object() || v.empty()) return Error(at, "must be an object of flag -> array of values");
    std::vector<SweepSetting> out = {{}};
    for (const auto& [flag, values] : v.items()) {
      JsonPath field = Child(at, flag);
      if (flag.size() < 2 || flag[0] != '-') return Error(field, "'" + flag + "' is not a flag (--name)");
      if (std::find(std::begin(kOwnedFlags), std::end(kOwnedFlags), flag) != std::end(kOwnedFlags))
        return Error(field, "'" + flag + "' is set by the sweep (seeds, config, keep_outputs)");
      if (!values.is_array() || values.empty()) return Error(field, "must be a non-empty array of values");
      std::vector<SweepSetting> crossed;
      for (size_t i = 0; i < values.size(); ++i) {
        const Json& value = values[i];
        if (!value.is_string() && !value.is_number())
          return Error(Child(field, i), std::string("a value must be a string or a number, got ") + value.type_name());
        const std::string text = value.is_string() ? value.get<std::string>() : DumpJson(value);
        const std::string label = flag.substr(flag.find_first_not_of('-')) + "=" + text;
        for (const SweepSetting& base : out) {
          SweepSetting s = base;
          s.name += (s.name.empty() ? "" : ",") + label;
          s.args.push_back(flag);
          s.args.push_back(text);
          crossed.push_back(std::move(s));
        }
      }
      out = std::move(crossed);
    }
    return out;
  }

  Result<SweepExperiment> Experiment(const Json& v, const JsonPath& at,
                                     const std::optional<std::vector<int64_t>>& seeds, const fs::path& dir) const {
    if (!v.is_object()) return Error(at, "must be an object {\"name\", \"command\", ...}");
    RETURN_IF_ERROR(Known(v, at, {"name", "command", "config", "args", "settings", "matrix", "seeds", "keep_outputs"}));
    SweepExperiment e;
    if (!v.contains("name")) return Error(at, "has no 'name'");
    ASSIGN_OR_RETURN(e.name, Name(v["name"], Child(at, "name")));
    if (!v.contains("command")) return Error(at, "has no 'command'");
    ASSIGN_OR_RETURN(e.command, String(v["command"], Child(at, "command")));
    RETURN_IF_ERROR(CheckCommand(e.command, Child(at, "command")));
    if (v.contains("config")) {
      ASSIGN_OR_RETURN(std::string config, String(v["config"], Child(at, "config")));
      fs::path p = fs::path(config).is_absolute() ? fs::path(config) : dir / config;
      std::error_code ec;
      if (!fs::is_regular_file(p, ec)) return Error(Child(at, "config"), "'" + p.string() + "' is not a file");
      e.config = fs::weakly_canonical(p, ec).string();
    }
    if (v.contains("args")) {
      ASSIGN_OR_RETURN(e.args, Strings(v["args"], Child(at, "args")));
      RETURN_IF_ERROR(NoOwnedFlags(e.args, Child(at, "args")));
    }
    RETURN_IF_ERROR(SettingsOf(v, at, &e.settings));
    if (v.contains("seeds")) {
      ASSIGN_OR_RETURN(e.seeds, Seeds(v["seeds"], Child(at, "seeds")));
    } else if (seeds) {
      e.seeds = *seeds;
    } else {
      return Error(at, "no seeds: give 'seeds' here or at the top level");
    }
    if (v.contains("keep_outputs")) {
      if (!v["keep_outputs"].is_boolean()) return Error(Child(at, "keep_outputs"), "must be true or false");
      e.keep_outputs = v["keep_outputs"].get<bool>();
    }
    return e;
  }

  Result<SweepSpec> Top(const Json& j, const std::string& stem) const {
    if (!j.is_object()) return Error({}, "a sweep file is an object {\"seeds\", \"experiments\", ...}");
    RETURN_IF_ERROR(Known(j, {}, {"name", "description", "seeds", "experiments", "slurm", "research"}));
    SweepSpec spec;
    spec.file = fs::absolute(path_).lexically_normal().string();
    spec.cwd = fs::path(spec.file).parent_path().string();
    spec.name = stem;
    if (j.contains("name")) {
      ASSIGN_OR_RETURN(spec.name, Name(j["name"], {"name"}));
    }
    if (j.contains("description") && !j["description"].is_string()) return Error({"description"}, "must be a string");
    std::optional<std::vector<int64_t>> seeds;
    if (j.contains("seeds")) {
      ASSIGN_OR_RETURN(seeds, Seeds(j["seeds"], {"seeds"}));
    }
    if (j.contains("slurm")) RETURN_IF_ERROR(Slurm(j["slurm"], &spec));
    if (j.contains("research")) {  // read by the research report (experiments/research_report.h)
      if (!j["research"].is_object()) return Error({"research"}, "must be an object {\"title\", \"columns\", ...}");
      spec.research = j["research"];
    }
    if (!j.contains("experiments")) return Error({}, "has no 'experiments'");
    const Json& list = j["experiments"];
    if (!list.is_array() || list.empty()) return Error({"experiments"}, "must be a non-empty array");
    std::set<std::string> names;
    for (size_t i = 0; i < list.size(); ++i) {
      ASSIGN_OR_RETURN(SweepExperiment e, Experiment(list[i], {"experiments", i}, seeds, spec.cwd));
      if (!names.insert(e.name).second)
        return Error({"experiments", i, "name"}, "'" + e.name + "' names two experiments");
      spec.experiments.push_back(std::move(e));
    }
    return spec;
  }

 private:
  static JsonPath Child(JsonPath at, JsonPathStep step) {
    at.push_back(std::move(step));
    return at;
  }

  Status CheckCommand(const std::string& command, const JsonPath& at) const {
    const auto& known = SweepCommands();
    if (std::find(known.begin(), known.end(), command) != known.end()) return Status::Ok();
    return Error(at, "'" + command + "' is not a sweepable command; known: simulate, lucid, standalone, backfill, sia");
  }

  // The explicit settings crossed with the matrix; one unnamed setting when neither is given.
  Status SettingsOf(const Json& v, const JsonPath& at, std::vector<SweepSetting>* out) const {
    std::vector<SweepSetting> listed = {{}}, matrix = {{}};
    if (v.contains("settings")) {
      ASSIGN_OR_RETURN(listed, Settings(v["settings"], Child(at, "settings")));
    }
    if (v.contains("matrix")) {
      ASSIGN_OR_RETURN(matrix, Matrix(v["matrix"], Child(at, "matrix")));
    }
    for (const SweepSetting& a : listed)
      for (const SweepSetting& b : matrix) {
        SweepSetting s{a.name + (a.name.empty() || b.name.empty() ? "" : ",") + b.name, a.args};
        s.args.insert(s.args.end(), b.args.begin(), b.args.end());
        out->push_back(std::move(s));
      }
    return Status::Ok();
  }

  Status Slurm(const Json& v, SweepSpec* spec) const {
    if (!v.is_object()) return Error({"slurm"}, "must be an object {\"sbatch_args\": [...]}");
    RETURN_IF_ERROR(Known(v, {"slurm"}, {"sbatch_args"}));
    if (v.contains("sbatch_args")) {
      ASSIGN_OR_RETURN(spec->sbatch_args, Strings(v["sbatch_args"], {"slurm", "sbatch_args"}));
    }
    for (size_t i = 0; i < spec->sbatch_args.size(); ++i)
      for (std::string_view owned : {"--array", "-a", "--output", "-o", "--parsable", "--wrap"})
        if (spec->sbatch_args[i] == owned || spec->sbatch_args[i].rfind(std::string(owned) + "=", 0) == 0)
          return Error({"slurm", "sbatch_args", i}, "'" + std::string(owned) + "' is set by experiments run");
    return Status::Ok();
  }

  std::string_view text_;
  std::string path_;
};

}  // namespace

Result<SweepSpec> ParseSweep(std::string_view text, const std::string& path) {
  ASSIGN_OR_RETURN(Json j, ParseJson(text, path));
  return SweepParser(text, path).Top(j, fs::path(path).stem().string());
}

Result<SweepSpec> ReadSweepFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileCapped(path, 16u << 20));
  return ParseSweep(text, path);
}

}  // namespace schedmate
