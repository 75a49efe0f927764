// How a run's values read, whatever file or flag they came from: numbers
// and counts, names of models and datasets (paths, class paths, hub ids,
// placeholders), precisions, GPU device lists, flags, environment ids.
// Pure functions of the text; the extractor (metadata_extractor.h) decides
// which value is the run's.
#ifndef SCHEDMATE_ADVISOR_RUN_VALUES_H_
#define SCHEDMATE_ADVISOR_RUN_VALUES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedmate {

// "3e-4", "1_000", "'8'" → a number; nullopt for anything else.
std::optional<double> ToNumber(std::string s);
// A non-negative integral number.
std::optional<int64_t> ToCount(const std::string& s);
// Digits only, at most five ("50" for `resnet_depth 50`).
bool ToCountText(const std::string& v);

// Values that fix nothing: none/null/???/auto, unresolved ${…} and $(…).
bool IsUnset(const std::string& v);
bool IsTrue(const std::string& v);
bool IsFalse(const std::string& v);

// A Gym/Gymnasium environment id: Name-v4, ALE/Pong-v5.
bool LooksLikeEnvId(const std::string& v);

// Class names that wrap a dataset or model rather than name one (lower case).
bool GenericName(const std::string& lower);
// A dataset or model value as a name, or nullopt with *why: config-file stems
// and paths reduced to the segment that names them, class paths to the class,
// `name:opts` to the name, lists to their first member; placeholders are no
// name unless they spell a known dataset.
std::optional<std::string> NameOf(std::string v, bool dataset, std::string* why);

// `vocos.dataset.VocosDataModule`, `TTS.tts.datasets.TTSDataset`: a data
// class named after the package it lives in (the project's own loader).
bool IsPackagesOwnDataClass(const std::string& dotted);

// The segments of a slash-separated path, without empty, ".", ".." and "~" ones.
std::vector<std::string> PathSegments(const std::string& path);

// The segment of a path that names known data, as a name: `/local/LJSpeech-1.1/wavs`
// → ljspeech. Not under output or checkpoint directories, and not a model's
// name (`laion/CLIP-ViT-bigG-14-laion2B`).
std::optional<std::string> KnownDataInPath(const std::string& path);
// -2 for framework wrapper classes (SRModel, VocosExp, *Encoder), else 0.
int NameStrength(const std::string& v);

// "bf16-mixed", "16", "amp", "no" → bf16 / fp16 / fp32 / fp8.
std::optional<std::string> PrecisionOf(const std::string& v);
// `0`, `cuda:0,1`, `[0, 1]`, `0,` → how many GPUs; `cpu` is none.
std::optional<int> DeviceCount(std::string v);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_RUN_VALUES_H_
