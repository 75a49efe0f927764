// `schedmate eval advisor --real`: options and entry (cmd_eval_advisor_real.cc).
#ifndef SCHEDMATE_CLI_EVAL_ADVISOR_REAL_H_
#define SCHEDMATE_CLI_EVAL_ADVISOR_REAL_H_

#include <string>

namespace schedmate {

struct EvalAdvisorRealArgs {
  std::string manifest;            // data/eval/advisor_real.jsonl
  std::string mirrors = "/work/.mirror";
  std::string only;                // one item id or repository
  bool json = false, misses = false, progress = false;
};

void EvalAdvisorReal(const EvalAdvisorRealArgs& a);

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_EVAL_ADVISOR_REAL_H_
