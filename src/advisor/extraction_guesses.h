// What the run's values do not state outright (part of
// advisor/metadata_extractor.h): the framework that runs the loop, from what
// the entry calls and imports; a dataset from known data in paths, config
// file names and recipe directories; a model from the script's own name.
#ifndef SCHEDMATE_ADVISOR_EXTRACTION_GUESSES_H_
#define SCHEDMATE_ADVISOR_EXTRACTION_GUESSES_H_

#include <optional>
#include <string>
#include <utility>

#include "advisor/extraction_state.h"

namespace schedmate::extraction {

// The framework of the training loop ("" when nothing says).
std::string Framework(const State& st, const std::string& entry, const std::string& launcher);

// When nothing names the dataset: known data in a path the run reads
// (`--input_wavs_dir LJSpeech-1.1/wavs`), else the stem of a config file the
// run reads (`ade20k-resnet50-upernet.yaml`), else the directory the command
// runs in (`examples/aishell/asr1`). Only words that are known data exactly.
std::optional<std::pair<std::string, Candidate>> DataHint(State& st);

// A script named after the model family it trains: train_gpt3_175b_distributed.sh
// → gpt3_175b, mujoco_sac.py → sac, dqn_train_eval_atari.py → dqn.
std::optional<std::string> ModelInScriptName(const std::string& path);

}  // namespace schedmate::extraction

#endif  // SCHEDMATE_ADVISOR_EXTRACTION_GUESSES_H_
