// Subcommands of the `schedmate` binary. Each Add*Command registers one
// subcommand; its callback returns through CommandFailed on error.
#ifndef SCHEDMATE_CLI_COMMANDS_H_
#define SCHEDMATE_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

#include "core/status.h"

namespace schedmate {

void AddSimulateCommand(CLI::App& app);
void AddDemoCommand(CLI::App& app);
void AddTraceCommand(CLI::App& app);
void AddSynthCommand(CLI::App& app);
void AddPoliciesCommand(CLI::App& app);
void AddEvalCommand(CLI::App& app);
void AddTrackCommand(CLI::App& app);
void AddGenLogsCommand(CLI::App& app);
void AddDiagnoseCommand(CLI::App& app);
void AddAuditCommand(CLI::App& app);
void AddAdviseCommand(CLI::App& app);
void AddWorldCommand(CLI::App& app);
void AddLucidCommand(CLI::App& app);
void AddSiaCommand(CLI::App& app);
void AddStandaloneCommand(CLI::App& app);
void AddBackfillCommand(CLI::App& app);
void AddTrainCommand(CLI::App& app);
void AddAgentCommand(CLI::App& app);
void AddServeCommand(CLI::App& app);
void AddExperimentsCommand(CLI::App& app);
// Registers `eval failures` under the eval command.
void AddEvalFailuresCommand(CLI::App* eval);
void AddEvalAdvisorCommand(CLI::App* eval);
// `world check` and `world calibrate` under the world command.
void AddWorldCheckCommand(CLI::App* world);
void AddWorldCalibrateCommand(CLI::App* world);

// Prints "error: ..." and ends the command with exit code 2 for bad input,
// 1 for anything else.
[[noreturn]] void CommandFailed(const Status& status);

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_COMMANDS_H_
