#include "advisor/run_values.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

#include "advisor/field_keys.h"
#include "advisor/model_type.h"

namespace schedmate {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// A Gym/Gymnasium environment id: Name-v4, ALE/Pong-v5.
bool LooksLikeEnvId(const std::string& v) {
  size_t dash = v.rfind("-v");
  if (dash == std::string::npos || dash == 0 || dash + 2 >= v.size() || v.size() > 64) return false;
  for (size_t i = dash + 2; i < v.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(v[i]))) return false;
  return std::isalpha(static_cast<unsigned char>(v[0]));
}

bool ToCountText(const std::string& v) {
  return !v.empty() && v.size() < 6 && std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Values that fix nothing: unset markers, shell and OmegaConf references
// that could not be resolved, placeholders.
bool IsUnset(const std::string& v) {
  std::string l = Lower(v);
  return l.empty() || l == "none" || l == "null" || l == "~" || l == "???" || l == "missing" || l == "auto" ||
         l == "''" || l == "\"\"" || l.find("$(") != std::string::npos || l.rfind("${", 0) == 0 ||
         l.rfind("$", 0) == 0 || l.find("{{") != std::string::npos || l == "[]" || l == "{}";
}

std::optional<double> ToNumber(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  if (s.size() >= 2 && (s[0] == '"' || s[0] == '\'') && s.back() == s[0]) s = s.substr(1, s.size() - 2);
  if (s.empty() || s.size() > 40) return std::nullopt;
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(d)) return std::nullopt;
  return d;
}

std::optional<int64_t> ToCount(const std::string& s) {
  auto d = ToNumber(s);
  if (!d || *d < 0 || *d > 9e15 || std::floor(*d) != *d) return std::nullopt;
  return static_cast<int64_t>(*d);
}

// Class names that wrap a dataset or model rather than name one.
bool GenericName(const std::string& lower) {
  static const std::set<std::string> k = {
      "model", "models", "model_config", "config", "configs", "base", "default", "custom", "latest", "none",
      "datamodulefromconfig", "concatdataset", "wrappeddataset", "dataset", "datasets", "datamodule",
      "basedataset", "customdataset", "data", "true", "false", "yes", "no", "train", "test", "valid", "val",
      "validation", "dummy", "fake", "main", "net", "network", "module", "lightningmodule", "trainer", "ddp",
      "distributeddataparallel", "dataparallel", "fsdp", "fullyshardeddataparallel", "encoderdecoder", "sequential",
      "modulelist", "nn", "totensor", "compose", "transforms", "datasetdict", "video", "image", "images", "text",
      "audio", "rawframe", "rawframes", "paired", "pairedimage", "single", "concat", "repeat", "multi", "tfds",
      "wavs", "hf", "huggingface", "local", "custom_data"};
  return k.count(lower) > 0;
}

// A name made only of words that say what data is, not which: ConstantLength,
// DataTable, ReadLinesFromCSV, train_dir, DIRECTORY_OF_TRAIN_DATA, ENV.
bool GenericWords(const std::string& name) {
  static const std::set<std::string> k = {
      "data", "dataset", "datasets", "set", "table", "value", "values", "constant", "length", "read", "reader",
      "lines", "line", "from", "csv", "json", "jsonl", "basic", "image", "images", "dir", "directory",
      "train", "training", "example", "examples", "internal", "of", "the", "to", "text", "file", "files", "loader",
      "folder", "path", "root", "custom", "my", "your", "default", "concat", "shuffled", "source", "input",
      "output", "checkpoint", "ckpt", "env", "tmp", "cache", "local", "iterable", "map", "paired", "pair", "sample",
      "samples", "raw", "processed", "generic", "simple", "base", "in", "memory", "stream",
      "streaming", "batch", "batched", "collate", "collator", "wrapper", "list", "dict", "record", "records",
      "subset", "full"};
  std::vector<std::string> w = KeyWords(name);
  if (w.empty()) return false;
  for (const auto& x : w)
    if (!k.count(x)) return false;
  return true;
}

// A model name made only of words that say a model's role or the run's stage,
// not which architecture: asr_model, causal_lm, reward_model, based_model,
// gnn, llm, Linear, sample_train, config_det_finetune, stage1.
bool RoleWords(const std::string& name) {
  static const std::set<std::string> k = {
      "model", "models", "llm", "lm", "gnn", "asr", "causal", "reward", "based", "base", "pretrain", "pretraining",
      "finetune", "finetuning", "fine", "tune", "train", "training", "stage", "sample", "config", "configs",
      "operative", "det", "linear", "sft", "policy", "value", "critic", "actor", "experiment", "exp", "run", "my",
      "your", "custom", "example", "new", "main", "the"};
  std::vector<std::string> w = KeyWords(name);
  if (w.empty()) return false;
  for (auto x : w) {
    while (!x.empty() && std::isdigit(static_cast<unsigned char>(x.back()))) x.pop_back();
    if (!k.count(x)) return false;
  }
  return true;
}

std::vector<std::string> PathSegments(const std::string& path) {
  std::vector<std::string> segs;
  size_t s = 0;
  while (s <= path.size()) {
    size_t slash = path.find('/', s);
    std::string seg = path.substr(s, slash == std::string::npos ? std::string::npos : slash - s);
    if (!seg.empty() && seg != "." && seg != ".." && seg != "~") segs.push_back(seg);
    if (slash == std::string::npos) break;
    s = slash + 1;
  }
  return segs;
}

std::optional<std::string> KnownDataInPath(const std::string& path) {
  static const std::set<std::string> kOutputDirs = {"ckpt", "ckpts", "checkpoint", "checkpoints", "output",
                                                    "outputs", "logs", "log", "runs", "exp", "exps", "pretrained",
                                                    "weights", "models", "results", "save", "saved"};
  std::vector<std::string> segs = PathSegments(path);
  for (const auto& seg : segs)
    if (kOutputDirs.count(Lower(seg)) || !LexiconWordIn("name", seg).empty()) return std::nullopt;
  for (const auto& seg : segs) {
    if (LexiconWordExact("data", seg).empty()) continue;
    std::string why;
    auto n = NameOf(seg, true, &why);
    if (n && !LexiconWordExact("data", *n).empty()) return n;
  }
  return std::nullopt;
}

// A dataset or model value as a name: config-file stems and paths reduced to
// the segment that names them, Python class paths to the class, `name:opts`
// to the name; placeholders are no name, unless they spell a known dataset.
bool IsPackagesOwnDataClass(const std::string& dotted) {
  size_t dot = dotted.find('.');
  if (dot == std::string::npos || dot == 0) return false;
  std::string name = Lower(dotted.substr(dotted.rfind('.') + 1));
  for (const char* suffix : {"datamodule", "dataset", "data"})
    if (name.size() > std::string(suffix).size() && EndsWith(name, suffix)) {
      name = name.substr(0, name.size() - std::string(suffix).size());
      break;
    }
  return Lower(dotted.substr(0, dot)) == name;
}

std::optional<std::string> NameOf(std::string v, bool dataset, std::string* why) {
  while (!v.empty() && (v.back() == '/' || v.back() == ' ' || v.back() == '"' || v.back() == '\'')) v.pop_back();
  while (!v.empty() && (v[0] == ' ' || v[0] == '"' || v[0] == '\'')) v.erase(0, 1);
  // A list literal of one member (`default=['org/data']`) names it.
  if (v.size() > 2 && v.front() == '[' && v.back() == ']' && v.find('[', 1) == std::string::npos &&
      v.find(',') == std::string::npos) {
    v = v.substr(1, v.size() - 2);
    while (!v.empty() && (v.back() == ' ' || v.back() == '"' || v.back() == '\'')) v.pop_back();
    while (!v.empty() && (v[0] == ' ' || v[0] == '"' || v[0] == '\'')) v.erase(0, 1);
  }
  std::string l = Lower(v);
  if (l.empty() || v[0] == '@' || v[0] == '%' || GenericName(l)) {
    *why = "'" + v + "' names no model or dataset";
    return std::nullopt;
  }
  if (size_t comma = v.find(','); dataset && comma != std::string::npos && comma > 0 && v.find(' ') == std::string::npos) {
    v = v.substr(0, comma);  // vqa_train,vqa_val,vg_qa: a list names its first member
    l = Lower(v);
  }
  if (size_t colon = v.find(':'); colon != std::string::npos && colon > 0 && v.find('/') > colon &&
      v.find("://") == std::string::npos) {
    // gym:Hopper-v2 names the environment after the colon; ImageNet22k:root=<PATH> the data before it.
    v = LooksLikeEnvId(v.substr(colon + 1)) ? v.substr(colon + 1) : v.substr(0, colon);
    l = Lower(v);
  }
  bool placeholder = l.find(' ') != std::string::npos || l.find("path/to") != std::string::npos ||
                     l.find("path_to") != std::string::npos || l.find("your") != std::string::npos ||
                     l.find('<') != std::string::npos || l.find('[') != std::string::npos;
  if (placeholder) {
    if (dataset)
      if (std::string w = LexiconWordIn("data", v); !w.empty()) return w;
    *why = "only a placeholder (" + v + ")";
    return std::nullopt;
  }
  if (size_t scheme = v.find("://"); scheme != std::string::npos) v = v.substr(scheme + 3);
  if (size_t hash = v.find('#'); hash != std::string::npos && hash > 0) v = v.substr(0, hash);  // dataset#1000: a sample count
  if (size_t colon = v.find(':'); colon != std::string::npos && colon > 0 && v.find('/') > colon) v = v.substr(0, colon);
  // ldm.models.diffusion.ddpm.LatentDiffusion → LatentDiffusion
  if (v.find('/') == std::string::npos && std::count(v.begin(), v.end(), '.') >= 2) {
    std::string last = v.substr(v.rfind('.') + 1);
    // vocos.dataset.VocosDataModule: a data class named after its own package
    // loads whatever files it is given; it names no data.
    if (dataset && IsPackagesOwnDataClass(v)) {
      *why = "'" + v + "' is its package's own data class";
      return std::nullopt;
    }
    if (!last.empty() && std::isupper(static_cast<unsigned char>(last[0]))) v = last;
  }
  l = Lower(v);
  bool file = false;  // a file's path is never a hub id (filelists/ljs_train.txt.cleaned)
  for (const char* ext : {".yaml", ".yml", ".json", ".jsonl", ".txt", ".py", ".tar", ".zip", ".csv", ".parquet",
                          ".pt", ".pth", ".ckpt", ".bin", ".safetensors", ".gz", ".tsv", ".arrow", ".gin", ".hdf5",
                          ".h5", ".npz", ".npy", ".pkl", ".lmdb"}) {
    if (size_t at = l.find(std::string(ext) + "."); at != std::string::npos && at > l.rfind('/') + 1) {
      v = v.substr(0, at);
      l = Lower(v);
      file = true;
    }
    if (EndsWith(l, ext)) {
      v = v.substr(0, v.size() - std::string(ext).size());
      l = Lower(v);
      file = true;
      break;
    }
  }
  std::vector<std::string> segs = PathSegments(v);
  static const std::set<std::string> kGeneric = {"train", "training", "images", "imgs", "data", "raw", "processed",
                                                 "all", "dataset", "datasets", "input", "inputs", "files", "bin",
                                                 "shards", "tokenized", "output", "path", "dir", "root", "your_data",
                                                 "mydata", "my_data", "corpus", "text", "jsonl", "json", "data-bin",
                                                 "home", "mnt", "tmp", "workspace", "content", "local", "scratch"};
  // A path keeps the last segment that names something; a hub id (org/name) is kept whole.
  bool path = v.find('/') != std::string::npos && segs.size() > 1;
  bool hub_id = !path || (segs.size() == 2 && v[0] != '/' && v[0] != '.' && v.find("//") == std::string::npos && !file);
  if (hub_id && segs.size() == 2 && !kGeneric.count(Lower(segs[0])) && !kGeneric.count(Lower(segs[1]))) return v;
  // Segments that only say which split or list (train_list, videos_train, wavs) name nothing.
  auto generic_segment = [&](const std::string& seg) {
    if (kGeneric.count(Lower(seg))) return true;
    static const std::set<std::string> kWords = {"train", "val", "valid", "test", "list", "files", "split", "set", "data",
                                                 "images", "image", "labels", "annotations", "ann", "videos", "video",
                                                 "wavs", "wav", "audio", "clips", "tfrecord", "tfrecords", "dataset",
                                                 "records", "sub", "hr", "lr", "all", "tokenized", "text", "frames",
                                                 "rawframes", "processed", "raw", "manifest", "manifests"};
    std::vector<std::string> w = KeyWords(seg);
    return !w.empty() && std::all_of(w.begin(), w.end(), [](const std::string& x) { return kWords.count(x) > 0; });
  };
  while (!segs.empty() && generic_segment(segs.back())) segs.pop_back();
  if (segs.empty()) {
    *why = "only a placeholder path (" + v + ")";
    return std::nullopt;
  }
  std::string name = segs.back();
  if (dataset && segs.size() > 1 && LexiconWordIn("data", name).empty())
    for (auto it = segs.rbegin(); it != segs.rend(); ++it)
      if (!LexiconWordIn("data", *it).empty()) {  // data/kinetics400/videos_train → kinetics400
        name = *it;
        break;
      }
  if (dataset && !name.empty() && std::isupper(static_cast<unsigned char>(name[0])) && name.find('_') == std::string::npos) {
    // LibriSpeechAsr, ImageNetSRTrain → the known data they start with.
    std::string known = LexiconPrefix("data", name);
    if (known.size() >= 4) return known;
  }
  if (dataset) {
    // CocoDataset, ImageNetTrain, MNISTDataModule → the data's name.
    for (const char* suffix : {"DataModule", "Dataset", "Train", "Data"})
      if (name.size() > std::string(suffix).size() + 1 && EndsWith(name, suffix)) {
        // A stem too short to name data on its own and no known data (CUBDataset,
        // DTDDataset) leaves the dataset unresolved: the class name is never the data's.
        std::string stem = name.substr(0, name.size() - std::string(suffix).size());
        if (stem.size() < 4 && LexiconWordExact("data", stem) != Lower(stem)) {
          *why = "'" + name + "' is a data class whose short stem names no known data";
          return std::nullopt;
        }
        name = stem;
      }
  }
  // A registered task's versioned name (glue_mrpc_v002, wmt_t2t_ende_v003: seqio/TFDS) is kept whole.
  size_t vpos = Lower(name).rfind("_v");
  bool versioned = vpos != std::string::npos && vpos + 2 < name.size() &&
                   std::all_of(name.begin() + vpos + 2, name.end(),
                               [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
  if (dataset && !versioned && std::count(name.begin(), name.end(), '_') >= 2) {
    // A long file-like name that starts with known data: ljs_audio_text_train_filelist → ljs.
    std::string known = LexiconPrefix("data", name);
    if (known.size() >= 3 && known.size() < name.size() &&
        (name[known.size()] == '_' || name[known.size()] == '-'))
      return known;
  }
  if (dataset)
    for (const char* split : {"_train", "-train", ".train", "_training", "_trn"})
      if (name.size() > std::string(split).size() + 2 && EndsWith(Lower(name), split))
        name = name.substr(0, name.size() - std::string(split).size());  // nla_with_meaning_rep_train
  std::string ln = Lower(name);
  if (std::none_of(name.begin(), name.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)); })) {
    *why = "'" + v + "' names nothing";
    return std::nullopt;
  }
  if (dataset)
    for (const char* suffix : {"Factory", "Wrapper", "Persistence", "Builder", "Loader", "Module", "Sampler", "Config"})
      if (EndsWith(name, suffix)) ln = "dataset";  // a class that makes data, not its name
  if (GenericName(ln) || ln == "to" || ln == "xxx" || ln == "foo") {
    *why = "'" + v + "' names no model or dataset";
    return std::nullopt;
  }
  // A bare number (a blend's weight, `--data-path 1 corpus_text`, or an index) names nothing.
  if (std::all_of(name.begin(), name.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || ch == '.'; })) {
    *why = "'" + v + "' is a number, not a name";
    return std::nullopt;
  }
  if (!dataset && RoleWords(name)) {
    *why = "'" + v + "' says a model's role or a run's stage, not which model";
    return std::nullopt;
  }
  if (dataset && GenericWords(name)) {
    *why = "'" + v + "' is built of words that name no data (a class, a directory or a variable)";
    return std::nullopt;
  }
  return name;
}

// How much a value, by its form, looks like the run's model name: a
// framework wrapper class (SRModel, VocosExp, EncDecCTCModel) names the
// trainer, not the network.
int NameStrength(const std::string& v) {
  std::string last = v.substr(v.rfind('.') == std::string::npos ? 0 : v.rfind('.') + 1);
  for (const char* suffix : {"Model", "Module", "Exp", "Wrapper", "Task", "System", "Trainer", "Runner", "Pipeline",
                             "Backbone", "Encoder", "Decoder", "Head", "Neck"})
    if (EndsWith(last, suffix) && last.size() > std::string(suffix).size()) return -2;
  return 0;
}

std::optional<std::string> PrecisionOf(const std::string& v) {
  std::string l = Lower(v);
  if (l.find("bf16") != std::string::npos || l.find("bfloat16") != std::string::npos) return "bf16";
  if (l.find("fp8") != std::string::npos) return "fp8";
  if (l == "16" || l.find("fp16") != std::string::npos || l.find("float16") != std::string::npos ||
      l == "16-mixed" || l == "half" || l == "amp" || l == "o1" || l == "o2" || l == "mixed")
    return "fp16";
  if (l == "32" || l == "fp32" || l == "float32" || l == "no" || l == "32-true" || l == "full" || l == "64" ||
      l == "tf32")
    return "fp32";
  return std::nullopt;
}

// `--device 0`, `cuda:0,1`, `0,1,2,3`: how many GPUs; `cpu` is none.
std::optional<int> DeviceCount(std::string v) {
  v = Lower(v);
  if (v == "cpu") return 0;
  if (v.size() >= 2 && v.front() == '[' && v.back() == ']') v = v.substr(1, v.size() - 2);
  std::string out;
  for (char c : v)
    if (c != ' ') out += c;
  v = out;
  int n = 0;
  size_t start = 0;
  while (start <= v.size()) {
    size_t comma = v.find(',', start);
    std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.rfind("cuda:", 0) == 0) item = item.substr(5);
    // A range of device ids, `0-3` (the CSAIL/semseg --gpus convention): four devices.
    if (size_t dash = item.find('-'); dash != std::string::npos && dash > 0 && dash + 1 < item.size()) {
      std::string a = item.substr(0, dash), b = item.substr(dash + 1);
      auto digits = [](const std::string& x) {
        return !x.empty() && x.size() < 4 &&
               std::all_of(x.begin(), x.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
      };
      if (!digits(a) || !digits(b) || std::stoi(b) < std::stoi(a)) return std::nullopt;
      n += std::stoi(b) - std::stoi(a) + 1;
    } else if (!item.empty()) {
      if (!std::all_of(item.begin(), item.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return std::nullopt;
      ++n;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (n == 0) return std::nullopt;
  return n;
}

bool IsFalse(const std::string& v) {
  std::string l = Lower(v);
  return l == "false" || l == "0" || l == "no" || l == "off" || l == "none" || l.empty();
}

bool IsTrue(const std::string& v) {
  std::string l = Lower(v);
  return l == "true" || l == "1" || l == "yes" || l == "on";
}

}  // namespace schedmate
