#include "tracker/tagger_training.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "tracker/progress_line.h"
#include "tracker/table_rows.h"

namespace schedmate {
namespace {

bool Near(double got, double want, double rel) {
  if (!std::isfinite(got) || !std::isfinite(want)) return false;
  return std::fabs(got - want) <= rel * std::max(std::fabs(want), 1e-12);
}

std::string TimePartOf(const std::string& unit) {
  std::string u;
  for (char c : unit) u += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  size_t slash = u.find('/');
  return slash == std::string::npos ? u : u.substr(0, slash);
}

bool IsRateUnit(const std::string& unit) {
  size_t slash = unit.find('/');
  return slash != std::string::npos && SecondsPerUnit(unit.substr(slash + 1)) > 0 && slash > 0 &&
         SecondsPerUnit(unit.substr(0, slash)) < 0;
}

bool IsCount(const ScannedField& f) { return f.integer && f.value >= 0 && f.value < 1e15; }

// The step the record prints (a counter's value or a step-ish integer field
// equal to the truth), for "steps since the previous record".
std::optional<double> StepDelta(const ScannedLine& line, const ScannedLine* previous, const std::vector<int>& roles) {
  if (!previous || previous->fields.size() != line.fields.size()) return std::nullopt;
  for (size_t i = 0; i < roles.size(); ++i)
    if (roles[i] == static_cast<int>(FieldRole::kStep)) {
      double d = line.fields[i].value - previous->fields[i].value;
      if (d > 0) return d;
    }
  return std::nullopt;
}

}  // namespace

std::vector<int> TruthRoles(const ScannedLine& line, const ScannedLine* previous, const ProgressTruth& t) {
  const size_t n = line.fields.size();
  std::vector<int> roles(n, static_cast<int>(FieldRole::kOther));
  bool paired = previous && previous->fields.size() == n;
  // Marks the fields that equal one truth; two or more are ambiguous unless
  // one of them is preferred by `prefer`.
  auto mark = [&](FieldRole role, auto matches, auto prefer) {
    std::vector<size_t> hits;
    for (size_t i = 0; i < n; ++i)
      if (roles[i] == static_cast<int>(FieldRole::kOther) && matches(i)) hits.push_back(i);
    if (hits.size() > 1) {
      std::vector<size_t> preferred;
      for (size_t i : hits)
        if (prefer(i)) preferred.push_back(i);
      if (preferred.size() == 1) {
        for (size_t i : hits) roles[i] = i == preferred[0] ? static_cast<int>(role) : -1;
        return;
      }
      for (size_t i : hits) roles[i] = -1;
      return;
    }
    if (hits.size() == 1) roles[hits[0]] = static_cast<int>(role);
  };
  auto hinted = [&](const char* word) {
    return [&, word](size_t i) {
      auto h = VocabularyHints(line.fields[i]);
      return std::find(h.begin(), h.end(), word) != h.end();
    };
  };
  if (t.step)
    mark(FieldRole::kStep,
         [&](size_t i) { return IsCount(line.fields[i]) && line.fields[i].value == static_cast<double>(*t.step); },
         [&](size_t i) { return line.fields[i].total.has_value() || hinted("step")(i); });
  if (t.total_steps)
    mark(FieldRole::kTotal,
         [&](size_t i) {
           return IsCount(line.fields[i]) && !line.fields[i].total &&
                  line.fields[i].value == static_cast<double>(*t.total_steps);
         },
         hinted("total"));
  if (t.loss) {
    if (std::isnan(*t.loss))
      mark(FieldRole::kLoss, [&](size_t i) { return std::isnan(line.fields[i].value); }, hinted("loss"));
    else
      mark(FieldRole::kLoss, [&](size_t i) { return Near(line.fields[i].value, *t.loss, 1e-4); }, hinted("loss"));
  }
  if (t.throughput)
    mark(FieldRole::kThroughput, [&](size_t i) { return Near(line.fields[i].value, *t.throughput, 1e-4); },
         hinted("throughput"));
  if (t.step_time_s && *t.step_time_s > 0) {
    double want = *t.step_time_s;
    auto scale = [&](size_t i) { return SecondsPerUnit(TimePartOf(line.fields[i].unit)); };
    mark(FieldRole::kStepTime,
         [&](size_t i) {
           const auto& f = line.fields[i];
           return !IsRateUnit(f.unit) && scale(i) > 0 && Near(f.value * scale(i), want, 0.02);
         },
         hinted("time"));
    mark(FieldRole::kStepRate,
         [&](size_t i) { return line.fields[i].value > 0 && Near(1.0 / line.fields[i].value, want, 0.02); },
         hinted("rate"));
    if (auto steps = StepDelta(line, previous, roles); steps && paired) {
      if (*steps > 1)
        mark(FieldRole::kIntervalTime,
             [&](size_t i) { return scale(i) > 0 && Near(line.fields[i].value * scale(i) / *steps, want, 0.03); },
             hinted("time"));
      mark(FieldRole::kCumulativeTime,
           [&](size_t i) {
             double d = line.fields[i].value - previous->fields[i].value;
             return scale(i) > 0 && d > 0 && Near(d * scale(i) / *steps, want, 0.03);
           },
           hinted("time"));
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (roles[i] == static_cast<int>(FieldRole::kOther) && IsCount(line.fields[i]) && hinted("epoch")(i))
      roles[i] = static_cast<int>(FieldRole::kEpoch);
  return roles;
}

std::vector<FieldTagger::Example> LabelledFields(const TrackerCase& c, LabelStats* stats, double earlier_weight,
                                                 int earlier_records) {
  ++stats->logs;
  std::vector<ScannedLine> records;
  for (const auto& line : JoinTableRows(SplitLogText(c.log)))
    for (auto r : SplitGluedRecords(line)) {
      ScannedLine s = ScanLine(r);
      if (!s.fields.empty()) records.push_back(std::move(s));
    }
  // The truth record: the newest that prints the step (or, without one, the
  // loss or the time) — the one whose fields match the most truths.
  auto previous_of = [&](size_t at) -> const ScannedLine* {
    std::string key = LayoutSignature(records[at]);
    for (size_t j = at; j-- > 0;)
      if (LayoutSignature(records[j]) == key && records[j].fields.size() == records[at].fields.size()) return &records[j];
    return nullptr;
  };
  int truth_at = -1;
  for (size_t i = records.size(); i-- > 0 && truth_at < 0;) {
    std::vector<int> roles = TruthRoles(records[i], previous_of(i), c.truth);
    int matched = 0;
    bool step = false;
    for (int r : roles) {
      if (r == static_cast<int>(FieldRole::kStep)) step = true;
      if (r > static_cast<int>(FieldRole::kEpoch)) ++matched;
    }
    if (c.truth.step ? step && (matched >= 1 || !c.truth.loss) : matched >= 2) truth_at = static_cast<int>(i);
  }
  std::vector<FieldTagger::Example> out;
  if (truth_at < 0) return out;
  ++stats->logs_used;
  std::vector<int> roles = TruthRoles(records[truth_at], previous_of(truth_at), c.truth);
  auto emit = [&](size_t at, double weight) {
    const ScannedLine* prev = previous_of(at);
    for (size_t i = 0; i < roles.size(); ++i) {
      if (roles[i] < 0) {
        ++stats->ambiguous;
        continue;
      }
      out.push_back({FieldFeatures(records[at], i, prev), static_cast<FieldRole>(roles[i]), weight});
      ++stats->fields;
      ++stats->by_role[roles[i]];
    }
  };
  emit(truth_at, 1.0);
  std::string key = LayoutSignature(records[truth_at]);
  int more = 0;
  for (size_t j = truth_at; j-- > 0 && more < earlier_records;)
    if (LayoutSignature(records[j]) == key && records[j].fields.size() == roles.size()) {
      emit(j, earlier_weight);
      ++more;
    }
  return out;
}

}  // namespace schedmate
