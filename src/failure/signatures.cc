#include "failure/signatures.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace schedmate {
namespace {

std::vector<std::string_view> Split(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) break;
    start = p + sep.size();
  }
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

Result<SignatureBase> SignatureBase::Parse(std::string_view tsv, std::string_view source) {
  SignatureBase base;
  int line_no = 0;
  for (std::string_view row : Split(tsv, "\n")) {
    ++line_no;
    if (Trim(row).empty() || row[0] == '#') continue;
    auto where = [&](const char* column) {
      return std::string(source) + ":" + std::to_string(line_no) + ": column '" + column + "'";
    };
    auto cols = Split(row, "\t");
    if (cols.size() != 6) return InvalidArgument(where("row") + ": expected 6 TAB-separated columns");
    Signature s;
    s.id = std::string(Trim(cols[0]));
    std::string_view kind = Trim(cols[1]);
    if (kind == "root") s.kind = SignatureKind::kRoot;
    else if (kind == "wrapper") s.kind = SignatureKind::kWrapper;
    else if (kind == "cascade") s.kind = SignatureKind::kCascade;
    else return InvalidArgument(where("kind") + ": '" + std::string(kind) + "' is not root, wrapper or cascade");
    std::string_view cat = Trim(cols[2]);
    using E = FailureDiagnosis::ErrorType;
    if (cat == "infrastructure") s.category = E::kInfrastructure;
    else if (cat == "framework") s.category = E::kFramework;
    else if (cat == "user_script") s.category = E::kUserScript;
    else if (cat == "-") s.category = E::kUnknown;
    else return InvalidArgument(where("category") + ": '" + std::string(cat) + "' is unknown");
    std::string_view comp = Trim(cols[3]);
    if (comp != "-") {
      if (comp != "gpu" && comp != "nvlink" && comp != "network" && comp != "node" && comp != "storage")
        return InvalidArgument(where("component") + ": '" + std::string(comp) + "' is unknown");
      s.component = std::string(comp);
    }
    std::string w(Trim(cols[4]));
    char* end = nullptr;
    long weight = std::strtol(w.c_str(), &end, 10);
    if (w.empty() || *end != '\0' || weight < 0 || weight > 10)
      return InvalidArgument(where("weight") + ": expected an integer 0-10");
    s.weight = static_cast<int>(weight);
    for (std::string_view alt : Split(cols[5], " | ")) {
      std::vector<std::string> terms;
      for (std::string_view t : Split(alt, " & "))
        if (!Trim(t).empty()) terms.push_back(ToLower(Trim(t)));
      if (terms.empty()) return InvalidArgument(where("pattern") + ": empty alternative");
      s.any_of.push_back(std::move(terms));
    }
    base.signatures_.push_back(std::move(s));
  }
  if (base.signatures_.empty()) return InvalidArgument(std::string(source) + ": no signatures");
  std::stable_sort(base.signatures_.begin(), base.signatures_.end(),
                   [](const Signature& a, const Signature& b) { return a.weight > b.weight; });
  base.BuildAutomaton();
  return base;
}

void SignatureBase::BuildAutomaton() {
  std::map<std::string, int> ids;
  for (Signature& s : signatures_) {
    s.any_of_ids.clear();
    for (const auto& terms : s.any_of) {
      std::vector<int> alt;
      for (const auto& t : terms) {
        auto [it, added] = ids.emplace(t, static_cast<int>(terms_.size()));
        if (added) terms_.push_back(t);
        alt.push_back(it->second);
      }
      s.any_of_ids.push_back(std::move(alt));
    }
  }
  // Trie.
  goto_.assign(256, -1);
  out_.assign(1, {});
  for (size_t id = 0; id < terms_.size(); ++id) {
    int state = 0;
    for (unsigned char c : terms_[id]) {
      int& next = goto_[static_cast<size_t>(state) * 256 + c];
      if (next < 0) {
        next = static_cast<int>(out_.size());
        out_.emplace_back();
        goto_.resize(goto_.size() + 256, -1);
      }
      state = goto_[static_cast<size_t>(state) * 256 + c];
    }
    out_[state].push_back(static_cast<int>(id));
  }
  // Suffix links by BFS; missing transitions become the fail state's.
  std::vector<int> fail(out_.size(), 0);
  std::vector<int> queue;
  for (int c = 0; c < 256; ++c) {
    int& next = goto_[c];
    if (next < 0) next = 0;
    else queue.push_back(next);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    int state = queue[head];
    for (int id : out_[fail[state]]) out_[state].push_back(id);
    for (int c = 0; c < 256; ++c) {
      int& next = goto_[static_cast<size_t>(state) * 256 + c];
      int via_fail = goto_[static_cast<size_t>(fail[state]) * 256 + c];
      if (next < 0) {
        next = via_fail;
      } else {
        fail[next] = via_fail;
        queue.push_back(next);
      }
    }
  }
}

const SignatureBase& SignatureBase::Default() {
  static const SignatureBase kDefault = [] {
    auto b = Parse(DefaultFailureSignatures(), "data/failure_signatures.tsv");
    if (!b.ok()) __builtin_trap();  // compiled in and tested: a build defect
    return std::move(b).value();
  }();
  return kDefault;
}

const Signature* SignatureBase::Match(std::string_view lower) const {
  thread_local std::vector<uint8_t> seen;
  seen.assign(terms_.size(), 0);
  bool any = false;
  int state = 0;
  for (unsigned char c : lower) {
    state = goto_[static_cast<size_t>(state) * 256 + c];
    for (int id : out_[state]) {
      seen[id] = 1;
      any = true;
    }
  }
  if (!any) return nullptr;
  for (const Signature& s : signatures_)
    for (const auto& alt : s.any_of_ids) {
      bool all = true;
      for (int id : alt) all = all && seen[id];
      if (all) return &s;
    }
  return nullptr;
}

}  // namespace schedmate
