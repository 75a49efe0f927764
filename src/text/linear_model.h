// A multinomial logistic model over string features: the learned part of
// the Metric Tracker's field tagger and of the Failure Handler's classifier.
// Features are strings ("w=loss", "u:time"); each (feature, class) pair has
// a weight; a class's score is the sum of its weights over the features
// present, and the probabilities are their softmax. Trained by SGD with an
// L2 penalty; written and read as "feature<TAB>class<TAB>weight" rows.
#ifndef SCHEDMATE_TEXT_LINEAR_MODEL_H_
#define SCHEDMATE_TEXT_LINEAR_MODEL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/status.h"

namespace schedmate {

class LinearModel {
 public:
  LinearModel() = default;
  explicit LinearModel(std::vector<std::string> classes) : classes_(std::move(classes)) {}

  // Rows of `tsv` ('#' comments) over the given classes; an unknown class or
  // a bad weight is an error naming `what` and the line.
  static Result<LinearModel> Parse(std::string_view tsv, std::vector<std::string> classes, std::string_view what);

  struct Example {
    std::vector<std::string> features;
    int label = 0;  // index into the classes
    double weight = 1;
  };
  struct TrainOptions {
    int epochs = 30;
    double rate = 0.2;
    double l2 = 1e-4;
    uint64_t seed = 1;
  };
  static LinearModel Train(std::vector<std::string> classes, const std::vector<Example>& examples,
                           const TrainOptions& options);

  // The model whose weights are the mean of `models`' (a weight a model
  // lacks counts as 0): an ensemble of runs that differ only in the order
  // examples were visited in, as one linear model. REQUIRES: `models` is not
  // empty and all have the same classes.
  static LinearModel Average(const std::vector<LinearModel>& models);

  // Class probabilities (softmax of the scores); uniform for an empty model.
  std::vector<double> Probabilities(const std::vector<std::string>& features) const;
  // The index of the most probable class.
  int Best(const std::vector<std::string>& features) const;
  // Rows, weights smaller than `min_weight` in size left out.
  std::string Dump(double min_weight = 1e-4) const;

  bool empty() const { return weights_.empty(); }
  const std::vector<std::string>& classes() const { return classes_; }
  int ClassIndex(std::string_view name) const;  // -1 when unknown

 private:
  std::vector<std::string> classes_;
  std::unordered_map<std::string, std::vector<float>> weights_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_TEXT_LINEAR_MODEL_H_
