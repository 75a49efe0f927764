// Estimation from history: renamed copies match, a same-named project with
// another model does not, the future is invisible, failures weigh little,
// and a wide spread falls back.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "core/facts_json.h"
#include "core/json.h"
#include "history/sqlite_store.h"

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

WorkloadMetadata Md(const std::string& model, const std::string& data, int64_t steps = 10000) {
  WorkloadMetadata md;
  md.model_name = model;
  md.model_type = "llm-pretrain";
  md.dataset = data;
  md.training_iterations = steps;
  md.iteration_type = "step";
  md.batch_size = 64;
  md.hardware.num_gpus = 8;
  md.framework = "pytorch";
  md.launcher = "torchrun";
  return md;
}

struct Fixture {
  std::string path = testing::TempDir() + "/adv" + std::to_string(getpid()) + ".db";
  std::unique_ptr<HistoryStore> store;
  VectorIndex index{[] {
    VectorIndexOptions o;
    o.dimension = kFingerprintDimension;
    return o;
  }()};
  Fixture() {
    std::filesystem::remove(path);
    auto opened = OpenSqliteHistory(path);
    store = std::move(opened).value();
  }
  ~Fixture() { std::filesystem::remove(path); }
  void Add(const std::string& id, const WorkloadMetadata& md, int64_t duration, int64_t completed,
           EndReason reason = EndReason::kCompleted) {
    HistoryRecord r;
    r.job_id = id;
    r.duration_s = duration;
    r.completed_at_s = completed;
    r.end_reason = reason;
    r.sm_util = 0.6;
    r.metadata_json = DumpJson(ToJson(md));
    r.fingerprint = Fingerprint(md);
    ASSERT_TRUE(store->Put(r).ok());
    ASSERT_TRUE(index.Add(id, r.fingerprint, completed).ok());
  }
};

TEST(Advisor, RenamedCopyMatchesOtherModelDoesNot) {
  Fixture f;
  f.Add("orig", Md("gpt2-small", "openwebtext"), 3600, 100);
  DurationEstimate copy = EstimateFromHistory(Md("gpt2-small", "openwebtext"), f.index, *f.store, 1000);
  ASSERT_EQ(copy.method, DurationEstimate::Method::kHistory) << copy.fallback_reason;
  EXPECT_DOUBLE_EQ(*copy.duration_s, 3600);
  EXPECT_NEAR(*copy.sm_util, 0.6, 1e-9);
  ASSERT_EQ(copy.matches.size(), 1u);
  EXPECT_EQ(copy.matches[0].job_id, "orig");
  EXPECT_GT(copy.matches[0].score, 0.99);
  DurationEstimate other = EstimateFromHistory(Md("llama-3-8b", "openwebtext"), f.index, *f.store, 1000);
  EXPECT_EQ(other.method, DurationEstimate::Method::kFallback);
  DurationEstimate data = EstimateFromHistory(Md("gpt2-small", "the_pile"), f.index, *f.store, 1000);
  EXPECT_EQ(data.method, DurationEstimate::Method::kFallback);
}

TEST(Advisor, AsOfWeightsAndSpread) {
  Fixture f;
  f.Add("early-fail", Md("gpt2-small", "owt"), 60, 100, EndReason::kFailedUser);
  f.Add("done", Md("gpt2-small", "owt"), 3600, 200);
  f.Add("future", Md("gpt2-small", "owt"), 99999, 5000);
  EstimateOptions o;
  o.max_spread = 2.0;
  DurationEstimate e = EstimateFromHistory(Md("gpt2-small", "owt"), f.index, *f.store, 1000, o);
  ASSERT_EQ(e.method, DurationEstimate::Method::kHistory);
  for (const auto& m : e.matches) EXPECT_NE(m.job_id, "future");
  EXPECT_GT(*e.duration_s, 3000);  // the early failure weighs 0.1
  DurationEstimate before = EstimateFromHistory(Md("gpt2-small", "owt"), f.index, *f.store, 50);
  EXPECT_EQ(before.method, DurationEstimate::Method::kFallback);  // nothing had finished yet
  o.max_spread = 0.5;
  DurationEstimate wide = EstimateFromHistory(Md("gpt2-small", "owt"), f.index, *f.store, 1000, o);
  EXPECT_EQ(wide.method, DurationEstimate::Method::kFallback);
  EXPECT_EQ(wide.fallback_reason, "matched durations spread too wide");
}

// What the extractor returns for a binary or a trivial train.py: how it runs, nothing of what it trains.
WorkloadMetadata Opaque() {
  WorkloadMetadata md;
  md.hardware.num_gpus = 1;
  md.launcher = "python";
  md.precision = "fp32";
  return md;
}

TEST(Advisor, OpaqueJobsNeverMatchEachOther) {
  Fixture f;
  f.Add("alice-opaque", Opaque(), 36000, 100);
  DurationEstimate e = EstimateFromHistory(Opaque(), f.index, *f.store, 1000);
  EXPECT_EQ(e.method, DurationEstimate::Method::kFallback);
  EXPECT_TRUE(e.matches.empty());
  EXPECT_NE(e.fallback_reason.find("metadata too sparse to match"), std::string::npos) << e.fallback_reason;
  WorkloadMetadata model_only = Opaque();  // one field, however telling, is below the minimum
  model_only.model_name = "gpt2";
  EXPECT_EQ(EstimateFromHistory(model_only, f.index, *f.store, 1000).method, DurationEstimate::Method::kFallback);
}

TEST(Advisor, SparseStoredRecordNeverStandsForAnInformativeQuery) {
  Fixture f;
  WorkloadMetadata stored = Opaque();
  stored.model_name = "gpt2-small";
  f.Add("sparse", stored, 36000, 100);
  EstimateOptions o;
  o.min_score = 0.0f;  // the index returns the record; the identity check alone must refuse it
  DurationEstimate e = EstimateFromHistory(Md("gpt2-small", "owt"), f.index, *f.store, 1000, o);
  EXPECT_EQ(e.method, DurationEstimate::Method::kFallback);
  EXPECT_EQ(e.fallback_reason, "the similar jobs' metadata is too sparse to match");
}

TEST(Advisor, ModelAndDatasetAloneAreEnoughToMatch) {
  Fixture f;
  WorkloadMetadata md = Opaque();
  md.model_name = "resnet50";
  md.dataset = "imagenet";
  EXPECT_EQ(SparseMetadataReason(ToJson(md)), "");
  f.Add("r50", md, 3600, 100);
  DurationEstimate e = EstimateFromHistory(md, f.index, *f.store, 1000);
  ASSERT_EQ(e.method, DurationEstimate::Method::kHistory) << e.fallback_reason;
  EXPECT_DOUBLE_EQ(*e.duration_s, 3600);
  md.dataset.reset();
  md.model_type = "vision";  // two fields without model or dataset would not do; with the model they do
  EXPECT_EQ(SparseMetadataReason(ToJson(md)), "");
  md.model_name.reset();
  md.batch_size = 64;
  EXPECT_NE(SparseMetadataReason(ToJson(md)), "");
}

TEST(Advisor, RenderingIgnoresNamesAndPaths) {
  WorkloadMetadata a = Md("gpt2", "owt");
  WorkloadMetadata b = a;
  b.files_read = {"other/train.py"};
  b.sources = {{"model_name", "x.py", 3}};
  EXPECT_EQ(CanonicalRendering(a), CanonicalRendering(b));
  EXPECT_NE(CanonicalRendering(a), CanonicalRendering(Md("gpt2", "owt", 20000)));
}

// Two writers on one history file: each sees the other's records after a
// refresh, and its own writes never cost it a re-read of the store.
TEST(AdvisorHistory, RefreshesOnlyForRecordsAnotherWriterAdded) {
  Fixture f;
  auto other_store = OpenSqliteHistory(f.path);
  ASSERT_TRUE(other_store.ok());
  auto mine = AdvisorHistory::Open(*f.store);
  auto theirs = AdvisorHistory::Open(**other_store);
  ASSERT_TRUE(mine.ok() && theirs.ok());
  HistoryRecord r;
  r.job_id = "own";
  r.duration_s = 100;
  r.completed_at_s = 10;
  ASSERT_TRUE(mine->Record(r, Md("gpt2-small", "openwebtext")).ok());
  ASSERT_TRUE(mine->Record(r, Md("gpt2-small", "openwebtext")).ok());  // a replacement adds nothing
  auto refreshed = mine->RefreshIfOthersWrote();
  ASSERT_TRUE(refreshed.ok());
  EXPECT_FALSE(*refreshed) << "its own records are indexed already";
  EXPECT_EQ(theirs->Estimate(Md("gpt2-small", "openwebtext"), 1000).method, DurationEstimate::Method::kFallback);
  refreshed = theirs->RefreshIfOthersWrote();
  ASSERT_TRUE(refreshed.ok());
  EXPECT_TRUE(*refreshed);
  DurationEstimate e = theirs->Estimate(Md("gpt2-small", "openwebtext"), 1000);
  ASSERT_EQ(e.method, DurationEstimate::Method::kHistory) << e.fallback_reason;
  EXPECT_EQ(e.matches[0].job_id, "own");
  EXPECT_FALSE(*theirs->RefreshIfOthersWrote());
}

// The facts an estimate keeps of a record are what parsing its stored JSON
// gives, whether they come from the JSON text or from the metadata's Json.
TEST(Advisor, MetadataFactsOfTheJsonAndOfItsText) {
  WorkloadMetadata epochs = Md("ResNet-50", "ImageNet", 90);
  epochs.iteration_type = "epoch";
  WorkloadMetadata no_budget = Md("t5-base", "c4");
  no_budget.training_iterations.reset();
  WorkloadMetadata named_only = Opaque();
  named_only.dataset = "wikitext";
  named_only.batch_size = 8;
  for (const WorkloadMetadata& md : {Md("gpt2-small", "openwebtext"), epochs, no_budget, named_only, Opaque()}) {
    MetadataFacts a = FactsOfMetadata(ToJson(md)), b = FactsOfMetadataJson(DumpJson(ToJson(md)));
    EXPECT_EQ(a.informative, SparseMetadataReason(ToJson(md)).empty());
    EXPECT_EQ(a.informative, b.informative);
    EXPECT_EQ(a.model, b.model);
    EXPECT_EQ(a.dataset, b.dataset);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.iteration_type, b.iteration_type);
  }
  MetadataFacts r50 = FactsOfMetadata(ToJson(epochs));
  EXPECT_EQ(r50.model, "resnet50");  // normalised as the identity check compares
  EXPECT_EQ(r50.dataset, "imagenet");
  EXPECT_EQ(r50.iterations, 90.0);
  EXPECT_EQ(r50.iteration_type, "epoch");
  EXPECT_FALSE(FactsOfMetadataJson("").informative);
  EXPECT_FALSE(FactsOfMetadataJson("{not json").informative);
  EXPECT_FALSE(FactsOfMetadataJson("[1, 2]").informative);
}

// The history answers from the records it keeps parsed exactly as the
// store-reading path answers: same matches, scores, estimate and reasons,
// over renamed copies, other budgets, other models, sparse records,
// failures and the time limit.
TEST(AdvisorHistory, ParsedRecordsAnswerAsTheStoreDoes) {
  Fixture f;
  AdvisorHistory history(*f.store);
  const std::vector<WorkloadMetadata> kinds = {Md("gpt2-small", "owt"), Md("gpt2-small", "owt", 20000),
                                               Md("GPT2 small", "OWT", 5000), Md("llama-3-8b", "owt"),
                                               Md("gpt2-small", "the_pile"), Opaque()};
  for (int i = 0; i < 60; ++i) {
    HistoryRecord r;
    r.job_id = "r" + std::to_string(i);
    r.completed_at_s = 100 * i;
    r.duration_s = 1000 + 37 * i;
    r.end_reason = i % 7 == 0 ? EndReason::kFailedUser : i % 5 == 0 ? EndReason::kTimeout : EndReason::kCompleted;
    if (i % 3) r.sm_util = 0.01 * i;
    if (i % 4) r.mem_util = 0.02 * i;
    const WorkloadMetadata& md = kinds[static_cast<size_t>(i) % kinds.size()];
    ASSERT_TRUE(history.Record(r, md).ok());
  }
  EstimateOptions wide;
  wide.max_spread = 10;
  wide.half_life_s = 2000;
  int history_answers = 0;
  for (const EstimateOptions& opt : {EstimateOptions{}, wide})
    for (const WorkloadMetadata& md : kinds)
      for (int64_t t : {0, 150, 2550, 7000}) {
        const std::string stored = DumpJson(ToJson(EstimateFromHistory(md, history.index(), *f.store, t, opt)));
        EXPECT_EQ(DumpJson(ToJson(history.Estimate(md, t, opt))), stored) << t;
        EXPECT_EQ(DumpJson(ToJson(history.Estimate(PrepareQuery(md), t, opt))), stored) << t;
        history_answers += stored.find("\"history\"") != std::string::npos;
      }
  EXPECT_GT(history_answers, 10);  // the comparison covers answers from history, not only fallbacks
}

// A history opened over a store keeps the records it found there, parsed.
TEST(AdvisorHistory, ReopenedHistoryReadsTheStoredRecords) {
  Fixture f;
  {
    AdvisorHistory writer(*f.store);
    HistoryRecord r;
    r.job_id = "a";
    r.duration_s = 3600;
    r.completed_at_s = 10;
    ASSERT_TRUE(writer.Record(r, Md("gpt2-small", "owt")).ok());
  }
  auto reader = AdvisorHistory::Open(*f.store);
  ASSERT_TRUE(reader.ok());
  DurationEstimate e = reader->Estimate(Md("gpt2-small", "owt"), 1000);
  ASSERT_EQ(e.method, DurationEstimate::Method::kHistory) << e.fallback_reason;
  EXPECT_DOUBLE_EQ(*e.duration_s, 3600);
}

}  // namespace
}  // namespace schedmate
