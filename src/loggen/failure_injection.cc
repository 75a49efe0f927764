#include "loggen/failure_injection.h"

#include <sstream>

#include "core/str_format.h"

namespace schedmate {

std::string_view DefaultFailureInjections();  // generated from data/failure_injections.txt

namespace {

bool ValidCategory(std::string_view c) { return c == "infrastructure" || c == "framework" || c == "user_script"; }
bool ValidComponent(std::string_view c) {
  return c == "gpu" || c == "nvlink" || c == "network" || c == "node" || c == "storage";
}

Status FinishTemplate(FailureTemplate* t, bool has_root, int header_line) {
  if (!has_root) return InvalidArgument(StrFormat("line %d: block '%s' has no root line (\"> …\")", header_line, t->id.c_str()));
  while (t->lines.size() > static_cast<size_t>(t->root_index) + 1 && t->lines.back().empty()) t->lines.pop_back();
  return Status::Ok();
}

void ReplaceAll(std::string& s, std::string_view from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

}  // namespace

Result<FailureInjections> FailureInjections::Parse(std::string_view text) {
  FailureInjections lib;
  std::istringstream in{std::string(text)};
  std::string line;
  int n = 0, header_line = 0;
  bool has_root = false;
  FailureTemplate* cur = nullptr;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("===", 0) == 0) {
      if (cur) RETURN_IF_ERROR(FinishTemplate(cur, has_root, header_line));
      std::istringstream h(line.substr(3));
      FailureTemplate t;
      if (!(h >> t.id >> t.category >> t.component))
        return InvalidArgument(StrFormat("line %d: expected \"=== <id> <category> <component>\"", n));
      if (!ValidCategory(t.category))
        return InvalidArgument(StrFormat("line %d: category '%s' is not infrastructure|framework|user_script", n, t.category.c_str()));
      if (t.component == "-") t.component.clear();
      if ((t.category == "infrastructure") != ValidComponent(t.component))
        return InvalidArgument(StrFormat("line %d: component '%s' does not fit category %s", n, t.component.c_str(), t.category.c_str()));
      lib.templates_.push_back(std::move(t));
      cur = &lib.templates_.back();
      has_root = false;
      header_line = n;
      continue;
    }
    if (!cur) {
      if (!line.empty() && line[0] != '#') return InvalidArgument(StrFormat("line %d: text before the first \"===\" block", n));
      continue;
    }
    if (cur->lines.empty() && line.empty()) continue;
    if (line.rfind("> ", 0) == 0) {
      if (has_root) return InvalidArgument(StrFormat("line %d: block '%s' has two root lines", n, cur->id.c_str()));
      has_root = true;
      cur->root_index = static_cast<int>(cur->lines.size());
      line.erase(0, 2);
    }
    cur->lines.push_back(line);
  }
  if (cur) RETURN_IF_ERROR(FinishTemplate(cur, has_root, header_line));
  if (lib.templates_.empty()) return InvalidArgument("no \"===\" blocks");
  return lib;
}

const FailureInjections& FailureInjections::Default() {
  static const FailureInjections kLib = [] {
    auto r = Parse(DefaultFailureInjections());
    return r.ok() ? std::move(r).value() : FailureInjections();
  }();
  return kLib;
}

const FailureTemplate* FailureInjections::Pick(std::string_view category, std::string_view component, Rng& rng) const {
  std::vector<const FailureTemplate*> fit;
  for (const auto& t : templates_)
    if (t.category == category && (category != "infrastructure" || t.component == component)) fit.push_back(&t);
  return fit.empty() ? nullptr : fit[rng.Below(fit.size())];
}

InjectedError RenderInjection(const FailureTemplate& t, const InjectionContext& c, Rng& rng) {
  InjectedError e{t.id, t.category, t.component, t.lines, t.root_index};
  const std::string pid = std::to_string(1000 + rng.Below(60000));
  const std::string gpu = std::to_string(rng.Below(10));
  const std::string ip = StrFormat("10.%d.%d.%d", static_cast<int>(rng.Below(255)), static_cast<int>(rng.Below(255)),
                                   static_cast<int>(1 + rng.Below(250)));
  const std::string port = std::to_string(20000 + rng.Below(40000));
  for (std::string& l : e.lines) {
    ReplaceAll(l, "{rank}", std::to_string(c.rank));
    ReplaceAll(l, "{node}", c.node);
    ReplaceAll(l, "{script}", c.script);
    ReplaceAll(l, "{step}", std::to_string(c.step));
    ReplaceAll(l, "{jobid}", c.job_id);
    ReplaceAll(l, "{pid}", pid);
    ReplaceAll(l, "{gpu}", gpu);
    ReplaceAll(l, "{ip}", ip);
    ReplaceAll(l, "{port}", port);
  }
  return e;
}

}  // namespace schedmate
