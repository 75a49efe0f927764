// Shell text read the way the shell reads it, for finding a script's
// launch (shell_script.h): logical lines (continuations, quoted values over
// several lines, comments), statements, assignments, `[ ]` and `$(( ))`
// arithmetic, `$(dirname "$0")`, heredocs, the assignments leading a `sh -c`
// string. Split from shell_script.cc, which finds the run among the lines.
#ifndef SCHEDMATE_ADVISOR_SHELL_TEXT_H_
#define SCHEDMATE_ADVISOR_SHELL_TEXT_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedmate::shell {

bool IsNameChar(char c);

// Logical lines: continuations joined; each keeps its first physical line number.
std::vector<std::pair<std::string, int>> LogicalLines(std::string_view script);

std::string Trim(std::string s);

// `NAME=value` (optionally after export/local/declare): the name and the raw value.
std::optional<std::pair<std::string, std::string>> Assignment(const std::string& line);

// `A=1; B=2; cmd $A` → three statements (`;` outside quotes, `$( )` and `[[ ]]`);
// `case` arms (`;;`) and `for …; do` headers are left whole.
std::vector<std::pair<std::string, int>> SplitStatements(std::vector<std::pair<std::string, int>> lines);

// `[ 4 -le 4 ] && [ 6 -ge 4 ]; then` → true/false; nullopt unless every test
// is a numeric comparison of two integers.
std::optional<bool> NumericCondition(std::string cond);

// `4 * 8`, `2+1`: integer arithmetic of known values (no variables left), else nullopt.
std::optional<long long> Arithmetic(const std::string& expr);

// `$(dirname "$0")`, `$(dirname $0)`, `$(dirname ${BASH_SOURCE[0]})` → the script's directory.
std::string ReplaceDirname(std::string line, const std::string& script_path);

// The terminator of a heredoc started on this line (`<<EOF`, `<<-'EOF'`), or "".
std::string HeredocEnd(const std::string& line);

// `bash -c 'LR=0.05; python main.py --lr $LR'`: plain `NAME=value;`
// assignments leading the string apply after the outer script's ones. Sets
// them in `*vars` and returns the rest of the string.
std::string TakeLeadingAssignments(std::string inner, std::map<std::string, std::string>* vars);

}  // namespace schedmate::shell

#endif  // SCHEDMATE_ADVISOR_SHELL_TEXT_H_
