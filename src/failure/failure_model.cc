#include "failure/failure_model.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/file_io.h"
#include "core/text_lines.h"
#include "failure/line_printer.h"

namespace schedmate {

std::string_view DefaultFailureLineModel();   // data/failure_line_model.tsv, embedded
std::string_view DefaultFailureClassModel();  // data/failure_class_model.tsv, embedded
std::string_view DefaultSignatureTrust();     // data/failure_signature_trust.tsv, embedded
std::string_view DefaultFailureConcepts();    // data/failure_concepts.tsv, embedded

namespace {

// Lower-case words of 3–24 letters (digits and punctuation split them).
std::vector<std::string> WordsOf(std::string_view s, size_t cap) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 3 && cur.size() <= 24 && out.size() < cap) out.push_back(cur);
    cur.clear();
  };
  for (char c : s.substr(0, 2048)) {
    if (std::isalpha(static_cast<unsigned char>(c)))
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

// data/failure_concepts.tsv: (concept, lower-case phrase) rows, in file order.
const std::vector<std::pair<std::string, std::string>>& Concepts() {
  static const auto* rows = [] {
    auto* out = new std::vector<std::pair<std::string, std::string>>;
    ForEachDataLine(DefaultFailureConcepts(), [&](std::string_view line) {
      size_t tab = line.find('\t');
      if (tab == std::string_view::npos || tab == 0 || tab + 1 == line.size()) return;
      out->emplace_back(std::string(line.substr(0, tab)), ToLower(line.substr(tab + 1)));
    });
    return out;
  }();
  return *rows;
}

std::string_view KindName(SignatureKind k) {
  switch (k) {
    case SignatureKind::kRoot: return "root";
    case SignatureKind::kWrapper: return "wrapper";
    default: return "cascade";
  }
}

std::string ClassOf(const FailureDiagnosis::ErrorType& t, const std::optional<std::string>& component) {
  using E = FailureDiagnosis::ErrorType;
  if (t == E::kInfrastructure) return "infrastructure/" + component.value_or("node");
  if (t == E::kFramework) return "framework";
  return "user";
}

// Lines either side of the root whose concepts the class model reads apart
// from the rest of the window ("what follows the error").
constexpr size_t kNeighbourhood = 20;

// The lines the class model reads around the root line (see
// kClassContextBefore): [from, to).
std::pair<size_t, size_t> ClassContext(size_t lines, size_t root) {
  size_t from = root >= static_cast<size_t>(kClassContextBefore) ? root - kClassContextBefore : 0;
  return {from, std::min(lines, root + kClassContextAfter + 1)};
}

// What the class model reads around the root line besides its words: who
// printed it (alone and with each concept it mentions), its word pairs, the
// concepts just before and just after it, and who printed the failure
// lines of its class context. Pairs go to `f`; window-wide features to `seen`.
void RootContextFeatures(const LineWindow& window, size_t root, const WindowFacts& facts,
                         std::vector<std::string>* f, std::set<std::string>* seen) {
  const std::string who(LinePrinter(window[root].second));
  f->push_back("r:who=" + who);
  for (const auto& k : facts.concepts[root]) f->push_back("r:whok=" + who + "/" + k);
  auto words = WordsOf(WithoutLogPrefixes(window[root].second), 40);
  for (size_t j = 0; j + 1 < words.size(); ++j) f->push_back("r:bi=" + words[j] + "_" + words[j + 1]);
  for (size_t i = root + 1; i < window.size() && i <= root + kNeighbourhood; ++i)
    for (const auto& k : facts.concepts[i]) seen->insert("ak=" + k);
  for (size_t i = root >= kNeighbourhood ? root - kNeighbourhood : 0; i < root; ++i)
    for (const auto& k : facts.concepts[i]) seen->insert("bk=" + k);
  const auto [from, to] = ClassContext(window.size(), root);
  for (size_t i = from; i < to; ++i)
    if (facts.failure_like[i]) seen->insert("cwho=" + std::string(LinePrinter(window[i].second)));
}

}  // namespace

const std::vector<std::string>& FailureClassNames() {
  static const std::vector<std::string> k = {"infrastructure/gpu",     "infrastructure/nvlink", "infrastructure/network",
                                             "infrastructure/node",    "infrastructure/storage", "framework",
                                             "user"};
  return k;
}

const std::vector<std::string>& RootLineClassNames() {
  static const std::vector<std::string> k = {"other", "root"};
  return k;
}

const FailureModel& FailureModel::Default() {
  static const FailureModel* m = [] {
    auto* out = new FailureModel;
    auto line = LinearModel::Parse(DefaultFailureLineModel(), RootLineClassNames(), "failure line model");
    auto klass = LinearModel::Parse(DefaultFailureClassModel(), FailureClassNames(), "failure class model");
    auto trust = ParseSignatureTrust(DefaultSignatureTrust(), "failure signature trust");
    if (line.ok() && klass.ok() && trust.ok()) {
      out->line = std::move(*line);
      out->klass = std::move(*klass);
      out->signatures = std::move(*trust);
    }
    return out;
  }();
  return *m;
}

Result<FailureModel> LoadFailureModel(const std::string& dir) {
  auto read = [](const std::string& path) { return ReadFileCapped(path, 64u << 20); };
  FailureModel m;
  ASSIGN_OR_RETURN(std::string line, read(dir + "/failure_line_model.tsv"));
  ASSIGN_OR_RETURN(std::string klass, read(dir + "/failure_class_model.tsv"));
  ASSIGN_OR_RETURN(m.line, LinearModel::Parse(line, RootLineClassNames(), dir + "/failure_line_model.tsv"));
  ASSIGN_OR_RETURN(m.klass, LinearModel::Parse(klass, FailureClassNames(), dir + "/failure_class_model.tsv"));
  if (auto trust = read(dir + "/failure_signature_trust.tsv"); trust.ok()) {
    ASSIGN_OR_RETURN(m.signatures, ParseSignatureTrust(*trust, dir + "/failure_signature_trust.tsv"));
  }
  return m;
}

bool FailureModel::Trusts(const std::string& signature_id) const {
  auto it = signatures.find(signature_id);
  if (it == signatures.end()) return true;
  return it->second.decided < 2 || (it->second.right + 1.0) / (it->second.decided + 2.0) >= min_trust;
}

Result<SignatureTrust> ParseSignatureTrust(std::string_view tsv, std::string_view source) {
  SignatureTrust out;
  size_t pos = 0;
  for (int line_no = 1; pos < tsv.size(); ++line_no) {
    size_t nl = tsv.find('\n', pos);
    std::string_view line = tsv.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? tsv.size() : nl + 1;
    if (line.empty() || line[0] == '#') continue;
    std::string where = std::string(source) + ":" + std::to_string(line_no);
    size_t t1 = line.find('\t'), t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string_view::npos || t1 == 0)
      return InvalidArgument(where + ": expected signature<TAB>decided<TAB>right");
    SignatureRecord r;
    std::string decided(line.substr(t1 + 1, t2 - t1 - 1)), right(line.substr(t2 + 1));
    char* end = nullptr;
    long d = std::strtol(decided.c_str(), &end, 10);
    if (decided.empty() || *end || d < 0 || d > 1000000000) return InvalidArgument(where + ": field 'decided': not a count");
    long g = std::strtol(right.c_str(), &end, 10);
    if (right.empty() || *end || g < 0 || g > d) return InvalidArgument(where + ": field 'right': not a count up to 'decided'");
    r.decided = static_cast<int>(d);
    r.right = static_cast<int>(g);
    out[std::string(line.substr(0, t1))] = r;
  }
  return out;
}

std::string DumpSignatureTrust(const SignatureTrust& trust) {
  std::string out;
  for (const auto& [id, r] : trust) out += id + "\t" + std::to_string(r.decided) + "\t" + std::to_string(r.right) + "\n";
  return out;
}

std::vector<std::string> ConceptsOf(std::string_view lower_line) {
  std::vector<std::string> out;
  for (const auto& [concept_name, phrase] : Concepts())
    if (lower_line.find(phrase) != std::string_view::npos &&
        std::find(out.begin(), out.end(), concept_name) == out.end())
      out.push_back(concept_name);
  return out;
}

namespace {

// Lines before a failure line searched for the line it echoes.
constexpr size_t kEchoReach = 40;

// The words of a line's message: lower-cased runs of three or more letters
// between other characters; a run with digits in it (a hex id, "sm_80",
// "error=101"'s number) is not a word.
std::vector<std::string> MessageWords(std::string_view core) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < core.size() && out.size() < 60) {
    while (i < core.size() && !std::isalnum(static_cast<unsigned char>(core[i]))) ++i;
    size_t j = i;
    bool letters = true;
    for (; j < core.size() && std::isalnum(static_cast<unsigned char>(core[j])); ++j)
      if (!std::isalpha(static_cast<unsigned char>(core[j]))) letters = false;
    if (letters && j - i >= 3) out.push_back(ToLower(core.substr(i, j - i)));
    i = j;
  }
  return out;
}

// Whether two lines say one thing: three consecutive words in common once
// the words both begin with (a logger's or a process's prefix, "The server
// socket has failed to …") are set aside.
bool SayTheSame(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t p = 0;
  while (p < a.size() && p < b.size() && a[p] == b[p]) ++p;
  std::set<std::string> triples;
  for (size_t k = p; k + 2 < a.size(); ++k) triples.insert(a[k] + " " + a[k + 1] + " " + a[k + 2]);
  for (size_t k = p; k + 2 < b.size(); ++k)
    if (triples.count(b[k] + " " + b[k + 1] + " " + b[k + 2])) return true;
  return false;
}

}  // namespace

void WindowFacts::FindEchoes(const LineWindow& window) {
  echo_of.assign(window.size(), -1);
  std::vector<std::vector<std::string>> words(window.size());
  for (size_t i = 0; i < window.size(); ++i) {
    std::string_view core = WithoutLogPrefixes(window[i].second);
    if (failure_like[i] && !IsTracebackCodeLine(window, i) && core.rfind("File \"", 0) != 0)
      words[i] = MessageWords(core);
  }
  for (size_t i = 0; i < window.size(); ++i) {
    if (words[i].size() < 3) continue;
    for (size_t j = i >= kEchoReach ? i - kEchoReach : 0; j < i; ++j)
      if (SayTheSame(words[j], words[i])) {
        echo_of[i] = static_cast<int>(j);
        break;
      }
  }
}

WindowFacts::WindowFacts(const LineWindow& window, const SignatureBase& base) {
  failure_like.reserve(window.size());
  traceback_head.reserve(window.size());
  concepts.reserve(window.size());
  for (const auto& [n, text] : window) {
    failure_like.push_back(IsFailureLine(text, base));
    traceback_head.push_back(WithoutLogPrefixes(text).rfind("Traceback", 0) == 0);
    concepts.push_back(ConceptsOf(ToLower(std::string_view(text).substr(0, 4096))));
  }
  FindEchoes(window);
}

std::vector<std::string> LineFeatures(const LineWindow& window, size_t i, const SignatureBase& base,
                                      const WindowFacts& facts) {
  const std::string& text = window[i].second;
  std::vector<std::string> f = {"bias"};
  std::string lower = ToLower(std::string_view(text).substr(0, 4096));
  if (const Signature* sig = base.Match(lower)) {
    f.push_back("sig=" + sig->id);
    f.push_back("sigkind=" + std::string(KindName(sig->kind)));
    if (WeakInfrastructureMatch(lower, *sig)) f.push_back("sig-weak");
  }
  std::string_view core = WithoutLogPrefixes(text);
  std::string type = ExceptionType(text);
  if (!type.empty()) {
    f.push_back("exc");
    f.push_back("exc=" + type);
    // "RuntimeError:" with nothing after it: the message is on the next lines.
    size_t colon = core.find(':');
    if (colon != std::string_view::npos && core.find_first_not_of(" \t\r", colon + 1) == std::string_view::npos)
      f.push_back("exc-bare");
  }
  if (IsTracebackCodeLine(window, i)) f.push_back("tb-code");
  if (core.rfind("File \"", 0) == 0) f.push_back("tb-frame");
  if (core.rfind("Traceback", 0) == 0) f.push_back("tb-head");
  for (const auto& w : WordsOf(core, 40)) f.push_back("w=" + w);
  bool failure = facts.failure_like[i];
  if (failure) f.push_back("failure-like");
  bool earlier_failure = false, traceback_before = false;
  for (size_t j = 0; j < i; ++j) {
    earlier_failure = earlier_failure || facts.failure_like[j];
    if (i - j <= 40 && facts.traceback_head[j]) traceback_before = true;
  }
  if (failure && !earlier_failure) f.push_back("first-failure");
  if (traceback_before) f.push_back("after-traceback");
  if (i + 1 < window.size() && facts.traceback_head[i + 1]) f.push_back("before-traceback");
  if (i + 1 == window.size()) f.push_back("last-line");
  double where = window.size() > 1 ? double(i) / double(window.size() - 1) : 0;
  f.push_back(where < 0.25 ? "pos=head" : where > 0.75 ? "pos=tail" : "pos=mid");
  for (const auto& k : facts.concepts[i]) f.push_back("k=" + k);
  if (lower.find("warn") != std::string::npos) f.push_back("warn");
  if (lower.find("error") != std::string::npos) f.push_back("error-word");
  if (core.size() < 20) f.push_back("short");
  return f;
}

std::vector<std::string> ClassFeatures(const LineWindow& window, size_t root, const SignatureBase& base,
                                       const WindowFacts& facts) {
  std::vector<std::string> f = {"bias"};
  for (const auto& x : LineFeatures(window, root, base, facts)) f.push_back("r:" + x);
  std::set<std::string> seen;
  RootContextFeatures(window, root, facts, &f, &seen);
  const auto [from, to] = ClassContext(window.size(), root);
  for (size_t i = from; i < to; ++i) {
    const std::string& text = window[i].second;
    std::string lower = ToLower(std::string_view(text).substr(0, 4096));
    if (const Signature* sig = base.Match(lower)) seen.insert("csig=" + sig->id);
    for (const auto& k : facts.concepts[i]) seen.insert("ck=" + k);
    std::string type = ExceptionType(text);
    if (!type.empty()) seen.insert("cexc=" + type);
    for (const auto& w : WordsOf(text, 40))
      if (seen.size() < 400) seen.insert("c=" + w);
  }
  f.insert(f.end(), seen.begin(), seen.end());
  return f;
}

std::vector<double> WeighInfrastructureClasses(std::vector<double> c) {
  double sum = 0;
  for (size_t k = 0; k < c.size(); ++k) {
    if (FailureClassNames()[k].rfind("infrastructure/", 0) == 0) c[k] *= kInfrastructureClassWeight;
    sum += c[k];
  }
  if (sum > 0)
    for (double& x : c) x /= sum;
  return c;
}

size_t RootLineOfProbabilities(const std::vector<double>& p) {
  double top = 0;
  for (double x : p) top = std::max(top, x);
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] >= top * (1 - kRootLineTie)) return i;
  return 0;
}

RootCauseDetail DiagnoseWindowLearned(const LineWindow& window, const FailureModel& model, const SignatureBase& base) {
  RootCauseDetail sig = DiagnoseWindow(window, base);
  if (model.empty() || window.empty() || (sig.signature_id != "generic-exception" && !sig.signature_id.empty() &&
                                          sig.weight >= model.sure_weight && model.Trusts(sig.signature_id)))
    return sig;
  WindowFacts facts(window, base);
  std::vector<double> p(window.size(), 0);
  for (size_t i = 0; i < window.size(); ++i)
    p[i] = model.line.Probabilities(LineFeatures(window, i, base, facts))[1];
  size_t root = RootLineOfProbabilities(p);
  // An exception no signature explains, or a signature not trusted to say
  // what failed, keeps its line (the earliest such); the models only say what
  // kind of failure it is.
  if (!sig.signature_id.empty() && sig.diagnosis.root_cause_line_index)
    for (size_t i = 0; i < window.size(); ++i)
      if (window[i].first == *sig.diagnosis.root_cause_line_index) root = i;
  // The class model reads that line; but an exception no signature explains
  // that repeats an earlier failure line's message (a RuntimeError quoting
  // the C++ check that failed) is reported at the line it echoes, the first
  // to say it.
  const size_t class_root = root;
  if (sig.signature_id.empty() || sig.signature_id == "generic-exception")
    while (facts.echo_of[root] >= 0) root = static_cast<size_t>(facts.echo_of[root]);
  std::vector<double> c =
      WeighInfrastructureClasses(model.klass.Probabilities(ClassFeatures(window, class_root, base, facts)));
  int best = static_cast<int>(std::max_element(c.begin(), c.end()) - c.begin());
  RootCauseDetail out;
  FailureDiagnosis& d = out.diagnosis;
  out.signature_id = "learned";
  d.root_cause_line = window[root].second;
  d.root_cause_line_index = window[root].first;
  d.evidence.push_back(window[root].second);
  // A reading learned from words is never sure enough to drain a node on its
  // own (recovery acts at 0.8), and a cascade asks its LLM about it (< 0.75).
  d.confidence = std::min(c[best], kLearnedConfidenceCap);
  if (c[best] < model.min_confidence) {
    d.error_type = FailureDiagnosis::ErrorType::kUnknown;
    return out;
  }
  const std::string& name = FailureClassNames()[best];
  using E = FailureDiagnosis::ErrorType;
  if (name.rfind("infrastructure/", 0) == 0) {
    d.error_type = E::kInfrastructure;
    d.faulty_component = name.substr(std::string("infrastructure/").size());
  } else {
    d.error_type = name == "framework" ? E::kFramework : E::kUserScript;
  }
  return out;
}

namespace {

LineWindow WindowOfLog(const std::string& log) {
  LineWindow w;
  size_t pos = 0;
  int64_t n = 0;
  while (pos <= log.size()) {
    size_t nl = log.find('\n', pos);
    size_t e = nl == std::string::npos ? log.size() : nl;
    w.emplace_back(n++, log.substr(pos, e - pos));
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return w;
}

}  // namespace

std::optional<std::pair<std::string, bool>> SignatureOutcome(const FailureCase& c, const SignatureBase& base) {
  RootCauseDetail sig = DiagnoseWindow(WindowOfLog(c.log), base);
  if (sig.signature_id.empty() || sig.signature_id == "generic-exception") return std::nullopt;
  const FailureDiagnosis& d = sig.diagnosis;
  bool right = d.error_type == c.category &&
               (d.error_type != FailureDiagnosis::ErrorType::kInfrastructure || d.faulty_component == c.component);
  return std::make_pair(sig.signature_id, right);
}

void FailureExamples(const FailureCase& c, const SignatureBase& base, std::vector<LinearModel::Example>* line,
                     std::vector<LinearModel::Example>* klass, double root_weight) {
  LineWindow w = WindowOfLog(c.log);
  if (c.root_cause_line_index < 0 || c.root_cause_line_index >= static_cast<int64_t>(w.size())) return;
  WindowFacts facts(w, base);
  for (size_t i = 0; i < w.size(); ++i) {
    bool root = static_cast<int64_t>(i) == c.root_cause_line_index;
    line->push_back({LineFeatures(w, i, base, facts), root ? 1 : 0, root ? root_weight : 1.0});
  }
  std::string name = ClassOf(c.category, c.component);
  auto& names = FailureClassNames();
  int label = static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
  if (label < static_cast<int>(names.size()))
    klass->push_back({ClassFeatures(w, static_cast<size_t>(c.root_cause_line_index), base, facts), label, 1.0});
}

}  // namespace schedmate
