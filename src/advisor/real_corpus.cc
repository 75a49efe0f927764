#include "advisor/real_corpus.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

bool IsHex40(const std::string& s) {
  if (s.size() != 40) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Lower-case letters and digits only: "ViT-B/16" → "vitb16".
std::string Fold(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string LastSegment(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  size_t slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

bool StringMatches(const std::string& label, const std::string& got) {
  if (Fold(label).empty()) return false;
  return Fold(label) == Fold(got) || Fold(LastSegment(label)) == Fold(LastSegment(got)) ||
         Fold(label) == Fold(LastSegment(got));
}

Status CheckLabel(const std::string& field, const Json& v, const std::string& where) {
  static const std::set<std::string> kNumeric = {"training_iterations", "batch_size", "hardware.num_gpus",
                                                  "learning_rate"};
  if (v.is_null()) return Status::Ok();
  if (kNumeric.count(field)) {
    if (!v.is_number()) return InvalidArgument(where + ": labels." + field + " must be a number or null");
    if (field != "learning_rate" && !v.is_number_integer())
      return InvalidArgument(where + ": labels." + field + " must be an integer");
    return Status::Ok();
  }
  if (v.is_string()) return Status::Ok();
  if (v.is_array() && !v.empty()) {
    for (const auto& e : v)
      if (!e.is_string()) return InvalidArgument(where + ": labels." + field + " list must hold strings");
    return Status::Ok();
  }
  return InvalidArgument(where + ": labels." + field + " must be a string, a list of strings or null");
}

}  // namespace

const std::vector<std::string>& RealCorpusFields() {
  static const std::vector<std::string> kFields = {
      "model_name", "model_type",  "dataset",       "training_iterations", "iteration_type",
      "batch_size", "hardware.num_gpus", "learning_rate", "precision",  "framework"};
  return kFields;
}

Result<std::vector<RealCorpusItem>> LoadRealCorpus(const std::string& path) {
  std::vector<RealCorpusItem> items;
  std::set<std::string> ids;
  Status s = ForEachJsonLine(path, [&](const Json& j, const std::string& where) -> Status {
    if (!j.is_object()) return InvalidArgument(where + ": not a JSON object");
    RealCorpusItem it;
    it.where = where;
    ASSIGN_OR_RETURN(it.id, GetString(j, "id", where));
    ASSIGN_OR_RETURN(it.repo, GetString(j, "repo", where));
    ASSIGN_OR_RETURN(it.commit, GetString(j, "commit", where));
    ASSIGN_OR_RETURN(it.command, GetString(j, "command", where));
    ASSIGN_OR_RETURN(it.split, GetString(j, "split", where));
    ASSIGN_OR_RETURN(auto workdir, GetOptString(j, "workdir", where));
    ASSIGN_OR_RETURN(auto source, GetOptString(j, "command_source", where));
    ASSIGN_OR_RETURN(auto notes, GetOptString(j, "notes", where));
    it.workdir = workdir.value_or("");
    it.command_source = source.value_or("");
    it.notes = notes.value_or("");
    if (!ids.insert(it.id).second) return InvalidArgument(where + ": id '" + it.id + "' repeats");
    if (it.repo.find('/') == std::string::npos || it.repo.find("..") != std::string::npos)
      return InvalidArgument(where + ": repo must be owner/name");
    if (!IsHex40(it.commit)) return InvalidArgument(where + ": commit must be 40 hex digits");
    if (it.split != "dev" && it.split != "val") return InvalidArgument(where + ": split must be dev or val");
    if (auto st = j.find("style"); st != j.end() && st->is_array())
      for (const auto& e : *st)
        if (e.is_string()) it.styles.push_back(e.get<std::string>());
    auto labels = j.find("labels");
    if (labels == j.end() || !labels->is_object()) return InvalidArgument(where + ": labels must be an object");
    for (const auto& f : RealCorpusFields()) {
      auto v = labels->find(f);
      if (v == labels->end()) return InvalidArgument(where + ": labels." + f + " is missing (null if unknown)");
      RETURN_IF_ERROR(CheckLabel(f, *v, where));
      it.labels[f] = *v;
    }
    if (auto ev = j.find("evidence"); ev != j.end() && ev->is_object())
      for (const auto& [k, v] : ev->items())
        if (v.is_string()) it.evidence[k] = v.get<std::string>();
    items.push_back(std::move(it));
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return items;
}

std::optional<std::string> FindMirror(const std::string& mirrors, const std::string& repo) {
  namespace fs = std::filesystem;
  std::string plus = repo;
  for (char& c : plus)
    if (c == '/') c = '+';
  std::error_code ec;
  for (const fs::path& p : {fs::path(mirrors) / plus / "repo", fs::path(mirrors) / plus, fs::path(mirrors) / repo,
                            fs::path(mirrors) / repo / ".git"}) {
    if (fs::is_regular_file(p / "HEAD", ec) && fs::is_directory(p / "objects", ec)) return p.string();
  }
  return std::nullopt;
}

Json ExtractedValue(const WorkloadMetadata& md, const std::string& field) {
  auto opt = [](const auto& o) -> Json { return o ? Json(*o) : Json(nullptr); };
  if (field == "model_name") return opt(md.model_name);
  if (field == "model_type") return opt(md.model_type);
  if (field == "dataset") return opt(md.dataset);
  if (field == "training_iterations") return opt(md.training_iterations);
  if (field == "iteration_type") return opt(md.iteration_type);
  if (field == "batch_size") return opt(md.batch_size);
  if (field == "hardware.num_gpus") return opt(md.hardware.num_gpus);
  if (field == "learning_rate") return opt(md.learning_rate);
  if (field == "precision") return opt(md.precision);
  if (field == "framework") return opt(md.framework);
  return nullptr;
}

FieldOutcome ScoreField(const std::string& field, const Json& label, const Json& got) {
  if (label.is_null()) return got.is_null() ? FieldOutcome::kCorrect : FieldOutcome::kWrong;
  if (got.is_null()) return FieldOutcome::kMissing;
  if (label.is_number()) {
    if (!got.is_number()) return FieldOutcome::kWrong;
    double a = label.get<double>(), b = got.get<double>();
    if (field == "learning_rate") return std::fabs(a - b) <= 1e-6 * std::fabs(a) + 1e-15 ? FieldOutcome::kCorrect : FieldOutcome::kWrong;
    return a == b ? FieldOutcome::kCorrect : FieldOutcome::kWrong;
  }
  std::string g = got.is_string() ? got.get<std::string>() : got.dump();
  if (label.is_string()) return StringMatches(label.get<std::string>(), g) ? FieldOutcome::kCorrect : FieldOutcome::kWrong;
  for (const auto& alt : label)
    if (alt.is_string() && StringMatches(alt.get<std::string>(), g)) return FieldOutcome::kCorrect;
  return FieldOutcome::kWrong;
}

void RealTally::Add(const std::map<std::string, FieldOutcome>& outcomes, const std::map<std::string, Json>& labels) {
  ++items;
  for (const auto& [f, o] : outcomes) {
    correct[f] += o == FieldOutcome::kCorrect;
    wrong[f] += o == FieldOutcome::kWrong;
    missing[f] += o == FieldOutcome::kMissing;
    auto l = labels.find(f);
    labelled_null[f] += l != labels.end() && l->second.is_null();
  }
}

double RealTally::Accuracy(const std::string& f) const {
  auto it = correct.find(f);
  return items && it != correct.end() ? static_cast<double>(it->second) / items : 0.0;
}

double RealTally::WrongRate(const std::string& f) const {
  auto it = wrong.find(f);
  return items && it != wrong.end() ? static_cast<double>(it->second) / items : 0.0;
}

double RealTally::MeanAccuracy() const {
  double m = 0;
  for (const auto& f : RealCorpusFields()) m += Accuracy(f);
  return m / static_cast<double>(RealCorpusFields().size());
}

double RealTally::MeanWrongRate() const {
  double m = 0;
  for (const auto& f : RealCorpusFields()) m += WrongRate(f);
  return m / static_cast<double>(RealCorpusFields().size());
}

}  // namespace schedmate
