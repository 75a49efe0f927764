// A run's model type (docs/advisor-real-corpus.md vocabulary) from the
// evidence the extractor gathered — the model name's words, the classes and
// functions the code calls or defines, the packages it imports, the dataset
// and the entry point's path — weighed through a lexicon compiled in from
// data/model_type_lexicon.tsv. Empty when nothing in the lexicon speaks.
#ifndef SCHEDMATE_ADVISOR_MODEL_TYPE_H_
#define SCHEDMATE_ADVISOR_MODEL_TYPE_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

struct ModelTypeEvidence {
  std::string model_name;
  std::vector<std::string> other_names;  // further model names the run's configs and command give (full weight)
  std::string dataset;
  std::vector<std::string> callees;  // called names near the entry point (entry file and its direct imports)
  std::vector<std::string> far_callees;  // called names elsewhere (count half)
  std::set<std::string> imports;     // top-level packages
  std::vector<std::string> paths;    // entry point and config files
};

struct ModelTypeGuess {
  std::string type;  // "" when unknown
  double score = 0;
  std::vector<std::string> why;  // "name:llama", "call:get_peft_model", …
};

ModelTypeGuess GuessModelType(const ModelTypeEvidence& e);

std::string_view DefaultModelTypeLexicon();

// The word of `text` that begins with the longest lexicon word of `kind`
// ("name", "data"): "/path/to/imagenet-folder" → "imagenet",
// "ImageNet22k:root=<PATH>" → "imagenet22k"; "" when none does.
std::string LexiconWordIn(std::string_view kind, std::string_view text);

// The first word of `text` that is a lexicon word of `kind` exactly, or one
// followed by digits and an optional k/m ("voc2012", "ade20k", "cifar10"),
// so "vocab" or "adequate" never count: "/local/LJSpeech-1.1/wavs" →
// "ljspeech"; "" when none.
std::string LexiconWordExact(std::string_view kind, std::string_view text);

// The longest lexicon word of `kind` that `text` (folded to lower case)
// begins with: "LibriSpeechAsr" → "librispeech"; "" when none.
std::string LexiconPrefix(std::string_view kind, std::string_view text);  // data/model_type_lexicon.tsv

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_MODEL_TYPE_H_
