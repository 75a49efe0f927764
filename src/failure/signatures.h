// The Failure Handler's knowledge base (DESIGN §1.3): failure signatures of
// CUDA/ECC/Xid, NVLink/NVSwitch, NCCL and IB/RoCE/sockets, node loss, I/O,
// environments and user code, kept as a data file we wrote
// (data/failure_signatures.tsv, compiled in; format in its header).
#ifndef SCHEDMATE_FAILURE_SIGNATURES_H_
#define SCHEDMATE_FAILURE_SIGNATURES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "core/status.h"

namespace schedmate {

enum class SignatureKind { kRoot, kWrapper, kCascade };

struct Signature {
  std::string id;
  SignatureKind kind = SignatureKind::kRoot;
  FailureDiagnosis::ErrorType category = FailureDiagnosis::ErrorType::kUnknown;
  std::string component;  // empty unless infrastructure
  int weight = 0;
  // Alternatives; each is a list of lower-case terms that must all appear.
  std::vector<std::vector<std::string>> any_of;
  std::vector<std::vector<int>> any_of_ids;  // the same terms as matcher ids
};

class SignatureBase {
 public:
  // Parses the TSV; errors name the source, line and column.
  static Result<SignatureBase> Parse(std::string_view tsv, std::string_view source);
  // The compiled-in data/failure_signatures.tsv.
  static const SignatureBase& Default();

  // The highest-weight signature matching `lower` (a lower-cased line), or
  // nullptr. Ties go to the earlier row. One pass over the line (an
  // Aho-Corasick automaton over every term), then the alternatives.
  const Signature* Match(std::string_view lower) const;
  const std::vector<Signature>& signatures() const { return signatures_; }

 private:
  void BuildAutomaton();

  std::vector<Signature> signatures_;  // sorted by weight, highest first
  std::vector<std::string> terms_;
  // Automaton: goto_[state * 256 + byte] → state; out_[state] → term ids
  // ending there (including through suffix links).
  std::vector<int32_t> goto_;
  std::vector<std::vector<int>> out_;
};

std::string_view DefaultFailureSignatures();
std::string ToLower(std::string_view s);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_SIGNATURES_H_
