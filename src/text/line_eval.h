// `schedmate eval lines`: the stage-1 line classifier's confusion matrix
// over `category<TAB>line` rows, its accuracy, how many progress and other
// lines the stage-1 filter keeps at `margin`, and the latency per line.
#ifndef SCHEDMATE_TEXT_LINE_EVAL_H_
#define SCHEDMATE_TEXT_LINE_EVAL_H_

#include <string>

#include "core/status.h"

namespace schedmate {

// The report as the command prints it; a bad row is an error naming the file and line.
Result<std::string> RunLineEval(const std::string& dataset, float margin);

}  // namespace schedmate

#endif  // SCHEDMATE_TEXT_LINE_EVAL_H_
