// The Tracker over whole logs: assembly across loggers, steady state,
// `missing`, the reverse reader on hostile files, the slowdown check, and
// the module metrics on the real development set.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tracker/evaluation.h"
#include "tracker/log_follower.h"
#include "tracker/progress_scan.h"
#include "tracker/reverse_line_reader.h"
#include "tracker/tracker.h"

namespace schedmate {
namespace {

std::string TempFile(const std::string& name, const std::string& content) {
  std::string path = testing::TempDir() + "/" + name + std::to_string(getpid());
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(ProgressScan, NoProgressIsMissingNotAGuess) {
  std::vector<std::string> lines = {"Collecting torch==2.1.0", "Loading checkpoint shards: 3 files",
                                    "step 250: train loss 1.5440, val loss 1.7220",
                                    "Downloading: 100%|██████████| 1.2G/1.2G [00:31<00:00, 40.1MB/s]"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.status, ProgressReport::Status::kMissing);
  EXPECT_FALSE(r.step.has_value());
  EXPECT_TRUE(r.lines_used.empty());
}

TEST(ProgressScan, FieldsFromSeveralLoggersAroundTheNewestStep) {
  std::vector<std::string> lines = {
      "{'loss': 2.9043, 'learning_rate': 4.9e-05, 'epoch': 0.02}",
      "  1%|▍          | 10/1856 [04:16<13:02:24, 25.43s/it]",
      "Saving model checkpoint to out/checkpoint-10",
  };
  ProgressReport r = ScanProgress(lines);
  ASSERT_EQ(r.status, ProgressReport::Status::kOk);
  EXPECT_EQ(r.step, 10);
  EXPECT_EQ(r.total_steps, 1856);
  EXPECT_DOUBLE_EQ(*r.step_time_s, 25.43);
  EXPECT_DOUBLE_EQ(*r.loss, 2.9043);
  EXPECT_EQ(r.lines_used, (std::vector<int64_t>{0, 1}));
}

TEST(ProgressScan, LossFromAMetricsLoggerSeveralBarRefreshesBack) {
  std::vector<std::string> lines = {"{'loss': 6.6606, 'learning_rate': 9.6e-07, 'epoch': 1.38}"};
  for (int s = 4960; s <= 4964; ++s)
    lines.push_back(" 99%|█████████▉| " + std::to_string(s) + "/5000 [46:37<00:20,  1.96it/s]");
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 4964);
  ASSERT_TRUE(r.loss.has_value());
  EXPECT_DOUBLE_EQ(*r.loss, 6.6606);
}

TEST(ProgressScan, SteadyStateDropsOutliersAndGivesEta) {
  std::vector<std::string> lines;
  for (int i = 1; i <= 12; ++i) {
    double t = i == 6 ? 35.4 : 1.0;  // a checkpoint iteration
    char buf[128];
    std::snprintf(buf, sizeof buf, "iter %d: loss %.3f, time %.2fms", i * 10, 2.0 - i * 0.01, t * 1000);
    lines.push_back(buf);
  }
  lines.push_back("step 120: train loss 1.5, val loss 1.7");  // evaluation, not progress
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 120);
  EXPECT_NEAR(*r.step_time_s, 1.0, 1e-9);
  EXPECT_NEAR(*r.steady_step_time_s, 1.0, 1e-9);  // 35.4 s dropped by median/MAD
  EXPECT_FALSE(r.total_steps.has_value());
  EXPECT_FALSE(r.eta_s.has_value());
}

TEST(ProgressScan, StepTimeFromTimestampsWhenNotPrinted) {
  std::vector<std::string> lines = {
      "[titan] 2026-02-24 19:46:15,000 - root - INFO - step:  3  loss:  8.1  tps: 10,000",
      "[titan] 2026-02-24 19:46:17,508 - root - INFO - step:  4  loss:  7.6  tps: 10,050",
      "[titan] 2026-02-24 19:46:17,508 - root - INFO - step:  4  loss:  7.6  tps: 10,050",
      "[titan] 2026-02-24 19:46:19,145 - root - INFO - step:  5  loss:  7.0  tps: 10,007",
  };
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 5);
  EXPECT_NEAR(*r.step_time_s, 1.637, 1e-6);
  EXPECT_EQ(r.throughput_unit, "tokens/s/GPU");
}

TEST(ProgressScan, EpochLevelRecordsGiveTheLossButNoStep) {
  std::vector<std::string> lines = {"Epoch 199: loss = 0.0981", "Epoch 200: loss = 0.0978"};
  ProgressReport r = ScanProgress(lines);
  ASSERT_EQ(r.status, ProgressReport::Status::kOk);
  EXPECT_FALSE(r.step.has_value());
  EXPECT_DOUBLE_EQ(*r.loss, 0.0978);
  // Records printed several times in their epoch are the per-batch ones; the
  // one-off line after them is the epoch's summary.
  std::vector<std::string> batches = {"Epoch 20 - Batch loss: 0.0006", "Epoch 20 - Batch loss: 0.0004",
                                      "Epoch 20 - Average Train Loss: 0.0038"};
  EXPECT_DOUBLE_EQ(*ScanProgress(batches).loss, 0.0004);
  // An epoch-level record's time is the epoch's, not a step's (here only component losses).
  std::vector<std::string> timed = {"epoch: 5 |iou_loss 1.45 | cls_loss 0.44 | time 651.65",
                                    "epoch: 6 |iou_loss 1.43 | cls_loss 0.43 | time 653.55"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport t = ScanProgress(timed, grammar_only);
  EXPECT_EQ(t.status, ProgressReport::Status::kOk);
  EXPECT_FALSE(t.step.has_value());
  EXPECT_FALSE(t.step_time_s.has_value());
}

TEST(ProgressScan, AKeylessLeadingRoundIsTheStepOnceItClimbs) {
  std::vector<std::string> rounds = {"[11500]\teval-logloss:0.902478\ttrain-logloss:0.00218",
                                     "[12000]\teval-logloss:0.910807\ttrain-logloss:0.002021"};
  ProgressReport r = ScanProgress(rounds);
  EXPECT_EQ(r.step, 12000);
  EXPECT_DOUBLE_EQ(*r.loss, 0.002021);
  // A tag that stays put ("[3]" of a rank) is not a step (the tagger off: the grammar alone).
  std::vector<std::string> tagged = {"[3] lr: 0.001 loss: 0.52", "[3] lr: 0.001 loss: 0.50"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport t = ScanProgress(tagged, grammar_only);
  EXPECT_FALSE(t.step.has_value());
  EXPECT_DOUBLE_EQ(*t.loss, 0.50);
}

TEST(ProgressScan, AStepOnlyLineHeadsTheTrainingLinesBelowIt) {
  std::vector<std::string> lines = {" ---- batch: 850 ----", "mean loss: 102.780255", "accuracy: 0.615874",
                                    " ---- batch: 900 ----", "mean loss: 100.150999"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 900);
  EXPECT_DOUBLE_EQ(*r.loss, 100.150999);
  // Far above the training line, a step alone is no progress.
  EXPECT_EQ(ScanProgress({"batch: 900", "Saving checkpoint to /ckpt", "Copied to /backup", "Done writing",
                          "mean loss: 0.5"}).step,
            std::nullopt);
}

TEST(ProgressScan, StepTimeFromAPrintedClockSinceTheStart) {
  std::vector<std::string> lines = {"[20000/300000] Train loss: 0.14954, Elapsed_time: 1291.66819",
                                    "[40000/300000] Train loss: 0.11850, Elapsed_time: 2585.50984"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 40000);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, (2585.50984 - 1291.66819) / 20000, 1e-9);
  // The clock named after its value.
  std::vector<std::string> after = {"Epoch  1, 13350/37527; xent:   9.69;  10192 s elapsed",
                                    "Epoch  1, 13400/37527; xent:   9.95;  10233 s elapsed"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport a = ScanProgress(after, grammar_only);
  EXPECT_EQ(a.step, 13400);
  ASSERT_TRUE(a.step_time_s.has_value());
  EXPECT_NEAR(*a.step_time_s, 41.0 / 50, 1e-9);
}

TEST(ProgressScan, StageOneKeepsAClockSinceTheStartBesideItsCounter) {
  // Boosting CLIs print the clock on its own line: 'N seconds elapsed,
  // finished iteration K'; stage 1 must keep it for the step time.
  std::vector<std::string> lines = {
      "[Info] Iteration:10, training l2 : 0.52", "[Info] 40.25 seconds elapsed, finished iteration 10",
      "[Info] Iteration:11, training l2 : 0.51", "[Info] 44.75 seconds elapsed, finished iteration 11"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 11);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, 4.5, 1e-9);
}

TEST(ProgressScan, AnEpochRecordsDurationIsNoStepTimeForTheTaggerEither) {
  std::vector<std::string> lines = {
      "Epoch: 01 | Time: 0m 31s", "\tTrain Loss: 4.102 | Train PPL:  60.4", "\t Val. Loss: 4.5 |  Val. PPL:  90.0",
      "Epoch: 02 | Time: 0m 30s", "\tTrain Loss: 3.911 | Train PPL:  49.9", "\t Val. Loss: 4.4 |  Val. PPL:  81.5"};
  ProgressReport r = ScanProgress(lines);  // with the embedded tagger
  EXPECT_FALSE(r.step.has_value());
  EXPECT_FALSE(r.step_time_s.has_value());
  EXPECT_DOUBLE_EQ(*r.loss, 3.911);
  // A time that names its batch is a step's, epoch record or not.
  std::vector<std::string> per_batch = {"Epoch: 0043 train_loss= 1.84603 val_loss= 3.18259 time per batch= 0.01108",
                                        "Epoch: 0044 train_loss= 1.86952 val_loss= 3.17415 time per batch= 0.01116"};
  ProgressReport b = ScanProgress(per_batch);
  ASSERT_TRUE(b.step_time_s.has_value());
  EXPECT_DOUBLE_EQ(*b.step_time_s, 0.01116);
  // Any key with a unit of seconds or longer is the epoch's duration too,
  // whatever a tagger makes of it; milliseconds ("bch(ms)") time a batch.
  Result<FieldTagger> eager = FieldTagger::Parse("kl=cost\tstep_time\t10\nkl=bch\tstep_time\t10\n");
  ASSERT_TRUE(eager.ok());
  ProgressScanOptions with_eager;
  with_eager.tagger = &*eager;
  ProgressReport c = ScanProgress({"====> Epoch: 6024, cost 14.32 s", "====> Epoch: 6025, cost 14.33 s"}, with_eager);
  EXPECT_FALSE(c.step_time_s.has_value());
  ProgressReport d = ScanProgress({"epoch: 61 | bch(ms): 895.79 | loss: 0.38910"}, with_eager);
  ASSERT_TRUE(d.step_time_s.has_value());
  EXPECT_NEAR(*d.step_time_s, 0.89579, 1e-12);
}

TEST(ProgressScan, AnEpochSummarysTimeInTheRegionTimesNoStep) {
  std::vector<std::string> lines = {"2022-05-06 14:31:32,114 Epoch[099/100], Step[0100/0196], Avg Loss: 0.2832",
                                    "2022-05-06 14:32:54,787 ----- Epoch[099/100], Train Loss: 0.2908, time: 174.37",
                                    "2022-05-06 14:32:57,650 Epoch[100/100], Step[0000/0196], Avg Loss: 0.2471",
                                    "2022-05-06 14:34:26,250 Epoch[100/100], Step[0100/0196], Avg Loss: 0.2957",
                                    "2022-05-06 14:35:48,191 ----- Epoch[100/100], Train Loss: 0.2982, time: 173.40"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 100);
  EXPECT_EQ(r.total_steps, 196);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, 88.6 / 100, 1e-9);  // the stamps, not the epoch's 173.40 s
  EXPECT_TRUE(InterpretLine("----- Epoch[100/100], Train Loss: 0.2982, time: 173.40").epoch_as_step.has_value());
}

TEST(ProgressScan, ALineOfTheAnchorsOwnStepComesBeforeStepLessLines) {
  std::vector<std::string> lines = {"I0404 10:45:47.297338 27758 sgd_solver.cpp:105] Iteration 179960, lr = 1e-05",
                                    "I0404 10:45:53.668644 27758 solver.cpp:219] Iteration 179980 (3.13927 iter/s, "
                                    "6.37091s/20 iters), loss = 0.329813",
                                    "I0404 10:45:53.668695 27758 solver.cpp:238]     Train net output #3: rpn_cls_loss "
                                    "= 0.0170363 (* 1 = 0.0170363 loss)",
                                    "I0404 10:45:53.668705 27758 sgd_solver.cpp:105] Iteration 179980, lr = 1e-05"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport r = ScanProgress(lines, grammar_only);
  EXPECT_EQ(r.step, 179980);
  ASSERT_TRUE(r.loss.has_value());
  EXPECT_DOUBLE_EQ(*r.loss, 0.329813);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, 1 / 3.13927, 1e-9);
}

TEST(ProgressScan, AnEarlierEpochsSummaryLossIsNotTheStepsLoss) {
  std::vector<std::string> lines = {"Epoch 55/400 train: 100%|██████████| 2590/2590 [00:18<00:00, 138.01it/s]",
                                    "[SeqAR-Diffusion] Epoch 55/400 Train Loss: 0.0669 | Val Loss: 0.0698",
                                    "Epoch 56/400 train:  65%|██████▌   | 1695/2590 [00:12<00:06, 138.07it/s]"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport r = ScanProgress(lines, grammar_only);
  EXPECT_EQ(r.step, 1695);
  EXPECT_FALSE(r.loss.has_value());
  // A summary printed after the step records is still read (its epoch's).
  ProgressReport after = ScanProgress({lines[0], lines[1]}, grammar_only);
  EXPECT_EQ(after.step, 2590);
  ASSERT_TRUE(after.loss.has_value());
  EXPECT_DOUBLE_EQ(*after.loss, 0.0669);
}

TEST(ProgressScan, AnEpochLineHeadsTheIndentedRecordBelowIt) {
  std::vector<std::string> lines = {"Train Epoch: 69/70 ...", "    total_loss: 9.0127 time: 10m 8s",
                                    "Train Epoch: 70/70 ...", "    total_loss: 8.9992 time: 10m 8s",
                                    "Test Epoch: 70 ...",     "    ave: 95.5333"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport r = ScanProgress(lines, grammar_only);
  EXPECT_FALSE(r.step.has_value());
  EXPECT_FALSE(r.step_time_s.has_value());  // the epoch's 10m 8s is no step's
  ASSERT_TRUE(r.loss.has_value());
  EXPECT_DOUBLE_EQ(*r.loss, 8.9992);
}

TEST(ProgressScan, BareBarsAfterAnEvaluationAnnouncementAreNotTraining) {
  std::vector<std::string> lines = {
      "Epoch 30[3216/5011]: loss:0.02710, lr:0.00000, batch time:0.3112, data time:0.0003",
      "Epoch 30[4816/5011]: loss:0.01737, lr:0.00000, batch time:0.3103, data time:0.0002",
      "Epoch 30 training ends, total 99.33s",
      "Test on Epoch 30",
      "100%|█████████████████████████████████████████| 310/310 [00:31<00:00,  9.69it/s]",
      "Evaluation",
      "100%|██████████████████████████████████████████| 20/20 [00:00<00:00, 176.09it/s]",
      "mAP: 0.946737"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport r = ScanProgress(lines, grammar_only);
  EXPECT_EQ(r.step, 4816);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_DOUBLE_EQ(*r.step_time_s, 0.3103);
  // Without an announcement the bar is read.
  ProgressReport bar = ScanProgress({lines[1], lines[4]}, grammar_only);
  EXPECT_EQ(bar.step, 310);
  // Training resumed after the evaluation pass (another count) stays.
  ProgressReport resumed = ScanProgress(
      {"***** Running Evaluation *****", "  Num examples = 500", "100%|██████████| 63/63 [00:09<00:00,  6.61it/s]",
       "  5%|▌         | 100/1856 [04:16<13:02:24, 25.43s/it]"},
      grammar_only);
  EXPECT_EQ(resumed.step, 100);
  EXPECT_EQ(resumed.total_steps, 1856);
  EXPECT_FALSE(AnnouncesEvaluation(ScanLine("Downloading test set")));
  EXPECT_FALSE(AnnouncesEvaluation(ScanLine("val loss 0.3")));
}

TEST(ProgressScan, BoostingRoundsThatPrintOnlyAnEvaluationMetric) {
  std::vector<std::string> lines = {"[1300]\tvalidation_0-rmse:3.65841", "[1400]\tvalidation_0-rmse:3.65839",
                                    "[1500]\tvalidation_0-rmse:3.65873",
                                    "Stopping. Best iteration:", "[1093]\tvalidation_0-rmse:3.65815"};
  ProgressReport r = ScanProgress(lines);
  ASSERT_EQ(r.status, ProgressReport::Status::kOk);
  EXPECT_EQ(r.step, 1500);  // the repeat of the best round is no progress
  EXPECT_FALSE(r.loss.has_value());
}

TEST(ProgressScan, TheTaggerAloneReportsAStepItIsAlmostSureOf) {
  // No line the vocabulary reads as training, and none prints a loss or a
  // time: a climbing step the tagger is almost sure of (p >= 0.95) is
  // reported, unsure (confidence 0.5); a merely likely one (0.8) is not.
  std::vector<std::string> lines = {"Global-step 1543 --Accept update with alpha=1.0, kl=1.4588e-12",
                                    "Global-step 1545 --Accept update with alpha=1.0, kl=5.4803e-11"};
  Result<FieldTagger> sure = FieldTagger::Parse("kl=step\tstep\t20\n");
  Result<FieldTagger> likely = FieldTagger::Parse("kl=step\tstep\t4\n");  // p = e^4 / (e^4 + 9) = 0.86
  ASSERT_TRUE(sure.ok() && likely.ok());
  ProgressScanOptions o;
  o.tagger = &*sure;
  ProgressReport r = ScanProgress(lines, o);
  ASSERT_EQ(r.status, ProgressReport::Status::kOk);
  EXPECT_EQ(r.step, 1545);
  EXPECT_DOUBLE_EQ(r.confidence, 0.5);
  o.tagger = &*likely;
  EXPECT_EQ(ScanProgress(lines, o).status, ProgressReport::Status::kMissing);
}

TEST(ProgressScan, CoarseStampsStillTimeTheNewestInterval) {
  std::vector<std::string> lines = {"2024-01-05 15:20:48 step: 841, loss: 0.5", "2024-01-05 15:20:58 step: 861, loss: 0.5",
                                    "2024-01-05 15:21:07 step: 881, loss: 0.5"};
  ProgressScanOptions grammar_only;
  grammar_only.tagger = nullptr;
  ProgressReport r = ScanProgress(lines, grammar_only);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, 9.0 / 20, 1e-9);
}

TEST(ProgressScan, TheOuterEpochBarOfNestedBarsIsNotTheStep) {
  std::vector<std::string> lines = {"Iteration: 100%|██████████| 63/63 [00:11<00:00,  5.72it/s]",
                                    "Iteration: 100%|██████████| 63/63 [00:11<00:00,  5.69it/s]",
                                    "Epoch: 100%|██████████| 5/5 [00:57<00:00, 11.43s/it]"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 63);
  EXPECT_EQ(r.total_steps, 63);
  EXPECT_NEAR(*r.step_time_s, 1 / 5.69, 1e-9);
  EXPECT_FALSE(InterpretLine("Epoch: 100%|██████████| 5/5 [00:57<00:00, 11.43s/it, loss=0.3]").epoch_as_step.has_value());
}

TEST(ProgressScan, TheLineBelowAStepRecordIsReadAsItsTail) {
  std::vector<std::string> lines = {"INFO:absl:step = 2000, loss = 2.5", "INFO:absl:400.1 steps/sec",
                                    "INFO:absl:step = 3000, loss = 2.203988", "INFO:absl:403.487 steps/sec"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 3000);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, 1 / 403.487, 1e-12);
}

TEST(ProgressScan, StopsAfterNSamples) {
  std::vector<std::string> lines;
  for (int i = 0; i < 1000; ++i) lines.push_back("step " + std::to_string(i) + " | loss 1.0 | 0.5 s/step");
  ProgressScanStats stats;
  ProgressScanOptions o;
  o.samples = 10;
  ScanProgress(lines, o, &stats);
  EXPECT_EQ(stats.lines, 10);
}

TEST(ReverseLineReader, NewestFirstWithPartialAndCrlfAndEmpty) {
  std::string path = TempFile("rev", "a\r\nbb\n\nccc");
  auto reader = ReverseLineReader::Open(path);
  ASSERT_TRUE(reader.ok());
  std::vector<std::pair<std::string, int64_t>> got;
  std::string line;
  int64_t off;
  while (true) {
    auto more = reader->Next(&line, &off);
    ASSERT_TRUE(more.ok());
    if (!*more) break;
    got.push_back({line, off});
  }
  std::vector<std::pair<std::string, int64_t>> want = {{"ccc", 7}, {"", 6}, {"bb", 3}, {"a\r", 0}};
  EXPECT_EQ(got, want);
  auto empty = ReverseLineReader::Open(TempFile("empty", ""));
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(*empty->Next(&line, &off));
}

TEST(ReverseLineReader, GiantLineKeepsItsNewestBytesWithinBudget) {
  std::string giant(5u << 20, 'x');
  giant += "\r 45%|████▌     | 450/1000 [02:15<02:45,  3.33it/s, loss=0.5]";
  std::string path = TempFile("giant", "start\n" + giant + "\n");
  ReverseLineReader::Options o;
  o.max_line_bytes = 1u << 16;
  auto reader = ReverseLineReader::Open(path, o);
  ASSERT_TRUE(reader.ok());
  std::string line;
  int64_t off;
  ASSERT_TRUE(*reader->Next(&line, &off));
  EXPECT_EQ(line.size(), o.max_line_bytes);
  EXPECT_EQ(off, 6);
  ASSERT_TRUE(*reader->Next(&line, &off));
  EXPECT_EQ(line, "start");
  TrackOptions t;
  t.reader = o;
  auto r = TrackFile(path, t);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->report.step, 450);
  EXPECT_EQ(r->report.lines_used, (std::vector<int64_t>{1}));
}

TEST(TrackFile, FiftyMegabyteLineAndBinaryGarbageStayBounded) {
  // A tqdm bar refreshed with CR for days, never a newline: 50 MB on one line.
  std::string path = testing::TempDir() + "/bar50" + std::to_string(getpid());
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(4096, '\xff') << "\x00\x01 binary \xc3\x28 invalid utf-8\n";
    std::string seg = "\r 45%|████▌     | 450/1000 [02:15<02:45,  3.33it/s, loss=0.5]";
    for (size_t written = 0; written < (50u << 20); written += seg.size()) out << seg;
  }
  auto r = TrackFile(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->report.step, 450);
  TrackOptions capped;
  capped.reader.max_line_scan_bytes = 4 << 20;  // stop hunting for the line's start
  auto c = TrackFile(path, capped);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->report.step, 450);
  EXPECT_LT(c->bytes_read, 6 << 20);
  FollowerOptions fo;
  LogFollower follower(path, fo);
  std::vector<std::string> lines;
  ASSERT_TRUE(follower.Poll(&lines).ok());
  ASSERT_TRUE(follower.Poll(&lines).ok());
  ASSERT_GE(lines.size(), 1u);
  for (const auto& l : lines) EXPECT_LE(l.size(), fo.max_line_bytes);
  std::filesystem::remove(path);
}

TEST(TrackFile, ReadsOnlyTheTailAndNumbersLines) {
  std::string path = testing::TempDir() + "/big" + std::to_string(getpid());
  {
    std::ofstream out(path);
    for (int i = 0; i < 200000; ++i) out << "INFO noise line " << i << " nothing to see here\n";
    for (int i = 1; i <= 20; ++i) out << "iter " << i << ": loss 1.5, time 250.0ms\n";
  }
  auto r = TrackFile(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->report.step, 20);
  EXPECT_NEAR(*r->report.step_time_s, 0.25, 1e-12);
  EXPECT_LT(r->bytes_read, r->file_bytes / 50);
  EXPECT_EQ(r->report.lines_used.back(), 200019);
  EXPECT_FALSE(TrackFile(path + ".absent").ok());
  std::filesystem::remove(path);
}

// Issue 16 item 8: 669 random bytes were `status ok`, step 6 of 3.
TEST(ProgressEvidence, RandomBytesAreMissing) {
  std::mt19937 rng(16);
  std::uniform_int_distribution<int> byte(0, 255);
  int reported = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes(669, '\0');
    for (char& c : bytes) c = static_cast<char>(byte(rng));
    reported += ScanProgress(SplitLogText(bytes)).status == ProgressReport::Status::kOk;
  }
  EXPECT_EQ(reported, 0);
}

TEST(ProgressEvidence, AStepPastItsTotalIsNoReport) {
  ProgressReport r = ScanProgress({"epoch 1 step 5/3 loss 0.52", "epoch 1 step 6/3 loss 0.50"});
  EXPECT_EQ(r.status, ProgressReport::Status::kMissing);
  EXPECT_FALSE(r.step.has_value());
}

TEST(ProgressEvidence, ALoneFactPrintedOnceIsNoEvidence) {
  EXPECT_EQ(ScanProgress({"throughput: 1200 samples/s"}).status, ProgressReport::Status::kMissing);
  // Two facts of one record, or one layout printed twice, are.
  EXPECT_EQ(ScanProgress({"step 12 loss 0.5"}).status, ProgressReport::Status::kOk);
  EXPECT_EQ(ScanProgress({"train loss 0.61", "train loss 0.55"}).status, ProgressReport::Status::kOk);
}

TEST(ProgressEvidence, ABinaryFileWithProgressLikeStringsIsMissing) {
  std::string content;
  for (int i = 0; i < 200; ++i)
    content += i % 4 == 0 ? "step " + std::to_string(i) + "/1000 loss 0.5 2.0it/s\n"
                          : std::string("\x7f" "ELF\x02\x01\x01\0\0\0\x03\0>\0\x01\0\0\0\x10\x97\0\0", 22) + "\n";
  std::string path = TempFile("binary", content);
  auto r = TrackFile(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->report.status, ProgressReport::Status::kMissing);
  std::filesystem::remove(path);
}

TEST(ProgressEvidence, ANulPaddedCrashLogStillReports) {
  std::string content;
  for (int i = 1; i <= 20; ++i) content += "iter " + std::to_string(i) + ": loss 1.5, time 250.0ms\n";
  content += std::string(1 << 20, '\0');  // the blocks a crashed node never wrote
  std::string path = TempFile("nulpad", content);
  auto r = TrackFile(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->report.step, 20);
  std::filesystem::remove(path);
}

// Issue 16 item 7: a FIFO blocked open() forever. On failure the test opens
// the writing end itself, so that the blocked reader returns.
TEST(TrackFile, RefusesAFifoWithoutBlocking) {
  std::string path = testing::TempDir() + "/fifo" + std::to_string(getpid());
  std::filesystem::remove(path);
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  auto track = std::async(std::launch::async, [&] { return TrackFile(path).status(); });
  auto follow = std::async(std::launch::async, [&] {
    LogFollower follower(path, FollowerOptions());
    std::vector<std::string> lines;
    return follower.Poll(&lines);
  });
  for (auto* f : {&track, &follow}) {
    bool returned = f->wait_for(std::chrono::seconds(3)) == std::future_status::ready;
    EXPECT_TRUE(returned) << "open() blocked on a FIFO";
    if (!returned) close(open(path.c_str(), O_WRONLY));
    Status s = f->get();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("FIFO"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  }
  std::filesystem::remove(path);
}

TEST(SlowdownCheck, RatioOrUnknown) {
  std::vector<std::string> lines;
  for (int i = 0; i < 10; ++i) lines.push_back("step " + std::to_string(i) + " | loss 1 | 1000 samples/s");
  for (int i = 10; i < 20; ++i) lines.push_back("step " + std::to_string(i) + " | loss 1 | 600 samples/s");
  SlowdownResult r = SlowdownCheck(lines, 10);
  ASSERT_TRUE(r.ratio.has_value());
  EXPECT_NEAR(*r.ratio, 0.6, 1e-9);
  SlowdownResult few = SlowdownCheck(lines, 18);
  EXPECT_FALSE(few.ratio.has_value());
  std::vector<std::string> times;
  for (int i = 0; i < 6; ++i) times.push_back("iter " + std::to_string(i) + ": loss 1, time 100ms");
  for (int i = 6; i < 12; ++i) times.push_back("iter " + std::to_string(i) + ": loss 1, time 250ms");
  SlowdownResult t = SlowdownCheck(times, 6);
  ASSERT_TRUE(t.ratio.has_value());
  EXPECT_NEAR(*t.ratio, 0.4, 1e-9);
  EXPECT_EQ(t.basis, "steps/s (1 / step time)");
}

TEST(Evaluation, RealDevelopmentSetMeetsTheBar) {
  std::string path = std::string(SCHEDMATE_SHARED_DIR) + "/realdata/progress.jsonl";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent: skipping the real-log evaluation";
  auto cases = LoadTrackerCases(path);
  ASSERT_TRUE(cases.ok()) << cases.status().message();
  std::vector<CaseOutcome> outcomes;
  for (const auto& c : *cases)
    outcomes.push_back(EvaluateCase(c, [](const std::vector<std::string>& l, ProgressScanStats* s) {
      return ScanProgress(l, {}, s);
    }));
  TrackerEvalSummary s = Summarize(outcomes);
  EXPECT_GE(double(s.successes) / s.cases, 0.90);
  EXPECT_LE(s.rmsre_step_time, 0.15);
}

TEST(Evaluation, CountsStepTimesOffByMoreThanTwice) {
  auto report = [](std::optional<double> t) {
    return [t](const std::vector<std::string>&, ProgressScanStats*) {
      ProgressReport r;
      r.step_time_s = t;
      return r;
    };
  };
  TrackerCase c;
  c.log = "x";
  c.truth.step_time_s = 0.5;
  TrackerCase untimed;
  untimed.log = "x";
  std::vector<CaseOutcome> o = {EvaluateCase(c, report(0.9)), EvaluateCase(c, report(1.1)),
                                EvaluateCase(c, report(0.0005)), EvaluateCase(c, report(std::nullopt)),
                                EvaluateCase(untimed, report(2.0))};
  EXPECT_NEAR(*o[1].time_factor, 2.2, 1e-9);
  TrackerEvalSummary s = Summarize(o);
  EXPECT_EQ(s.time_cases, 4);
  EXPECT_EQ(s.time_off_2x, 2);  // 1.1 s and 0.5 ms; 0.9 s is within 2x, a null is withheld
  EXPECT_EQ(s.time_withheld, 1);
  EXPECT_EQ(s.time_unfounded, 1);
}

TEST(Evaluation, BadDatasetNamesFileAndLine) {
  std::string path = TempFile("bad.jsonl", "{\"id\":\"a\",\"log\":\"x\",\"truth\":{}}\n{\"id\": 3}\n");
  auto r = LoadTrackerCases(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(":2"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace schedmate
