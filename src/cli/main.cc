// schedmate: a semantic information layer for GPU cluster schedulers.
// This binary is a composition root: it picks backends and wires modules.
#include <cstdio>
#include <string>

#include "cli/commands.h"

namespace schedmate {

void CommandFailed(const Status& status) {
  std::fprintf(stderr, "error: %s\n", status.message().c_str());
  bool input = status.code() == StatusCode::kInvalidArgument ||
               status.code() == StatusCode::kNotFound ||
               status.code() == StatusCode::kResourceExhausted;
  throw CLI::RuntimeError(input ? 2 : 1);
}

}  // namespace schedmate

int main(int argc, char** argv) {
  CLI::App app{
      "schedmate — makes GPU cluster schedulers understand the jobs they run.\n"
      "Trace replay and baseline policies; the semantic layer's Metric Tracker (track),\n"
      "Failure Handler (diagnose) and Scheduling Advisor (advise, history)."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "schedmate 0.1.0");
  schedmate::AddDemoCommand(app);
  schedmate::AddSimulateCommand(app);
  schedmate::AddTraceCommand(app);
  schedmate::AddSynthCommand(app);
  schedmate::AddPoliciesCommand(app);
  schedmate::AddTrackCommand(app);
  schedmate::AddDiagnoseCommand(app);
  schedmate::AddAuditCommand(app);
  schedmate::AddAdviseCommand(app);
  schedmate::AddWorldCommand(app);
  schedmate::AddLucidCommand(app);
  schedmate::AddSiaCommand(app);
  schedmate::AddStandaloneCommand(app);
  schedmate::AddBackfillCommand(app);
  schedmate::AddEvalCommand(app);
  schedmate::AddGenLogsCommand(app);
  schedmate::AddTrainCommand(app);
  schedmate::AddAgentCommand(app);
  schedmate::AddServeCommand(app);
  schedmate::AddExperimentsCommand(app);
  // "schedmate no-such-command --help" is a typo, not a request for help.
  if (argc > 1 && argv[1][0] != '-') {
    std::string name = argv[1];
    auto known = app.get_subcommands([&](const CLI::App* c) { return c->check_name(name); });
    if (known.empty()) {
      std::fprintf(stderr, "error: unknown command '%s' (schedmate --help lists the commands)\n", argv[1]);
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // CommandFailed: its code stands
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; any bad flag or value is bad input (2).
    return app.exit(e) == 0 ? 0 : 2;
  }
  return 0;
}
