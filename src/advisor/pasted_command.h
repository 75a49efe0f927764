// Commands as users paste them from READMEs and notebooks, made readable as
// shell before the launch is looked for (metadata_extractor.cc).
#ifndef SCHEDMATE_ADVISOR_PASTED_COMMAND_H_
#define SCHEDMATE_ADVISOR_PASTED_COMMAND_H_

#include <string>
#include <string_view>

namespace schedmate {

// A command as a user pastes it from a README: shell prompts ("$ ", "!" of a
// notebook cell) dropped at line starts, and every variable the command
// neither sets nor defaults (`--nproc_per_node $NUM_GPU`) written as the
// placeholder `<NUM_GPU>` — the user's to fill, never an empty word that
// would shift the next argument into its place.
std::string PastedCommand(std::string_view command);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_PASTED_COMMAND_H_
