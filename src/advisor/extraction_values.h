// Choosing each field's value among the candidates the stages recorded (part
// of advisor/metadata_extractor.h): interpolations resolved, placeholders and
// unset values set aside, precedence then key specificity then order.
#ifndef SCHEDMATE_ADVISOR_EXTRACTION_VALUES_H_
#define SCHEDMATE_ADVISOR_EXTRACTION_VALUES_H_

#include <string>

#include "advisor/extraction_state.h"

namespace schedmate::extraction {

// An OmegaConf/Hydra interpolation `${a.b}` resolved against the merged keys.
std::string Resolve(const State& st, std::string v, int depth = 0);

// The winning value of a field: a non-library value first, then the highest
// precedence (command > config > entry > imported code), then the most
// specific key, then the latest read. For names, *rejected (when given) says
// why the highest-precedence value that names nothing was set aside.
const Candidate* Best(State& st, const std::string& field, bool numeric, std::string* rejected = nullptr);

// When the rate chosen is one part's (model_lr, lr_encoder), another part's
// rate that differs (sac_lr, lr_decoder): "key value", else "".
std::string OtherPartsRate(const State& st, const Candidate& chosen);

// A bare family name and its size beside it: ResNet + depth 50 → ResNet50,
// vit + variant S/16 → vit-S/16.
std::string WithVariant(const State& st, const Candidate& c, const std::string& name);

// The value of the setting that switches mixed precision: its own key, else
// the one key whose last part matches (cfg.TRAIN.MIXED_PRECISION ← TRAIN.MIXED_PRECISION).
const Candidate* SwitchValue(const State& st, const std::string& key);

// The entry's settings bound under `if <flag>:` (State::flag_settings) whose
// flag is on, once the command and the configs are read: above a file's
// defaults, under the command's own values.
void ApplyFlagSettings(State& st);

}  // namespace schedmate::extraction

#endif  // SCHEDMATE_ADVISOR_EXTRACTION_VALUES_H_
