// The Tracker's scan of a whole log (ScanProgress): which records are
// training, when a printed time is a clock or a step time, and what the
// field tagger may and may not report.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/str_format.h"
#include "tracker/progress_scan.h"

namespace schedmate {
namespace {

TEST(ProgressScan, TimeThatGrowsWithTheStepIsAClock) {
  // "time" climbing by ~0.75 s a step at every record: a clock since the start.
  std::vector<std::string> clock;
  for (int i = 0; i < 6; ++i)
    clock.push_back(StrFormat("[%3d/273] time: %.4f, loss: 1.39", 114 + i, 295.3 + 0.75 * i + 0.01 * (i % 2)));
  ProgressReport a = ScanProgress(clock);
  ASSERT_TRUE(a.step_time_s);
  EXPECT_NEAR(*a.step_time_s, 0.74, 0.02);
  // Stamped: three intervals suffice when the stamps grew as much.
  std::vector<std::string> stamped = {
      "2022-11-08 11:14:32,333 epoch 1 - iter 122/1227 - loss 0.93 - time (sec): 5.65",
      "2022-11-08 11:14:37,495 epoch 1 - iter 244/1227 - loss 0.74 - time (sec): 10.81",
      "2022-11-08 11:14:42,687 epoch 1 - iter 366/1227 - loss 0.64 - time (sec): 16.01",
      "2022-11-08 11:14:47,662 epoch 1 - iter 488/1227 - loss 0.60 - time (sec): 20.98"};
  ProgressReport b = ScanProgress(stamped);
  ASSERT_TRUE(b.step_time_s);
  EXPECT_NEAR(*b.step_time_s, 4.97 / 122, 1e-4);
  // A per-step time that wanders, or creeps by uneven amounts, stays as printed.
  std::vector<std::string> wander;
  for (int i = 0; i < 6; ++i)
    wander.push_back(StrFormat("step %d time: %.3f loss: 2.0", 10 * i, 0.5 + (i % 2 ? 0.02 : 0.0)));
  ProgressReport c = ScanProgress(wander);
  ASSERT_TRUE(c.step_time_s);
  EXPECT_NEAR(*c.step_time_s, 0.52, 1e-9);
  std::vector<std::string> creep;
  for (double t : {0.50, 0.51, 0.53, 0.60, 0.61, 0.70})
    creep.push_back(StrFormat("step %zu time: %.2f loss: 2.0", 10 * creep.size(), t));
  ProgressReport d = ScanProgress(creep);
  ASSERT_TRUE(d.step_time_s);
  EXPECT_NEAR(*d.step_time_s, 0.70, 1e-9);
}

TEST(ProgressScan, AnEpochCounterIsNotTheTaggersStep) {
  std::vector<std::string> log;
  for (int e = 40; e < 48; ++e)
    log.push_back(StrFormat("2023-01-02 03:%02d:11,000 - run - INFO - Training Epoch:[%d/300]\t loss=%.4f\t lr=0.000100\t epoch_time=%.3f",
                            e, e, 10.5 - 0.01 * e, 140.0 + e % 3));
  ProgressReport r = ScanProgress(log);
  EXPECT_FALSE(r.step.has_value());
  ASSERT_TRUE(r.loss);
  EXPECT_NEAR(*r.loss, 10.5 - 0.47, 1e-9);
}

TEST(ProgressScan, AnEpochCounterIsNotTheStepOfTheTaggerAlone) {
  // Nothing the vocabulary reads as training: the tagger reading a repeated
  // layout alone may not report an epoch counter as the step either.
  std::vector<std::string> log;
  for (int e = 118; e < 135; ++e)
    log.push_back(StrFormat("22-12-06 08:%02d:%02d.804 - INFO: End of epoch %d / 500000 \t Time Taken: 5.%04d sec",
                            46 + (e - 118) / 12, (e - 118) * 5 % 60, e, 622 + 37 * (e % 5)));
  ProgressReport r = ScanProgress(log);
  EXPECT_FALSE(r.step.has_value());
  EXPECT_FALSE(r.total_steps.has_value());
}

TEST(ProgressScan, ATimePerEpochIsNoStepTime) {
  std::vector<std::string> log;
  for (int i = 20; i < 26; ++i)
    log.push_back(StrFormat("03-14 10:20:%02d Epoch 0/7 itr %d/3000: lr: 0.0001 speed: 0.%02d 0.%02dh/epoch loss_a: 0.31 loss_b: 0.17",
                            i, i, 70 + i % 3, 68 + i % 3));
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 25);
  EXPECT_LT(r.step_time_s.value_or(0), 60);  // never 0.7 h read as seconds per step
}

TEST(ProgressScan, ARunningAverageThatCreepsUpIsNoClock) {
  // A mean over all steps so far grows by millionths: not a clock.
  std::vector<std::string> log;
  for (int i = 0; i < 6; ++i)
    log.push_back(StrFormat("json_stats: {\"iter\": %d, \"loss\": \"5.4\", \"time\": \"%.6f\"}", 29140 + 20 * i,
                            0.239990 + 0.000005 * i));
  ProgressReport r = ScanProgress(log);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 0.240015, 1e-9);
}

TEST(ProgressScan, ACounterWhoseTotalClimbsCountsTheSteps) {
  // "Batch 4/N": epoch 4, batch N, printed by three ranks each.
  std::vector<std::string> log;
  const char* stamps[2][3] = {{"10:47:07,107", "10:47:16,614", "10:47:22,712"},
                              {"10:49:20,301", "10:49:20,315", "10:49:20,438"}};
  int ranks[2][3] = {{0, 1, 2}, {2, 1, 0}};
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 3; ++k)
      log.push_back(StrFormat("2023-01-30 %s DEBUG TRAIN Batch 4/%d loss %.4f lr 0.00032 rank %d", stamps[r][k],
                              1700 + 100 * r, 20.0 + k, ranks[r][k]));
  ProgressReport p = ScanProgress(log);
  EXPECT_EQ(p.step, 1800);
  EXPECT_FALSE(p.total_steps.has_value());
  // Timed by one rank: rank 0's records, 133.331 s for 100 batches.
  ASSERT_TRUE(p.step_time_s);
  EXPECT_NEAR(*p.step_time_s, 1.33331, 1e-6);
  // A fixed total stays one.
  std::vector<std::string> fixed = {"step 10/500 loss 2.0 time 0.5", "step 20/500 loss 1.9 time 0.5"};
  EXPECT_EQ(ScanProgress(fixed).total_steps, 500);
}

TEST(ProgressScan, ALossNamespaceAndAnEvaluationLeaf) {
  // A multi-line record: the leaf under "loss/" names the loss, "time/val"
  // is one clock of the record, not an evaluation record.
  std::vector<std::string> log = {"[batch=3/20]:",
                                  "         Train time/batch: 2",
                                  "         Train memory/allocated_mem: 1.4586",
                                  "         Train loss/train/total: 9.8765",
                                  "         Train loss/train/ce: 9.1",
                                  "         Train time/train: 0.0073",
                                  "         Train time/val: 0.0000"};
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 3);
  EXPECT_EQ(r.total_steps, 20);
  ASSERT_TRUE(r.loss);
  EXPECT_DOUBLE_EQ(*r.loss, 9.8765);
  EXPECT_FALSE(InterpretLine("step 4 losses/val/total: 1.2 lr: 0.1").loss.has_value());
}

TEST(ProgressScan, AnEpochNumberIsNeverTheTaggersTime) {
  // "Ep N" beside the step climbs by 0 or 1 every 20 steps: no interval time.
  std::vector<std::string> log = {"Ep 2 (Step 000080): Train loss 0.810, Val loss 0.905",
                                  "Ep 2 (Step 000100): Train loss 0.774, Val loss 0.880",
                                  "Ep 3 (Step 000120): Train loss 0.702, Val loss 0.861",
                                  "Ep 3 (Step 000140): Train loss 0.655, Val loss 0.842"};
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 140);
  EXPECT_FALSE(r.step_time_s.has_value());
}

TEST(ProgressScan, AStampEndingTheLineTimesTheSteps) {
  std::vector<std::string> log = {"  It: [100/500]  loss_total 2.50  [2024-01-05 10:00:00]",
                                  "  It: [200/500]  loss_total 2.40  [2024-01-05 10:03:20]",
                                  "  It: [300/500]  loss_total 2.30  [2024-01-05 10:06:40]"};
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 300);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 2.0, 1e-9);
}

TEST(ProgressScan, EvaluationColumnsOfAStepLessRecord) {
  // No step, the training loss and a test column: a training record.
  std::vector<std::string> log = {"Round:  1 | train loss: 0.8125 | test accuracy: 0.61",
                                  "Round:  1 | train loss: 0.7250 | test accuracy: 0.66",
                                  "Round:  1 | train loss: 0.6375 | test accuracy: 0.70"};
  ProgressReport r = ScanProgress(log);
  ASSERT_TRUE(r.loss);
  EXPECT_DOUBLE_EQ(*r.loss, 0.6375);
  // A test record is still one.
  EXPECT_TRUE(InterpretLine("test accuracy: 0.70, test loss: 0.61").is_eval);
  // Step records that print a validation loss beside the training one stay
  // the run's records next to a step-less epoch summary.
  std::vector<std::string> steps = {"Step: 30, Loss: 2.5, Val Loss: 2.7, Tokens/s: 900.5",
                                    "Epoch 1 | Train Loss: 2.6 | Val Loss: 2.8 | Time: 10.50s",
                                    "Step: 60, Loss: 2.25, Val Loss: 2.6, Tokens/s: 1100.25",
                                    "Epoch 2 | Train Loss: 2.3 | Val Loss: 2.65 | Time: 8.25s"};
  ProgressReport s = ScanProgress(steps);
  EXPECT_EQ(s.step, 60);
  ASSERT_TRUE(s.loss);
  EXPECT_DOUBLE_EQ(*s.loss, 2.25);
}

TEST(ProgressScan, FinishedBarsBackToBackAreNotTraining) {
  std::vector<std::string> log = {
      "Round 2 | Step 00140 | Loss 0.5120 | Time 0.8010 | Speed (samples/sec) 320.50",
      "Round 2 | Step 00160 | Loss 0.4980 | Time 0.7990 | Speed (samples/sec) 321.25",
      "Round time: 130.2",
      "100%|##########| 2210/2210 [00:44<00:00, 50.20it/s]",
      "100%|##########| 2210/2210 [00:51<00:00, 43.10it/s]",
      "Accuracy 0.71"};
  for (auto& l : log) {  // draw the bars as tqdm does
    size_t at = l.find("##########");
    if (at != std::string::npos) l.replace(at, 10, "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588");
  }
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 160);
  EXPECT_FALSE(r.total_steps.has_value());
  // Alone, finished bars are still read.
  std::vector<std::string> bars(log.begin() + 3, log.begin() + 5);
  EXPECT_EQ(ScanProgress(bars).step, 2210);
}

TEST(ProgressScan, ARateOfOneDigitDefersToTheStamps) {
  // 0.1 steps/s is anything from 0.05 to 0.15: the stamps time 10 steps in 150 s.
  std::vector<std::string> log = {
      "I0301 10:00:00.000000 1234 loop.py:80] train | step:    50 | steps/sec:    0.1 | loss: 0.61",
      "I0301 10:02:30.000000 1234 loop.py:80] train | step:    60 | steps/sec:    0.1 | loss: 0.58",
      "I0301 10:05:00.000000 1234 loop.py:80] train | step:    70 | steps/sec:    0.1 | loss: 0.55"};
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 70);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 15.0, 1e-6);
  // Printed to more digits the rate stands.
  std::vector<std::string> fine = log;
  for (auto& l : fine) l.replace(l.find("0.1 |"), 3, "0.032");
  ProgressReport p = ScanProgress(fine);
  ASSERT_TRUE(p.step_time_s);
  EXPECT_NEAR(*p.step_time_s, 31.25, 1e-6);
  // A one-digit rate above 2 is close enough to stand.
  std::vector<std::string> four = log;
  for (auto& l : four) l.replace(l.find("0.1 |"), 3, "0.07");
  ProgressReport f = ScanProgress(four);
  ASSERT_TRUE(f.step_time_s);
  EXPECT_NEAR(*f.step_time_s, 1 / 0.07, 1e-6);
  // Stamps that disagree with the print beyond its rounding are not the steps' clock.
  std::vector<std::string> off = log;
  for (auto& l : off) l.replace(l.find("0.1 |"), 3, "0.2");
  ProgressReport q = ScanProgress(off);
  ASSERT_TRUE(q.step_time_s);
  EXPECT_NEAR(*q.step_time_s, 5.0, 1e-6);
}

TEST(ProgressScan, ATimedValueIsNeverTheTaggersLoss) {
  // "cost 9.53 s" is the epoch's duration, not a loss.
  std::vector<std::string> log = {"2024-05-02 10:00:00,100\tmodel\tINFO\t====> Epoch: 120, cost 9.52 s",
                                  "2024-05-02 10:00:09,620\tmodel\tINFO\t====> Epoch: 121, cost 9.50 s",
                                  "2024-05-02 10:00:19,150\tmodel\tINFO\t====> Epoch: 122, cost 9.53 s"};
  ProgressReport r = ScanProgress(log);
  EXPECT_FALSE(r.loss.has_value());
}

TEST(ProgressScan, OfTwoFinishedBarsTheOlderIsTraining) {
  // Every epoch: the train loader's bar, the eval loader's bar, a summary.
  std::string bar = "100%|\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588| 9/9 ";
  std::vector<std::string> log = {bar + "[00:01<00:00,  8.00it/s]", bar + "[00:00<00:00, 20.00it/s]",
                                  "Epoch 3 | train loss 0.51 | eval loss 0.55 | train ppl 1.67",
                                  bar + "[00:01<00:00,  8.00it/s]", bar + "[00:00<00:00, 20.00it/s]",
                                  "Epoch 4 | train loss 0.47 | eval loss 0.53 | train ppl 1.61"};
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 9);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 0.125, 1e-9);
}


TEST(ProgressScan, ATimeWordAndAStepNounNameAStepTime) {
  ProgressScanOptions vocabulary_only;
  vocabulary_only.tagger = nullptr;
  // "time per batch" in an epoch-level record (no batch counter): still a
  // batch's time, not the epoch's.
  std::vector<std::string> epochs;
  for (int e = 42; e <= 44; ++e)
    epochs.push_back(StrFormat("Epoch: %04d train_loss= 1.8%d val_loss= 3.17 time per batch= 0.011%d", e, e % 10,
                               e % 10));
  ProgressReport a = ScanProgress(epochs, vocabulary_only);
  ASSERT_TRUE(a.step_time_s);
  EXPECT_NEAR(*a.step_time_s, 0.0114, 1e-6);
  // "itr" abbreviates the iteration: "s/itr" is seconds per step.
  ProgressLine p = InterpretLine("Epoch 0/7 itr 31/3489: lr: 0.0001 speed: 0.71s/itr loss: 0.31");
  EXPECT_EQ(p.step, 31);
  ASSERT_TRUE(p.step_time_s);
  EXPECT_NEAR(*p.step_time_s, 0.71, 1e-9);
  // A time word under the step noun is a rate: "step/sec" stays steps per second.
  ProgressLine r = InterpretLine("epoch=1 step=350 lr=0.00086 loss=0.2124 step/sec=4.0");
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 0.25, 1e-9);
}

TEST(ProgressLine, AWordOfTheWholeNamesTheWholeLoss) {
  // Parts of the loss and their total: the total is the loss.
  ProgressLine a = InterpretLine("INFO Train step:1200/5000,Loc Loss: 0.25,Cls Loss: 0.68,Tot Loss: 0.47");
  ASSERT_TRUE(a.loss);
  EXPECT_DOUBLE_EQ(*a.loss, 0.47);
  ProgressLine b = InterpretLine("Steps : 3005, Gen Loss Total : 25.66, Mel-Spec. Error : 0.41");
  ASSERT_TRUE(b.loss);
  EXPECT_DOUBLE_EQ(*b.loss, 25.66);
  // An evaluation's total is none.
  ProgressLine c = InterpretLine("step 40, val total loss 0.9");
  EXPECT_FALSE(c.loss && *c.loss == 0.9);
}

TEST(ProgressScan, ARecordJustBelowAnEvaluationAnnouncementIsTheEvaluations) {
  // Training and evaluation print records of one shape; the evaluation's
  // follows the line that announces it.
  std::vector<std::string> log;
  for (int e = 1; e <= 3; ++e) {
    log.push_back(StrFormat("epoch: %d,  loss is: 0.%d1, acc is: 0.9", e, 5 - e));
    log.push_back("Running evaluation ...");
    log.push_back(StrFormat("epoch: %d,  loss is: 0.%d9, acc is: 0.8", e, 6 - e));
    log.push_back("back to training");
  }
  ProgressReport r = ScanProgress(log);
  ASSERT_TRUE(r.loss);
  EXPECT_DOUBLE_EQ(*r.loss, 0.21);
}

TEST(ProgressScan, AWholeRunsDurationAfterTheRecordsTimesItsSteps) {
  ProgressScanOptions vocabulary_only;
  vocabulary_only.tagger = nullptr;
  // No step time printed; the notebook's "Wall time" closes the run: 75 s
  // over 150 + 100 steps (the second epoch's 100th).
  std::vector<std::string> log = {"Epoch : 1/2, Iter : 50/150,  Loss: 0.61", "Epoch : 1/2, Iter : 100/150,  Loss: 0.43",
                                  "Epoch : 2/2, Iter : 50/150,  Loss: 0.32", "Epoch : 2/2, Iter : 100/150,  Loss: 0.21"};
  EXPECT_FALSE(ScanProgress(log, vocabulary_only).step_time_s);
  log.push_back("CPU times: user 2min 2s, sys: 3.5 s, total: 2min 5s");
  log.push_back("Wall time: 1min 15s");
  ProgressReport r = ScanProgress(log, vocabulary_only);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 0.3, 1e-9);
  // Too few steps for the set-up not to weigh in: no average.
  std::vector<std::string> short_run = {"step: 30/64 loss: 0.2", "step: 64/64 loss: 0.1", "Wall time: 17min 51s"};
  EXPECT_FALSE(ScanProgress(short_run, vocabulary_only).step_time_s);
}

TEST(ProgressScan, StampsThatContradictAPrintedTimeByFarTimeTheStep) {
  ProgressScanOptions vocabulary_only;
  vocabulary_only.tagger = nullptr;
  // A time as long as the stamps' interval of 500 steps timed the interval.
  std::vector<std::string> interval;
  for (int i = 1; i <= 3; ++i)
    interval.push_back(StrFormat("[2024-03-01 10:%02d:%02d] step %d | loss 9.1 | time %.2fs", (450 * i) / 60,
                                 (450 * i) % 60, 500 * i, 450.2));
  ProgressReport a = ScanProgress(interval, vocabulary_only);
  ASSERT_TRUE(a.step_time_s);
  EXPECT_NEAR(*a.step_time_s, 450.2 / 500, 1e-9);
  // Too long for a step and not the interval's length either: withheld.
  std::vector<std::string> neither;
  for (int i = 1; i <= 3; ++i)
    neither.push_back(StrFormat("[2024-03-01 10:%02d:%02d] step %d | loss 9.1 | time 20.00s", (45 * i) / 60,
                                (45 * i) % 60, 100 * i));
  EXPECT_FALSE(ScanProgress(neither, vocabulary_only).step_time_s.has_value());
  // A component's time thousands of times shorter than the stamps' step.
  std::vector<std::string> component;
  for (int i = 1; i <= 3; ++i)
    component.push_back(StrFormat("2024-03-01 10:%02d:%02d,%03d INFO: step %d, loss=2.1, iter_time=6.1e-05",
                                  (45 * i) / 60, (45 * i) % 60, 7 * i, 100 * i));
  ProgressReport b = ScanProgress(component, vocabulary_only);
  ASSERT_TRUE(b.step_time_s);
  EXPECT_NEAR(*b.step_time_s, 0.45, 1e-3);
  // Stamps too coarse to time the steps (1 s apart for 10 steps) contradict nothing.
  std::vector<std::string> coarse;
  for (int i = 1; i <= 4; ++i)
    coarse.push_back(StrFormat("2024-03-01 10:00:0%d INFO: step %d, loss=2.1, iter_time=0.01", 3 * i, 10 * i));
  ProgressReport c = ScanProgress(coarse, vocabulary_only);
  ASSERT_TRUE(c.step_time_s);
  EXPECT_NEAR(*c.step_time_s, 0.01, 1e-12);
  // A step rate far below the stamps' is read as printed (a rate is no interval's time).
  std::vector<std::string> rate;
  for (int i = 1; i <= 3; ++i)
    rate.push_back(StrFormat("2020-07-17 07:%02d:%02d | INFO | num_updates=%d, loss=9.2, ups=0.04", 10 + (28 * i) / 60,
                             (28 * i) % 60, 100 * i));
  ProgressReport d = ScanProgress(rate, vocabulary_only);
  ASSERT_TRUE(d.step_time_s);
  EXPECT_NEAR(*d.step_time_s, 25, 1e-9);
  // Stamps that disagree among themselves (a block-buffered pipe stamped as
  // it is read: records in bursts) contradict nothing.
  std::vector<std::string> bursts;
  for (int i = 0; i < 6; ++i)
    bursts.push_back(StrFormat("2024-03-01 10:00:%02d.%03d step %d loss 2.3 iter_time 0.5s", i < 3 ? 0 : 10,
                               100 + 50 * (i % 3), 10 * (i + 1)));
  ProgressReport e = ScanProgress(bursts, vocabulary_only);
  ASSERT_TRUE(e.step_time_s);
  EXPECT_NEAR(*e.step_time_s, 0.5, 1e-12);
  // Bursts of 20 records under one stamp every 20 s, the newest burst one
  // record: the intervals between bursts agree, but they time the flushes.
  std::vector<std::string> flushed;
  for (int step = 1; step <= 61; ++step)
    flushed.push_back(StrFormat("2026-01-01 10:%02d:%02d.000 | step %d | loss 2.0 | time 1.00s", ((step - 1) / 20) * 20 / 60,
                                ((step - 1) / 20) * 20 % 60, step));
  ProgressReport f = ScanProgress(flushed, vocabulary_only);
  ASSERT_TRUE(f.step_time_s);
  EXPECT_NEAR(*f.step_time_s, 1.0, 1e-12);
}

TEST(ProgressScan, TheFinerOfAClockAndAStampTimesTheRecords) {
  // Stamps in milliseconds beside a whole-second clock: the stamps time the
  // step, and a printed rate forty times faster than they is no step time.
  std::vector<std::string> lines = {
      "[INFO|t.py:9] 2024-05-26 14:56:01,107 >> Step [2/5],Elapsed Time: 00:00:56,Speed: 28.17 steps/sec",
      "[INFO|t.py:9] 2024-05-26 14:56:04,294 >> Step [3/5],Elapsed Time: 00:00:59,Speed: 19.84 steps/sec",
      "[INFO|t.py:9] 2024-05-26 14:56:06,884 >> Step [4/5],Elapsed Time: 00:01:02,Speed: 15.53 steps/sec"};
  ProgressReport r = ScanProgress(lines);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 2.59, 1e-6);
}

TEST(ProgressScan, AnOuterBarWhoseStepLastsAWholeInnerBarCountsEpochs) {
  // Nested tqdm: the outer bar's 120.5 s a step is the inner bar's 500 steps at 4.2/s (119 s).
  std::vector<std::string> lines = {
      "Epoch 0: 100%|██████████| 500/500 [02:00<00:00,  4.15batch/s, loss=0.31]",
      "Epoch 1: 100%|██████████| 500/500 [01:59<00:00,  4.20batch/s, loss=0.22]",
      "Fitting: 100%|██████████| 2/2 [04:01<00:00, 120.50s/epoch]"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 500);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 1 / 4.20, 1e-9);
  EXPECT_NEAR(r.loss.value_or(0), 0.22, 1e-9);
  // An epoch bar alone (nothing it could nest) stays the record.
  ProgressReport alone = ScanProgress({"Fitting:  65%|██████▌   | 98/150 [18:47:34<9:58:18, 690.35s/epoch, loss=-1.01]"});
  EXPECT_EQ(alone.step, 98);
}

TEST(ProgressScan, ProgressOfNestedBarsCountsTheOuterBarsEpochs) {
  // Nested tqdm mid-run: an "Epoch: 2/5" bar (its counter counts epochs, so
  // it is no step) over finished inner bars of 1000 iterations. The step
  // stays the inner bar's; progress and ETA count the epochs.
  std::vector<std::string> lines = {
      "Epoch:   0%|          | 0/5 [00:00<?, ?it/s]",
      "Iteration: 100%|██████████| 1000/1000 [05:00<00:00,  3.33it/s]",
      "Epoch:  20%|██        | 1/5 [05:00<20:00, 300.00s/it]",
      "Iteration: 100%|██████████| 1000/1000 [05:00<00:00,  3.33it/s]",
      "Epoch:  40%|████      | 2/5 [10:00<15:00, 300.00s/it]"};
  ProgressReport between = ScanProgress(lines);
  EXPECT_EQ(between.step, 1000);
  EXPECT_EQ(between.total_steps, 1000);
  ASSERT_TRUE(between.progress_fraction && between.eta_s);
  EXPECT_NEAR(*between.progress_fraction, 2.0 / 5, 1e-9);  // the finished inner bar is in the 2 epochs done
  EXPECT_NEAR(*between.eta_s, 3 * 1000 / 3.33, 1e-6);
  // Inside the third epoch: its inner bar is newer than the outer line.
  lines.push_back("Iteration:  25%|██▌       | 250/1000 [01:15<03:45,  3.33it/s]");
  ProgressReport inside = ScanProgress(lines);
  EXPECT_EQ(inside.step, 250);
  ASSERT_TRUE(inside.progress_fraction && inside.eta_s);
  EXPECT_NEAR(*inside.progress_fraction, (2 * 1000 + 250) / 5000.0, 1e-9);
  EXPECT_NEAR(*inside.eta_s, (5000 - 2250) / 3.33, 1e-6);
  // The outer bar read as a step and dropped by its duration (s/epoch) counts epochs too.
  ProgressReport fitting = ScanProgress({"Epoch 0: 100%|██████████| 500/500 [02:00<00:00,  4.15batch/s, loss=0.31]",
                                         "Epoch 1: 100%|██████████| 500/500 [01:59<00:00,  4.20batch/s, loss=0.22]",
                                         "Fitting:  50%|█████     | 2/4 [04:01<04:01, 120.50s/epoch]"});
  EXPECT_EQ(fitting.step, 500);
  ASSERT_TRUE(fitting.progress_fraction);
  EXPECT_NEAR(*fitting.progress_fraction, 0.5, 1e-9);
  // One bar counting steps under an epoch header line that is no bar: per epoch, as before.
  ProgressReport single = ScanProgress({"Epoch 2/5", "Iteration:  25%|██▌       | 250/1000 [01:15<03:45,  3.33it/s]"});
  ASSERT_TRUE(single.progress_fraction);
  EXPECT_NEAR(*single.progress_fraction, 0.25, 1e-9);
}

TEST(ProgressScan, RecordsOfAnAnnouncedEvaluationPassAreNotTraining) {
  // The evaluation pass prints records in the training layout, of another
  // count, below a line announcing it: the training record stays the last
  // one before it, also while the evaluation is still running.
  std::vector<std::string> lines = {
      "step 380/400 - loss: 0.4210 - acc: 0.8812 - 120ms/step",
      "step 390/400 - loss: 0.4175 - acc: 0.8820 - 121ms/step",
      "step 400/400 - loss: 0.4102 - acc: 0.8825 - 119ms/step",
      "save checkpoint at ./output/3",
      "Eval begin...",
      "step 10/50 - loss: 0.5312 - acc: 0.8411 - 45ms/step",
      "step 20/50 - loss: 0.5120 - acc: 0.8460 - 44ms/step",
      "step 30/50 - loss: 0.5275 - acc: 0.8433 - 46ms/step"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 400);
  EXPECT_EQ(r.total_steps, 400);
  EXPECT_NEAR(r.loss.value_or(0), 0.4102, 1e-12);
  EXPECT_NEAR(r.step_time_s.value_or(0), 0.119, 1e-12);
  // Training resumed after the pass (the next epoch's records) stays the record.
  std::vector<std::string> resumed = lines;
  resumed.insert(resumed.end(), {"step 40/50 - loss: 0.5201 - acc: 0.8450 - 45ms/step",
                                 "step 50/50 - loss: 0.5198 - acc: 0.8451 - 45ms/step", "Eval samples: 2000",
                                 "Epoch 5/10", "step 10/400 - loss: 0.4011 - acc: 0.8840 - 118ms/step"});
  ProgressReport next = ScanProgress(resumed);
  EXPECT_EQ(next.step, 10);
  EXPECT_EQ(next.total_steps, 400);
  // Records of the training count below the announcement are training.
  ProgressReport same = ScanProgress({"step 10/400 - loss: 0.42 - 120ms/step", "Evaluation",
                                      "step 20/400 - loss: 0.41 - 120ms/step", "step 30/400 - loss: 0.40 - 120ms/step"});
  EXPECT_EQ(same.step, 30);
}

TEST(ProgressScan, ABarFinishedInsideEachTrainingStepIsNotTheInnerBar) {
  // Online RL: a generation bar finishes inside every 60 s training step. The
  // training bar counts steps, not epochs, and stays the record.
  std::vector<std::string> lines;
  for (int s = 28; s <= 32; ++s) {
    lines.push_back("Processed prompts: 100%|██████████| 512/512 [00:50<00:00, 10.24it/s, est. speed input: 1500.00 toks/s]");
    lines.push_back(" 11%|█▏        | " + std::to_string(s) + "/250 [28:00<3:38:00, 60.00s/it]");
  }
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 32);
  EXPECT_EQ(r.total_steps, 250);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 60.0, 1e-9);
  // A finished data pass before a slow training bar: the same.
  ProgressReport e = ScanProgress({"Epoch 0: 100%|██████████| 500/500 [01:59<00:00, 4.20it/s]",
                                   "Training:   1%|▏         | 2/300 [04:01<9:58:00, 120.50s/it]",
                                   "Training:   1%|▏         | 3/300 [06:01<9:56:00, 120.50s/it]"});
  EXPECT_EQ(e.step, 3);
  EXPECT_EQ(e.total_steps, 300);
}

TEST(ProgressScan, AStepTimeTheCountedStepsCouldNotHaveTakenIsWithheld) {
  // 8.8 hours a step over 4,800 steps is five years: an estimate, no step time.
  std::vector<std::string> lines;
  for (int i = 0; i < 4; ++i)
    lines.push_back(StrFormat("Iter %d/120000 loss: %.4f lr=0.0003 iter_time: %.1fs", 4500 + 100 * i, 3.2 - 0.01 * i,
                              31500.0 + 100 * (i % 2)));
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 4800);
  EXPECT_FALSE(r.step_time_s.has_value());
  // A long step over few steps stands (2 h a step at step 40: 80 hours).
  ProgressReport slow =
      ScanProgress({"Iter 30/500 loss: 1.0 iter_time: 7210.0s", "Iter 40/500 loss: 0.9 iter_time: 7236.0s"});
  ASSERT_TRUE(slow.step_time_s);
  EXPECT_NEAR(*slow.step_time_s, 7236, 1e-6);
  ASSERT_TRUE(slow.eta_s);
  EXPECT_NEAR(*slow.eta_s, 460 * 7223.0, 1e-3);  // at the steady time, the mean of the two
  // At the bound the step time stands, but 119 more years of steps is no
  // run's ETA: the total or the time is not the run's.
  ProgressReport at = ScanProgress({"Iter 900/120000 loss: 1.0 iter_time: 31536.0s",
                                    "Iter 1000/120000 loss: 0.9 iter_time: 31536.0s"});
  ASSERT_TRUE(at.step_time_s);
  EXPECT_NEAR(*at.step_time_s, 31536, 1e-6);
  EXPECT_FALSE(at.eta_s.has_value());
  EXPECT_TRUE(at.progress_fraction.has_value());
}

TEST(ProgressScan, ATimeGrowingWithTheTaggersStepIsAClock) {
  // No step key the vocabulary knows ("cycle"): the tagger counts the steps,
  // and the "time" that grows by about 4,700 s a cycle is a clock.
  std::vector<std::string> lines;
  for (int i = 3; i <= 8; ++i) {
    int t = i * 4700 + 600 * (i % 2);
    lines.push_back(StrFormat("cycle %d  time %dh %02dm %02ds  loss 0.5%d", i, t / 3600, t % 3600 / 60, t % 60, i));
  }
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 8);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_NEAR(*r.step_time_s, 4100, 1e-6);
}

TEST(ProgressScan, ALoneDurationAfterTheRecordsTimesNoStep) {
  // A cell's or a run's duration printed once under the last record.
  ProgressReport r = ScanProgress({"iter 1990 | loss 0.1931 | lr 0.2", "iter 1999 | loss 0.1925 | lr 0.2", "time 384.07"});
  EXPECT_EQ(r.step, 1999);
  EXPECT_FALSE(r.step_time_s.has_value());
  // A lone rate is the step's ("403.487 steps/sec" under "step = 3000, loss = 2.2").
  ProgressReport rate = ScanProgress({"step = 2900, loss = 2.31", "step = 3000, loss = 2.20", "403.487 steps/sec"});
  ASSERT_TRUE(rate.step_time_s);
  EXPECT_NEAR(*rate.step_time_s, 1 / 403.487, 1e-9);
  // A rate named by its key rather than its unit is the step's too.
  ProgressReport keyed = ScanProgress({"INFO:tensorflow:loss = 2.31, step = 0", "INFO:tensorflow:loss = 1.92, step = 100",
                                       "INFO:tensorflow:global_step/sec: 4.56"});
  ASSERT_TRUE(keyed.step_time_s);
  EXPECT_NEAR(*keyed.step_time_s, 1 / 4.56, 1e-9);
}


TEST(ProgressScan, EpochCountingOnlyOverAPerEpochInnerBar) {
  // A bar naming its epoch beside a run-wide step counter: step/total.
  ProgressReport desc = ScanProgress({"Epoch 2/5:   0%|          | 0/1000 [00:00<?, ?it/s]",
                                      "step 1100/5000 | loss 0.512 | 0.30 s/step",
                                      "Epoch 2/5:  10%|█         | 100/1000 [00:30<04:30,  3.33it/s]",
                                      "step 1200/5000 | loss 0.498 | 0.30 s/step",
                                      "Epoch 2/5:  20%|██        | 200/1000 [01:00<04:00,  3.33it/s]",
                                      "step 1300/5000 | loss 0.487 | 0.30 s/step"});
  ASSERT_TRUE(desc.progress_fraction);
  EXPECT_NEAR(*desc.progress_fraction, 0.26, 1e-9);
  // An epoch bar over a step bar counting the whole run (never resets).
  ProgressReport run_wide = ScanProgress({"Epoch:   0%|          | 0/5 [00:00<?, ?it/s]",
                                          "Steps:  10%|█         | 500/5000 [02:30<22:30,  3.33it/s, loss=0.61]",
                                          "Steps:  20%|██        | 1000/5000 [05:00<20:00,  3.33it/s, loss=0.55]",
                                          "Epoch:  20%|██        | 1/5 [05:00<20:00, 300.00s/it]",
                                          "Steps:  30%|███       | 1500/5000 [07:30<17:30,  3.33it/s, loss=0.50]",
                                          "Steps:  40%|████      | 2000/5000 [10:00<15:00,  3.33it/s, loss=0.47]",
                                          "Epoch:  40%|████      | 2/5 [10:00<15:00, 300.00s/it]",
                                          "Steps:  45%|████▌     | 2250/5000 [11:15<13:45,  3.33it/s, loss=0.45]"});
  ASSERT_TRUE(run_wide.progress_fraction);
  EXPECT_NEAR(*run_wide.progress_fraction, 0.45, 1e-9);
  // An earlier (crashed) run's epoch bar over a resumed run's bar.
  ProgressReport resumed = ScanProgress({"Epoch:   0%|          | 0/2 [00:00<?, ?it/s]",
                                         "Iteration: 100%|██████████| 100/100 [00:30<00:00,  3.33it/s]",
                                         "Epoch:  50%|█████     | 1/2 [00:30<00:30, 30.00s/it]",
                                         "Traceback (most recent call last):",
                                         "RuntimeError: CUDA out of memory.",
                                         "Resuming from checkpoint",
                                         "Train:  30%|███       | 300/1000 [01:30<03:30,  3.33it/s, loss=0.41]"});
  ASSERT_TRUE(resumed.progress_fraction);
  EXPECT_NEAR(*resumed.progress_fraction, 0.3, 1e-9);
}

TEST(ProgressScan, AnIntervalsDurationOrAnEvaluationTimesNoSteps) {
  std::vector<std::string> lines;
  const char* losses[] = {"0.912", "0.801", "0.77", "0.74", "0.71", "0.69", "0.66", "0.64", "0.611", "0.602"};
  for (int i = 1; i <= 10; ++i) lines.push_back(std::to_string(50 * i) + "/500 - 1.6s - loss: " + losses[i - 1]);
  ProgressReport interval = ScanProgress(lines);
  EXPECT_EQ(interval.step, 500);
  if (interval.step_time_s) EXPECT_NEAR(*interval.step_time_s, 0.032, 1e-9);
  ProgressReport eval = ScanProgress({"Epoch 10/10", "19/19 - 3s - loss: 0.0275 - accuracy: 0.9843",
                                      "4/4 - 1s - loss: 0.0512 - accuracy: 0.9700"});
  if (eval.step_time_s) EXPECT_NEAR(*eval.step_time_s, 3.0 / 19, 1e-9);
  // Keras verbose=2 proper: one finished record per epoch.
  ProgressReport keras = ScanProgress({"Epoch 1/10", "19/19 - 3s - loss: 0.0475", "Epoch 2/10", "19/19 - 3s - loss: 0.0275"});
  ASSERT_TRUE(keras.step_time_s);
  EXPECT_NEAR(*keras.step_time_s, 3.0 / 19, 1e-9);
}


TEST(ProgressScan, AnAnnouncedEvaluationPassByByteOffsets) {
  // TrackFile (schedmate track) numbers lines by byte offset: the pass right
  // below the announcement is found as in ScanProgress.
  std::vector<std::string> lines = {
      "step 380/400 - loss: 0.4210 - acc: 0.8812 - 120ms/step",
      "step 390/400 - loss: 0.4175 - acc: 0.8820 - 121ms/step",
      "step 400/400 - loss: 0.4102 - acc: 0.8825 - 119ms/step",
      "save checkpoint at ./output/3",
      "Eval begin...",
      "step 10/50 - loss: 0.5312 - acc: 0.8411 - 45ms/step",
      "step 20/50 - loss: 0.5120 - acc: 0.8460 - 44ms/step",
      "step 30/50 - loss: 0.5275 - acc: 0.8433 - 46ms/step"};
  std::vector<int64_t> offsets;
  int64_t at = 0;
  for (const auto& l : lines) {
    offsets.push_back(at);
    at += static_cast<int64_t>(l.size()) + 1;
  }
  ProgressScan scan(ProgressScanOptions{});
  for (size_t i = lines.size(); i-- > 0;)
    if (!scan.Add(lines[i], offsets[i])) break;
  ProgressReport r = scan.Finish();
  EXPECT_EQ(r.step, 400);
  EXPECT_EQ(r.total_steps, 400);
}

}  // namespace
}  // namespace schedmate
