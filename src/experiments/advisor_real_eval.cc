#include "experiments/advisor_real_eval.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "advisor/metadata_extractor.h"
#include "advisor/real_corpus.h"
#include "core/facts_json.h"
#include "core/str_format.h"
#include "repo/snapshot.h"

namespace schedmate {
namespace {

struct Scored {
  const RealCorpusItem* item;
  std::map<std::string, FieldOutcome> outcomes;
  Json extracted;         // field → value
  std::string error;      // extraction error, if any
  std::string rendering;  // the extracted fields, for the variants check
  double ms = 0;
  Json metadata;  // the whole answer, with provenance (printed with --only)
};

std::string Show(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

Scored ScoreItem(const RealCorpusItem& it, const RepoSnapshot& snap) {
  Scored s{&it, {}, Json::object(), "", "", 0, nullptr};
  ExtractOptions eo;
  eo.workdir = it.workdir;
  auto t0 = std::chrono::steady_clock::now();
  auto md = ExtractMetadata(snap, it.command, eo);
  s.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  WorkloadMetadata empty;
  if (!md.ok()) s.error = md.status().message();
  const WorkloadMetadata& m = md.ok() ? *md : empty;
  if (md.ok()) s.metadata = ToJson(*md);
  for (const auto& f : RealCorpusFields()) {
    Json got = ExtractedValue(m, f);
    s.extracted[f] = got;
    s.outcomes[f] = ScoreField(f, it.labels.at(f), got);
    s.rendering += f + "=" + got.dump() + ";";
  }
  return s;
}

Json TallyJson(const RealTally& t) {
  Json fields = Json::object();
  for (const auto& f : RealCorpusFields()) fields[f] = {{"accuracy", t.Accuracy(f)}, {"wrong_rate", t.WrongRate(f)}};
  return {{"items", t.items},
          {"extraction_failures", t.failed},
          {"field_accuracy_mean", t.MeanAccuracy()},
          {"wrong_rate_mean", t.MeanWrongRate()},
          {"fields", fields}};
}

void PrintTallies(const std::map<std::string, RealTally>& by_split, std::string& out) {
  out += StrFormat("%-22s", "field");
  for (const auto& [split, t] : by_split) out += StrFormat("  %-8s acc  wrong", split.c_str());
  out += StrFormat("\n");
  for (const auto& f : RealCorpusFields()) {
    out += StrFormat("%-22s", f.c_str());
    for (const auto& [split, t] : by_split)
      out += StrFormat("  %12.1f%% %5.1f%%", 100 * t.Accuracy(f), 100 * t.WrongRate(f));
    out += StrFormat("\n");
  }
  out += StrFormat("%-22s", "mean");
  for (const auto& [split, t] : by_split)
    out += StrFormat("  %12.1f%% %5.1f%%", 100 * t.MeanAccuracy(), 100 * t.MeanWrongRate());
  out += StrFormat("\n%-22s", "commands (failed)");
  for (const auto& [split, t] : by_split) out += StrFormat("  %13d (%d)", t.items, t.failed);
  out += StrFormat("\n");
}

}  // namespace

Result<std::string> RunAdvisorRealEval(const AdvisorRealEvalOptions& a, std::FILE* progress_out) {
  std::string out;
  auto items = LoadRealCorpus(a.manifest);
  if (!items.ok()) return items.status();
  if (!std::filesystem::is_directory(a.mirrors)) {
    out += StrFormat(
        "skipped: no mirrors directory at %s (the corpus repositories are mirrored locally; "
        "see DEVELOPERS.md)\n",
        a.mirrors.c_str());
    return out;
  }
  std::vector<Scored> scored;
  std::set<std::string> missing_repos;
  int done = 0;
  for (const auto& it : *items) {
    ++done;
    if (!a.only.empty() && it.id != a.only && it.repo != a.only) continue;
    auto dir = FindMirror(a.mirrors, it.repo);
    if (!dir) {
      missing_repos.insert(it.repo);
      continue;
    }
    auto snap = OpenGitSnapshot(*dir, it.commit);
    if (!snap.ok()) {
      missing_repos.insert(it.repo + " (" + snap.status().message() + ")");
      continue;
    }
    scored.push_back(ScoreItem(it, **snap));
    if (a.progress && progress_out)
      std::fprintf(progress_out, "\r%d/%zu %s        ", done, items->size(), it.id.c_str());
  }
  if (a.progress && progress_out) std::fprintf(progress_out, "\n");
  if (scored.empty()) {
    out += StrFormat("skipped: none of the %zu commands' repositories is mirrored under %s (see DEVELOPERS.md)\n",
                     items->size(), a.mirrors.c_str());
    return out;
  }
  std::map<std::string, RealTally> by_split;
  std::map<std::string, std::map<std::string, RealTally>> by_style;  // style → split → tally
  std::map<std::string, std::set<std::string>> repos_of;
  std::vector<double> ms;
  for (const auto& s : scored) {
    for (RealTally* t : {&by_split[s.item->split], &by_split["all"]}) {
      t->Add(s.outcomes, s.item->labels);
      t->failed += !s.error.empty();
    }
    for (const auto& st : s.item->styles) by_style[st][s.item->split].Add(s.outcomes, s.item->labels);
    repos_of[s.item->split].insert(s.item->repo);
    ms.push_back(s.ms);
  }
  // Variants: pairs of commands in one repository whose labels differ.
  int pairs = 0, distinguished = 0;
  for (size_t i = 0; i < scored.size(); ++i)
    for (size_t j = i + 1; j < scored.size(); ++j) {
      if (scored[i].item->repo != scored[j].item->repo || scored[i].item->labels == scored[j].item->labels) continue;
      ++pairs;
      distinguished += scored[i].rendering != scored[j].rendering;
    }
  std::sort(ms.begin(), ms.end());
  double p50 = ms[ms.size() / 2], pmax = ms.back();
  if (a.json) {
    Json j = {{"manifest", a.manifest},
              {"commands", scored.size()},
              {"skipped_repos", missing_repos},
              {"variant_pairs", pairs},
              {"variant_pairs_distinguished", distinguished},
              {"latency_ms", {{"p50", p50}, {"max", pmax}}}};
    for (const auto& [split, t] : by_split) {
      j[split] = TallyJson(t);
      if (split != "all") j[split]["repos"] = repos_of[split].size();
    }
    Json styles = Json::object();
    for (const auto& [st, splits] : by_style)
      for (const auto& [split, t] : splits)
        styles[st][split] = {{"items", t.items}, {"field_accuracy_mean", t.MeanAccuracy()}};
    j["styles"] = styles;
    Json misses = Json::array();
    for (const auto& s : scored)
      for (const auto& [f, o] : s.outcomes)
        if (o != FieldOutcome::kCorrect)
          misses.push_back({{"id", s.item->id},
                            {"field", f},
                            {"label", s.item->labels.at(f)},
                            {"extracted", s.extracted[f]},
                            {"kind", o == FieldOutcome::kWrong ? "wrong" : "missing"}});
    j["misses"] = misses;
    out += StrFormat("%s\n", DumpJson(j, 2).c_str());
    return out;
  }
  out += StrFormat(
      "Scheduling Advisor on real repositories: %zu commands from %zu dev + %zu val repositories "
      "(embedded backend)\n",
      scored.size(), repos_of["dev"].size(), repos_of["val"].size());
  if (!missing_repos.empty()) out += StrFormat("skipped (no mirror): %zu repositories\n", missing_repos.size());
  out += StrFormat("\n");
  PrintTallies(by_split, out);
  out += StrFormat(
      "\n(acc: label matched, null = null included; wrong: a value that is not the label — confidently "
      "wrong; the rest are nulls where the label has a value)\n\n");
  out += StrFormat("%-22s %14s  %s\n", "style", "cmds dev/val", "mean field accuracy dev / val");
  for (const auto& [st, splits] : by_style) {
    auto cell = [&](const char* split, bool acc) -> std::string {
      auto it = splits.find(split);
      if (it == splits.end()) return "-";
      char buf[32];
      if (acc)
        std::snprintf(buf, sizeof buf, "%.1f%%", 100 * it->second.MeanAccuracy());
      else
        std::snprintf(buf, sizeof buf, "%d", it->second.items);
      return buf;
    };
    out += StrFormat("%-22s %6s/%-7s  %7s / %s\n", st.c_str(), cell("dev", false).c_str(), cell("val", false).c_str(),
                     cell("dev", true).c_str(), cell("val", true).c_str());
  }
  out += StrFormat("\ncommand variants      %d of %d pairs with different labels got different metadata\n",
                   distinguished, pairs);
  out += StrFormat("latency               p50 %.1f ms, max %.1f ms per command\n", p50, pmax);
  if (!a.only.empty())
    for (const auto& s : scored)
      out += StrFormat("\n%s metadata:\n%s\n", s.item->id.c_str(), DumpJson(s.metadata, 2).c_str());
  if (a.misses) {
    out += StrFormat("\nmisses:\n");
    for (const auto& s : scored) {
      if (!s.error.empty())
        out +=
            StrFormat("%s [%s]: extraction failed: %s\n", s.item->id.c_str(), s.item->split.c_str(), s.error.c_str());
      for (const auto& [f, o] : s.outcomes)
        if (o != FieldOutcome::kCorrect)
          out += StrFormat("%s [%s] %-20s %-7s label %-28s got %s\n", s.item->id.c_str(), s.item->split.c_str(),
                           f.c_str(), o == FieldOutcome::kWrong ? "WRONG" : "missing",
                           Show(s.item->labels.at(f)).c_str(), Show(s.extracted[f]).c_str());
    }
  }
  return out;
}

}  // namespace schedmate
