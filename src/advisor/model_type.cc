#include "advisor/model_type.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <string_view>

#include "core/text_lines.h"

namespace schedmate {
namespace {

struct Entry {
  std::string kind, word, type;
  double weight = 0;
};

const std::vector<Entry>& Lexicon() {
  static const std::vector<Entry> lexicon = [] {
    std::vector<Entry> out;
    ForEachDataLine(DefaultModelTypeLexicon(), [&](std::string_view line) {
      std::vector<std::string> cols;
      size_t s = 0;
      while (s <= line.size()) {
        size_t t = line.find('\t', s);
        cols.emplace_back(line.substr(s, t == std::string_view::npos ? std::string_view::npos : t - s));
        if (t == std::string_view::npos) break;
        s = t + 1;
      }
      if (cols.size() == 4) out.push_back({cols[0], cols[1], cols[2], std::atof(cols[3].c_str())});
    });
    return out;
  }();
  return lexicon;
}

// The lexicon's entries of one kind, sorted by word (lexicon order among
// equal words), so the entries whose word begins a given word are found by
// one lookup per prefix length instead of a pass over the whole lexicon.
class KindIndex {
 public:
  explicit KindIndex(std::string_view kind) {
    for (const auto& x : Lexicon())
      if (x.kind == kind) entries_.push_back(&x);
    std::stable_sort(entries_.begin(), entries_.end(), [](const Entry* a, const Entry* b) { return a->word < b->word; });
  }
  const std::vector<const Entry*>& all() const { return entries_; }
  // Entries whose word is a prefix of `w`, shortest word first, lexicon order among equal words.
  template <typename F>
  void ForEachPrefixOf(std::string_view w, F&& f) const {
    for (size_t k = 1; k <= w.size(); ++k) {
      std::string_view p = w.substr(0, k);
      auto lo = std::lower_bound(entries_.begin(), entries_.end(), p,
                                 [](const Entry* e, std::string_view v) { return std::string_view(e->word) < v; });
      for (auto it = lo; it != entries_.end() && (*it)->word == p; ++it) f(**it);
    }
  }

 private:
  std::vector<const Entry*> entries_;
};

const KindIndex& OfKind(std::string_view kind) {
  static const KindIndex name("name"), data("data"), path("path"), call("call"), import("import");
  if (kind == "name") return name;
  if (kind == "data") return data;
  if (kind == "path") return path;
  if (kind == "call") return call;
  if (kind == "import") return import;
  static const KindIndex none("");
  return none;
}

// Lower-case alphanumeric words; "Meta-Llama-3-8B" → meta, llama, 3, 8b.
// Underscored words are also kept whole ("faster_rcnn").
std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur, whole;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      cur += static_cast<char>(std::tolower(u));
      whole += static_cast<char>(std::tolower(u));
    } else if (c == '_') {
      flush();
      whole += '_';
    } else {
      flush();
      if (whole.find('_') != std::string::npos) out.push_back(whole);
      whole.clear();
    }
  }
  flush();
  if (whole.find('_') != std::string::npos) out.push_back(whole);
  return out;
}

// "PPLiteSeg" → "PP Lite Seg", "GlowTTS" → "Glow TTS": class-style names split
// into their words (a new word at a lower→upper step, and before the last
// capital of a run of capitals followed by a lower-case letter).
std::string CamelSplit(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (i > 0 && std::isupper(c)) {
      unsigned char p = static_cast<unsigned char>(s[i - 1]);
      bool next_lower = i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
      if (std::islower(p) || (std::isupper(p) && next_lower)) out += ' ';
    }
    out += s[i];
  }
  return out;
}

}  // namespace

std::string LexiconWordIn(std::string_view kind, std::string_view text) {
  std::string best, word;
  for (const auto& w : Words(text))
    for (const auto& x : Lexicon())
      if (x.kind == kind && x.word.size() > best.size() && x.word.size() >= 3 && w.rfind(x.word, 0) == 0) {
        best = x.word;
        word = w;
      }
  return word;
}

std::string LexiconWordExact(std::string_view kind, std::string_view text) {
  for (const auto& w : Words(text))
    for (const auto& x : Lexicon()) {
      if (x.kind != kind || w.rfind(x.word, 0) != 0) continue;
      size_t n = x.word.size();
      while (n < w.size() && std::isdigit(static_cast<unsigned char>(w[n]))) ++n;
      if (n > x.word.size() && n + 1 == w.size() && (w[n] == 'k' || w[n] == 'm')) ++n;
      if (n == w.size()) return w;
    }
  return "";
}

std::string LexiconPrefix(std::string_view kind, std::string_view text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string best;
  for (const auto& x : Lexicon())
    if (x.kind == kind && x.word.size() > best.size() && lower.rfind(x.word, 0) == 0) best = x.word;
  // Keep a size or version that follows: wikitext2, imagenet22k, cifar10.
  size_t n = best.size();
  if (n == 0) return best;
  while (n < lower.size() && std::isdigit(static_cast<unsigned char>(lower[n]))) ++n;
  if (n > best.size() && n < lower.size() && (lower[n] == 'k' || lower[n] == 'm')) ++n;
  return lower.substr(0, n);
}

ModelTypeGuess GuessModelType(const ModelTypeEvidence& e) {
  std::map<std::string, double> score;
  ModelTypeGuess g;
  double sft_marker = 0;
  std::set<std::string> counted;  // each lexicon entry counts once ("vit" and "vit_large" are one vote)
  std::map<std::string, double> task;  // what the data and the paths say the task is
  auto add = [&](const Entry& x, const std::string& what) {
    if (!counted.insert(x.kind + "\t" + x.word).second) return;
    if (x.kind == "data" || x.kind == "path") task[x.type] += x.weight;
    // Adapter and preference-tuning evidence (LoRA, DPO, SFT trainers) says how an
    // LLM is tuned, not what the task is: it only turns an LLM into llm-sft.
    if (x.type == "llm-sft" && (x.kind == "call" || x.kind == "import" || x.kind == "path")) {
      sft_marker += x.weight;
      if (x.weight > 0 && g.why.size() < 16) g.why.push_back(x.kind + ":" + what);
      return;
    }
    score[x.type] += x.weight;
    if (x.weight > 0 && g.why.size() < 16) g.why.push_back(x.kind + ":" + what);
  };
  // Per word, only the longest lexicon word it begins with counts ("dino" is
  // not also "din").
  // A short lexicon word (voc, gpt, sd) matches a whole word or one followed by
  // a digit or '_' (voc2012, gpt2), never a longer word (vocab, sdpa).
  auto begins = [](const std::string& w, const std::string& x) {
    if (w.rfind(x, 0) != 0) return false;
    if (x.size() >= 4 || w.size() == x.size()) return true;
    return std::isdigit(static_cast<unsigned char>(w[x.size()])) || w[x.size()] == '_';
  };
  auto by_prefix = [&](const std::string& kind, const std::vector<std::string>& words) {
    const KindIndex& index = OfKind(kind);
    for (const auto& w : words) {
      size_t best = 0;
      index.ForEachPrefixOf(w, [&](const Entry& x) {
        if (begins(w, x.word)) best = std::max(best, x.word.size());
      });
      if (best == 0) continue;
      index.ForEachPrefixOf(std::string_view(w).substr(0, best), [&](const Entry& x) {
        if (x.word.size() == best) add(x, w);
      });
    }
  };
  by_prefix("name", Words(e.model_name));
  for (const auto& n : e.other_names) by_prefix("name", Words(n));
  by_prefix("data", Words(e.dataset));
  // A model name often says its task in a word of its own (glow_tts,
  // parler-tts, bert-ner, yolo-det): the task words of paths, matched whole.
  // (For the dataset's own name, only task words that are no dataset's: glue
  // already votes as data.)
  auto task_words = [&](const std::string& name, bool of_data = false) {
    for (const auto& w : Words(CamelSplit(name))) {
      bool data_word = false;
      if (of_data)
        OfKind("data").ForEachPrefixOf(w, [&](const Entry& x) { data_word = data_word || x.word == w; });
      if (data_word) continue;
      OfKind("path").ForEachPrefixOf(w, [&](const Entry& x) {
        if (x.word == w) add(x, w);
      });
    }
  };
  task_words(e.model_name);
  for (const auto& n : e.other_names) task_words(n);
  // The run's own model name saying its task (parler-tts, glow_tts) counts
  // twice: it outweighs the half votes of model classes a library defines.
  // (Task words only: a family's name that is also a path word, dino, is not doubled.)
  for (const auto& w : Words(CamelSplit(e.model_name))) {
    bool family = false;
    OfKind("name").ForEachPrefixOf(w, [&](const Entry& x) { family = family || x.word == w; });
    if (family) continue;
    OfKind("path").ForEachPrefixOf(w, [&](const Entry& x) {
      if (x.word == w && counted.insert("own-name\t" + w).second) score[x.type] += x.weight;
    });
  }
  task_words(e.dataset, true);  // optic_disc_seg, coco_det: the data's own task word
  std::vector<std::string> path_words;
  for (const auto& p : e.paths)
    for (auto& w : Words(p)) path_words.push_back(w);
  std::sort(path_words.begin(), path_words.end());
  path_words.erase(std::unique(path_words.begin(), path_words.end()), path_words.end());
  // Each dotted part of the called name: `AutoModelForSequenceClassification.from_pretrained`.
  auto part_matches = [](std::string_view word, std::string_view part) {
    if (part.substr(0, word.size()) == word) return true;
    if (part.size() > word.size() && part.substr(part.size() - word.size()) == word) return true;
    return word.size() >= 8 && part.find(word) != std::string_view::npos;
  };
  // Each callee with its dotted parts, split once.
  struct Callee {
    std::string_view whole;
    std::vector<std::string_view> parts;
  };
  auto split = [](const std::vector<std::string>& callees) {
    std::vector<Callee> out;
    for (const auto& c : callees) {
      Callee x{c, {}};
      std::string_view v = c;
      size_t start = 0;
      while (start <= v.size()) {
        size_t dot = v.find('.', start);
        x.parts.push_back(v.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
      }
      out.push_back(std::move(x));
    }
    return out;
  };
  const std::vector<Callee> near_callees = split(e.callees), far_callees = split(e.far_callees);
  auto call_matches = [&](std::string_view word, const Callee& callee) {
    if (word.find('.') != std::string_view::npos)
      return callee.whole == word || (callee.whole.size() > word.size() && callee.whole.substr(callee.whole.size() - word.size()) == word);
    for (std::string_view part : callee.parts)
      if (part_matches(word, part)) return true;
    return false;
  };
  for (const auto& x : Lexicon()) {
    if (x.kind == "path" && std::binary_search(path_words.begin(), path_words.end(), x.word)) add(x, x.word);
    if (x.kind == "import" && e.imports.count(x.word)) add(x, x.word);
    if (x.kind != "call") continue;
    bool near = false, far = false;
    for (const auto& c : near_callees) near = near || call_matches(x.word, c);
    if (!near)
      for (const auto& c : far_callees) far = far || call_matches(x.word, c);
    if (near) add(x, x.word);
    else if (far) add({x.kind, x.word, x.type, x.weight / 2}, x.word);
  }
  // Model families named by what the code calls (DETR, LlavaLlamaForCausalLM)
  // and by the paths of the entry point and configs, at half weight.
  std::vector<std::string> called_words;
  for (const auto& c : e.callees) {
    size_t start = 0;
    while (start <= c.size()) {
      size_t dot = c.find('.', start);
      std::string part = c.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (!part.empty() && std::isupper(static_cast<unsigned char>(part[0]))) {  // classes only
        std::string lower;
        for (char ch : part) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        called_words.push_back(lower);
      }
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  }
  std::sort(called_words.begin(), called_words.end());
  called_words.erase(std::unique(called_words.begin(), called_words.end()), called_words.end());
  std::map<std::string, double> half;
  auto half_by_prefix = [&](const std::vector<std::string>& words) {
    const KindIndex& names = OfKind("name");
    for (const auto& w : words) {
      size_t best = 0;
      names.ForEachPrefixOf(w, [&](const Entry& x) {
        if (x.word.size() >= 3 &&
            (x.word.size() >= 5 || w.size() == x.word.size() || std::isdigit(static_cast<unsigned char>(w[x.word.size()]))))
          best = std::max(best, x.word.size());
      });
      if (best == 0) continue;
      names.ForEachPrefixOf(std::string_view(w).substr(0, best), [&](const Entry& x) {
        if (x.word.size() == best) half[x.type] = std::max(half[x.type], x.weight / 2);
      });
    }
  };
  half_by_prefix(called_words);
  half_by_prefix(path_words);
  for (const auto& [type, w] : half) score[type] += w;
  for (const auto& [type, s] : score)
    if (s > g.score) {
      g.score = s;
      g.type = type;
    }
  if (g.score <= 0) g.type.clear();
  // A backbone or an encoder family (ResNet, ViT, BERT, ELECTRA) serves many
  // tasks: when it decided the type and the data or the paths name another
  // task (mnli, squad, ade20k, kinetics, textdet), the task wins.
  if (g.type == "image-classification" || g.type == "language-modeling") {
    std::string best;
    // (Pre-training text, c4 or wikipedia, is an encoder's masked-LM data too: no LLM task.)
    for (const auto& [type, s] : task)
      if (type != g.type && type != "llm-pretrain" && type != "llm-sft" && s >= 2 && s > task[g.type] &&
          (best.empty() || s > task[best]))
        best = type;
    if (!best.empty()) g.type = best;
  }
  // A vision tower, a multimodal projector or VQA data beside an LLM: the LLM
  // is the language half of a multimodal model.
  if ((g.type == "llm-pretrain" || g.type == "llm-sft") && score["vision-language"] >= 4) g.type = "vision-language";
  if (g.type == "llm-pretrain" && (score["llm-sft"] > 0 || sft_marker > 0)) g.type = "llm-sft";
  return g;
}

}  // namespace schedmate
