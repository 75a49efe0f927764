// Stage 2 line grammar: one table of real-looking lines from many
// frameworks (most of them not in the development set) and what a user
// expects the Tracker to read from each.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/str_format.h"
#include "tracker/field_scanner.h"
#include "tracker/key_vocabulary.h"
#include "tracker/progress_line.h"
#include "tracker/progress_scan.h"
#include "tracker/table_rows.h"

namespace schedmate {
namespace {

struct Expect {
  const char* name;
  const char* line;
  std::optional<int64_t> step, total;
  std::optional<double> step_time, loss, throughput;
  const char* unit = nullptr;
  bool training = true;
};

constexpr std::nullopt_t N = std::nullopt;

const Expect kCases[] = {
    {"a step noun with a position word", "2025-04-09 11:43:36,285  --INFO --the current batch 2000, loss:0.976",
     2000, N, N, 0.976, N},
    {"global over inner counter", "train | inner iter:   3/  8 | ppo epoch:  3/ 4 | global iter:     15/  5000| tot_loss: 3.21",
     15, 5000, N, 3.21, N},
    {"iters key", "        iters: 200, epoch: 5 | loss: 0.1428038", 200, N, N, 0.1428038, N},
    {"frames per second", "iter 5 loss 0.5 fps 8507", 5, N, N, 0.5, 8507, "frames/s"},
    {"epoch then batch counters, component losses", "[1/20][30/32]\tLoss_D: 0.0000\tLoss_G: 57.0740\tD(x): 1.0000",
     30, 32, N, N, N},
    {"lightning tqdm", "Epoch 3:  45%|████▌     | 352/782 [00:21<00:26, 16.40it/s, loss=0.512, v_num=1]",
     352, 782, 1 / 16.40, 0.512, N},
    {"lightning rich", "Epoch 0/9  ━━━━━━━━━━━━━━━━━━━━ 312/469 0:00:12 • 0:00:06 25.61it/s v_num: 0 train_loss: 0.543",
     312, 469, 1 / 25.61, 0.543, N},
    {"yolov5 (epoch counter first)",
     "      1/299      3.21G    0.05412    0.03214    0.01921        128        640:  45%|████▌     | 203/453 [01:12<01:29,  2.80it/s]",
     203, 453, 1 / 2.80, N, N},
    {"keras tf2 mid-epoch", "  45/1875 [>.............................] - ETA: 1:23 - loss: 0.5123 - accuracy: 0.8456",
     45, 1875, N, 0.5123, N},
    {"keras epoch end", "1875/1875 [==============================] - 6s 3ms/step - loss: 0.2977 - accuracy: 0.9137 - val_loss: 0.31",
     1875, 1875, 0.003, 0.2977, N},
    {"mmengine", "2023/05/01 10:00:00 - mmengine - INFO - Epoch(train)  [1][ 50/1000]  lr: 1.0000e-02  eta: 1:00:00  time: 0.3521  data_time: 0.0123  memory: 3456  loss: 1.2345",
     50, 1000, 0.3521, 1.2345, N},
    {"paddleclas", "[Train][Epoch 1/120][Iter: 50/1000]lr: 0.10000, top1: 0.01, loss: 6.9, batch_cost: 0.38s, reader_cost: 0.01, ips: 168.0 samples/s, eta: 12:41:00",
     50, 1000, 0.38, 6.9, 168.0, "samples/s"},
    {"deepspeed step", "[2023-05-01 10:00:00,123] [INFO] [logging.py:96:log_dist] [Rank 0] step=100, skipped=0, lr=[0.0001], mom=[(0.9, 0.95)]",
     100, N, N, N, N},
    {"custom pipes", "step 100 | loss 2.345 | lr 3.0e-4 | 1234.5 tokens/s | 0.45 s/step", 100, N, 0.45, 2.345, 1234.5, "tokens/s"},
    {"megatron ms", " iteration      100/    5000 | consumed samples:        12800 | elapsed time per iteration (ms): 812.3 | learning rate: 1.5E-04 | lm loss: 6.543210E+00 | loss scale: 65536.0 |",
     100, 5000, 0.8123, 6.54321, N},
    {"hf dict without step", "{'loss': 0.3412, 'grad_norm': 1.2, 'learning_rate': 1e-05, 'epoch': 1.27}", N, N, N, 0.3412, N},
    {"json with step", "{\"step\": 1200, \"loss\": \"2.5\", \"tokens_per_sec\": 5000}", 1200, N, N, 2.5, 5000, "tokens/s"},
    {"nan loss", "iter 3060: loss nan, time 1018.23ms, mfu 15.11%", 3060, N, 1.01823, NAN, N},
    {"fairseq ups", "epoch 001:    650 / 1891 loss=10.902, wps=53573, ups=0.5, num_updates=645", 650, 1891, 2.0, 10.902, 53573, "words/s"},
    {"tf slim", "INFO:tensorflow:global step 8: loss = 57.9715 (16.765 sec/step)", 8, N, 16.765, 57.9715, N},
    {"rate as a key with its unit", "epoch=1 step=350 lr=0.00086 loss=0.2124 step/sec=4.593 | ETA 00:07:08",
     350, N, 1 / 4.593, 0.2124, N},
    {"a parameter group's learning rate", "ep: 9, step: 881, lr_swin: 1.23e-05, max memory: 8.70 GB", 881, N, N, N, N},
    {"delta time", "json_stats: {\"_type\": \"train_iter\", \"dt\": 4.82072, \"dt_data\": 0.00632, \"iter\": \"100/159\", \"loss\": 2.48380}",
     100, 159, 4.82072, 2.4838, N},
    {"a time named by its unit", "completed step: 9, seconds: 5.667, TFLOP/s/device: 134.924, loss: 10.374",
     9, N, 5.667, 10.374, N},
    {"a step noun glued to its number", "epoch 0 iteration1300, Loss: 2.714, Train Steps/Sec: 0.00", 1300, N, N, 2.714, N},
    {"a bar without a total counts live", "step 1080 , total_loss: 1.3297, data_loss: 1.2343: : 1086it [01:06, 16.37it/s]",
     1086, N, 1 / 16.37, 1.3297, N},
    {"the bar's count over another counter", "Epoch #5: 50001it [00:40, 1228.67it/s, env_step=250000, len=200, loss=-0.010]",
     50001, N, 1 / 1228.67, -0.010, N},
    {"tf estimator rate only", "INFO:tensorflow:global_step/sec: 4", N, N, 0.25, N, N},
    {"torchtitan thousands", "[titan] 2026-02-24 19:46:19,145 - root - INFO - step:  5  loss:  7.07623  memory: 66.91GiB(37.51%)  tps: 10,007  tflops: 313.36",
     5, N, N, 7.07623, 10007, "tokens/s/GPU"},
    {"logger prefix before the key", "[2024-05-01 10:00:00,000] INFO iter 17: loss 2.0010, time 251.00ms, 1234.5 samples/s",
     17, N, 0.251, 2.001, 1234.5, "samples/s"},
    // Not training progress.
    {"nanogpt eval", "step 250: train loss 1.5440, val loss 1.7220", N, N, N, N, N, nullptr, false},
    {"fairseq valid", "| epoch 001 | valid on 'valid' subset | valid_loss 8.11425 | num_updates 600", N, N, N, N, N, nullptr, false},
    {"mmcv eval bar", "[>>>>>>>>>>>>>>>>>>>>>>>>>>>] 50/50, 163.1 task/s, elapsed: 0s, ETA:     0s", N, N, N, N, N, nullptr, false},
    {"lightning validation", "Validation DataLoader 0: 100%|██████████| 79/79 [00:01<00:00, 52.11it/s]", N, N, N, N, N, nullptr, false},
    {"download bar", "Downloading: 100%|██████████| 1.2G/1.2G [00:31<00:00, 40.1MB/s]", N, N, N, N, N, nullptr, false},
    {"pip", "Collecting torch==2.1.0", N, N, N, N, N, nullptr, false},
    {"keras epoch header", "Epoch 7/10", N, N, N, N, N, nullptr, false},
    {"nccl info", "node-3:2231:2231 [0] NCCL INFO Channel 00/02 :    0   1   2   3", N, N, N, N, N, nullptr, false},
};

bool Near(std::optional<double> got, std::optional<double> want) {
  if (!want) return !got;
  if (!got) return false;
  if (std::isnan(*want)) return std::isnan(*got);
  return std::fabs(*got - *want) <= 1e-6 * std::max(1.0, std::fabs(*want));
}

TEST(ProgressLine, TableOfFormats) {
  for (const Expect& e : kCases) {
    SCOPED_TRACE(e.name);
    ProgressLine p = InterpretLine(e.line);
    EXPECT_EQ(p.is_training, e.training);
    if (!e.training) continue;
    EXPECT_EQ(p.step, e.step);
    EXPECT_EQ(p.total_steps, e.total);
    EXPECT_TRUE(Near(p.step_time_s, e.step_time)) << (p.step_time_s ? *p.step_time_s : -1);
    EXPECT_TRUE(Near(p.loss, e.loss)) << (p.loss ? *p.loss : -1);
    EXPECT_TRUE(Near(p.throughput, e.throughput)) << (p.throughput ? *p.throughput : -1);
    if (e.unit) {
      EXPECT_EQ(p.throughput_unit, e.unit);
    }
  }
}

TEST(FieldScanner, TimestampsAndGluedRecords) {
  ScannedLine s = ScanLine("[2021-11-26 03:07:16,494] [INFO] step=5");
  ASSERT_TRUE(s.timestamp_s.has_value());
  EXPECT_NEAR(std::fmod(*s.timestamp_s, 86400.0), 3 * 3600 + 7 * 60 + 16.494, 1e-6);
  EXPECT_DOUBLE_EQ(s.timestamp_resolution_s, 0.001);
  auto parts = SplitGluedRecords("  8%|███| 1999/24128 [1:52:09<20:27:23,  3.33s/it][2021-11-26 03:07:16,494] [INFO] step=2000");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[1].substr(0, 5), "[2021");
  auto eta = SplitGluedRecords("[>>>] 50/50, 163.1 task/s, elapsed: 0s, ETA:     0s2021-07-14 13:52:36,901 - mmcls - INFO - x");
  ASSERT_EQ(eta.size(), 2u);
  EXPECT_EQ(eta[1].substr(0, 4), "2021");
  EXPECT_EQ(SplitGluedRecords("2021-07-14 13:52:36,901 - mmcls - INFO - Epoch [1][2/3]").size(), 1u);
  // A logger line glued after a bar's closing rate.
  auto bar = SplitGluedRecords("[loss: 4.98]:  10%|▉         | 99/1000 [00:30<04:36,  3.26it/s][RANK 0] Evaluating model");
  ASSERT_EQ(bar.size(), 2u);
  EXPECT_EQ(bar[1], "[RANK 0] Evaluating model");
  ProgressLine p = InterpretLine(bar[0]);
  EXPECT_EQ(p.step, 99);
  EXPECT_DOUBLE_EQ(*p.loss, 4.98);
}

TEST(FieldScanner, TimestampsAfterTagsAndGlog) {
  ScannedLine t = ScanLine("[rank0]:[titan] 2026-05-18 16:04:48,577 - root - INFO - step: 16  loss:  3.05");
  ASSERT_TRUE(t.timestamp_s.has_value());
  EXPECT_NEAR(std::fmod(*t.timestamp_s, 86400.0), 16 * 3600 + 4 * 60 + 48.577, 1e-6);
  ScannedLine g = ScanLine("I1011 13:38:08.128839 140115512289024 logging_writer.py:35] [4680] steps_per_sec=119.3");
  ASSERT_TRUE(g.timestamp_s.has_value());
  EXPECT_NEAR(std::fmod(*g.timestamp_s, 86400.0), 13 * 3600 + 38 * 60 + 8.128839, 1e-6);
  EXPECT_DOUBLE_EQ(g.timestamp_resolution_s, 1e-6);
  // The thread id and source are glog's prefix: the record starts at "[4680]", its round.
  ASSERT_EQ(g.fields.size(), 2u);
  EXPECT_TRUE(g.fields[0].bracketed);
  ProgressLine p = InterpretScanned(g);
  EXPECT_EQ(p.step, 4680);
  EXPECT_TRUE(p.step_positional);
  EXPECT_NEAR(*p.step_time_s, 1 / 119.3, 1e-12);
  // Python logging's "%m/%d/%Y %H:%M:%S": the year is read, and is not a field.
  ScannedLine m = ScanLine("01/05/2024 15:21:07 - INFO - __main__ -   ep: 9, step: 881");
  ASSERT_TRUE(m.timestamp_s.has_value());
  EXPECT_NEAR(std::fmod(*m.timestamp_s, 86400.0), 15 * 3600 + 21 * 60 + 7, 1e-6);
  ScannedLine n = ScanLine("01/06/2024 00:00:00 - INFO - x");
  EXPECT_NEAR(*n.timestamp_s - *m.timestamp_s, 86400 - (15 * 3600 + 21 * 60 + 7), 1e-6);
  EXPECT_EQ(m.fields.size(), 2u);
}

TEST(FieldScanner, StampsAfterALoggerPrefix) {
  ScannedLine a = ScanLine("[INFO|trainer_tf.py:398] 2021-01-15 10:28:56,791 >> {'loss': 0.6048, 'step': 20}");
  ASSERT_TRUE(a.timestamp_s.has_value());
  EXPECT_NEAR(std::fmod(*a.timestamp_s, 86400.0), 10 * 3600 + 28 * 60 + 56.791, 1e-6);
  ScannedLine b = ScanLine("Training: 2022-05-05 03:06:14,353-Speed 724.53 samples/sec   Loss 43.7390   Global Step: 380");
  ASSERT_TRUE(b.timestamp_s.has_value());
  // A date inside a record is not its stamp: the fields before it stay.
  ScannedLine c = ScanLine("step 100 loss 0.5 checkpoint 2024-05-01 10:00:00 saved");
  EXPECT_FALSE(c.timestamp_s.has_value());
  EXPECT_GE(c.fields.size(), 2u);
}

TEST(FieldScanner, TwoDigitYearsAndNamedParentheses) {
  ScannedLine y = ScanLine("19-08-09 08:27:27.746 - INFO: <epoch: 87, iter: 107,400, lr:2.500e-05> l_g_pix: 1.5e-03");
  ASSERT_TRUE(y.timestamp_s.has_value());
  EXPECT_NEAR(std::fmod(*y.timestamp_s, 86400.0), 8 * 3600 + 27 * 60 + 27.746, 1e-6);
  // "(data)" names the parenthesised value; the one before it is the iteration time.
  ProgressLine p = InterpretLine("[train..][epoch:  0, iter:  25,391, lr:(2.000e-04,)] [eta: 6 days, 20:45:16, "
                                 "time (data): 0.674 (0.005)] l_pix: 0.01");
  ASSERT_TRUE(p.step_time_s.has_value());
  EXPECT_DOUBLE_EQ(*p.step_time_s, 0.674);
  EXPECT_EQ(p.step, 25391);
}

TEST(ProgressLine, TrainAndEvalRecordsWhenNothingElseIsPrinted) {
  ProgressLine p = InterpretLine("[400/3000] Train loss: 0.12, Valid loss: 0.13, Elapsed_time: 25.5");
  EXPECT_FALSE(p.is_training);
  EXPECT_TRUE(p.is_train_and_eval);
  std::vector<std::string> only = {"[200/3000] Train loss: 0.15, Valid loss: 0.14, Elapsed_time: 12.9",
                                   "Best_accuracy : 90.0", "[400/3000] Train loss: 0.12, Valid loss: 0.13, Elapsed_time: 25.5"};
  ProgressReport r = ScanProgress(only, ProgressScanOptions{});
  EXPECT_EQ(r.step, 400);
  EXPECT_DOUBLE_EQ(*r.loss, 0.12);
  // A bare "loss" beside "Val Loss" is the training loss too.
  std::vector<std::string> bare = {"Step: 20, Loss: 0.9, Val Loss: 1.1, Tokens/s: 900.86",
                                   "Step: 40, Loss: nan, Val Loss: nan, Tokens/s: 1274.81"};
  ProgressReport b = ScanProgress(bare, ProgressScanOptions{});
  EXPECT_EQ(b.step, 40);
  EXPECT_TRUE(b.loss && std::isnan(*b.loss));
  // Beside plain training records they are evaluation.
  std::vector<std::string> mixed = {"iter 390: loss 0.2, time 30ms", "step 400: train loss 0.12, val loss 0.13",
                                    "iter 400: loss 0.11, time 31ms"};
  EXPECT_DOUBLE_EQ(*ScanProgress(mixed, ProgressScanOptions{}).loss, 0.11);
}

TEST(ProgressLine, LossFunctionNamesNamedTheTrainingOne) {
  EXPECT_DOUBLE_EQ(*InterpretLine("[LightGBM] [Info] Iteration:65, training binary_logloss : 0.304071").loss, 0.304071);
  EXPECT_FALSE(InterpretLine("epoch 3  auc : 0.7744    logloss : 0.5654").loss.has_value());  // a metric
  EXPECT_FALSE(InterpretLine("Epoch[0] Batch [420] Train-RCNNL1Loss=1.32").loss.has_value());  // a part's
  // On a record that counts and times its steps, with no other loss, the
  // function's name is what the step minimised.
  ProgressLine p = InterpretLine("Epoch: [1/100] step: [2/6] time: 37.051s, mse: 0.410");
  EXPECT_EQ(p.step, 2);
  ASSERT_TRUE(p.loss);
  EXPECT_DOUBLE_EQ(*p.loss, 0.41);
  EXPECT_FALSE(InterpretLine("step: [2/6] time: 37.051s, mse: 0.410, nll: 0.2").loss.has_value());  // which?
  EXPECT_FALSE(InterpretLine("step: [2/6] mse: 0.410").loss.has_value());  // not timed: a metric as often
}

TEST(ProgressLine, ComponentAndWholeLosses) {
  EXPECT_DOUBLE_EQ(*InterpretLine("step 5 mean loss 0.4 time 1.0").loss, 0.4);
  EXPECT_DOUBLE_EQ(*InterpretLine("step 5 d loss 0.4 time 1.0").loss, 0.4);  // one component: the loss printed
  EXPECT_FALSE(InterpretLine("step 5 d loss 0.4 g loss 0.9 time 1.0").loss.has_value());
  EXPECT_DOUBLE_EQ(*InterpretLine("step 5 d loss 0.4 g loss 0.9 loss 1.3").loss, 1.3);
  EXPECT_EQ(InterpretLine("iterations: 18, loss: 0.48").step, 18);
  EXPECT_FALSE(InterpretLine("iterations: 0, loss: 0.48").step.has_value());  // a tally, not a step
  // Parts of the loss and no whole one: withheld from the tagger too.
  EXPECT_TRUE(
      InterpretLine("iter=  100, img_loss=0.005665, reg_loss=0.234412, lr=0.02864, time=1540.6 ms").loss_withheld);
  std::vector<std::string> parts;
  for (int i = 1; i <= 6; ++i)
    parts.push_back(
        StrFormat("iter= %4d, img_loss=0.0%d5, reg_loss=0.2%d4, lr=0.0286, time=15%d0.6 ms", 10 * i, i, i, i));
  EXPECT_FALSE(ScanProgress(parts).loss.has_value());
}

TEST(ProgressLine, ALossNamespacesLeafNamesTheLoss) {
  // "losses/loss" is the whole loss, "losses/loss_q" one of its parts.
  ProgressLine p = InterpretLine(
      "[losses/loss: 4.98 | losses/loss_q: 0.29 | losses/loss_v: 0.07 | losses/loss_cql: 18.88]:  10%|▉  | 99/1000 "
      "[00:30<04:36,  3.26it/s]");
  EXPECT_EQ(p.step, 99);
  ASSERT_TRUE(p.loss);
  EXPECT_DOUBLE_EQ(*p.loss, 4.98);
  EXPECT_EQ(tracker_internal::KeyOf(ScanLine("loss/total_loss: 3.2").fields.at(0).key), "total loss");
}

TEST(FieldScanner, KeysUnitsAndCounters) {
  ScannedLine s = ScanLine("elapsed time per iteration (ms): 5444.9 | throughput per GPU (TFLOP/s/GPU): 239.8");
  ASSERT_EQ(s.fields.size(), 2u);
  EXPECT_EQ(s.fields[0].key, "elapsed time per iteration");
  EXPECT_EQ(s.fields[0].unit, "ms");
  EXPECT_EQ(s.fields[1].unit, "TFLOP/s/GPU");
  ScannedLine c = ScanLine("| epoch 001:    450 / 1891 loss=11.5");
  ASSERT_GE(c.fields.size(), 3u);
  EXPECT_EQ(c.fields[1].total, 1891);
  EXPECT_EQ(c.fields[1].key, "");
  ScannedLine b = ScanLine("[500]\teval-logloss:0.41906 [19/678]");
  ASSERT_EQ(b.fields.size(), 3u);
  EXPECT_TRUE(b.fields[0].bracketed);
  EXPECT_FALSE(b.fields[1].bracketed);
  EXPECT_FALSE(b.fields[2].bracketed);  // a counter, not a lone number
  ScannedLine e = ScanLine("[LightGBM] [Info] 3.704867 seconds elapsed, finished iteration 1");
  ASSERT_EQ(e.fields.size(), 2u);
  EXPECT_EQ(e.fields[0].key, "elapsed");
  EXPECT_EQ(e.fields[0].unit, "seconds");
  EXPECT_EQ(ScanLine("Iter50 loss 0.3").fields[0].key, "iter");
  EXPECT_TRUE(ScanLine("saved /ckpt/step1000/model.pt").fields.empty());  // a path's, not a step
  ScannedLine g = ScanLine("[default7]: s0.loss_cls: 0.4852 v3-8 1.2.3");
  ASSERT_EQ(g.fields.size(), 1u);
  EXPECT_EQ(g.fields[0].key, "s0 loss cls");
}

TEST(ProgressLine, ThroughputUnitsAreNormalised) {
  EXPECT_EQ(NormalizeThroughputUnit("toks/s/device"), "tokens/s/device");
  EXPECT_EQ(NormalizeThroughputUnit("samples/"), "samples/s");
  EXPECT_EQ(NormalizeThroughputUnit("img/sec"), "images/s");
}

TEST(ProgressLine, RatesNamedByTheKey) {
  // The rate written as the key, not as the value's unit.
  ProgressLine a = InterpretLine("trainer.py:371] Steps/second: 0.25, Examples/second: 12.5");
  ASSERT_TRUE(a.step_time_s);
  EXPECT_DOUBLE_EQ(*a.step_time_s, 4.0);
  ASSERT_TRUE(a.throughput);
  EXPECT_DOUBLE_EQ(*a.throughput, 12.5);
  EXPECT_EQ(a.throughput_unit, "examples/second");
  ProgressLine b = InterpretLine("step 7 loss 2.5 train_examples_per_sec: 512.0 | ms_per_batch: 250");
  ASSERT_TRUE(b.throughput);
  EXPECT_EQ(b.throughput_unit, "examples/sec");
  ASSERT_TRUE(b.step_time_s);
  EXPECT_DOUBLE_EQ(*b.step_time_s, 0.25);
  // Not a rate: an evaluation key, an epoch rate, two nouns.
  EXPECT_FALSE(InterpretLine("step 7 loss 2.5 val_examples_per_sec: 512.0").throughput);
  EXPECT_FALSE(InterpretLine("step 7 loss 2.5 epochs/sec: 0.01").step_time_s);
  EXPECT_FALSE(InterpretLine("step 7 loss 2.5 grad norm/sec: 3.0").throughput);
}

TEST(ProgressLine, MagnitudeSuffixesAndTimeUnitsInTheKey) {
  ProgressLine p = InterpretLine(
      "iteration: 993 / 1000 | elapsed_time_per_iteration_ms: 39.4 | tokens_per_sec: 16.2K | lm_loss: 10.6");
  ASSERT_TRUE(p.step_time_s);
  EXPECT_NEAR(*p.step_time_s, 0.0394, 1e-12);
  ASSERT_TRUE(p.throughput);
  EXPECT_DOUBLE_EQ(*p.throughput, 16200);
  ProgressLine q = InterpretLine("step 50 loss 2.0 iter_time_s: 1.5");
  ASSERT_TRUE(q.step_time_s);
  EXPECT_DOUBLE_EQ(*q.step_time_s, 1.5);
  // A unit word after a key that is no time stays a key word.
  EXPECT_FALSE(InterpretLine("step 50 loss 2.0 warmup_s: 100").step_time_s);
}

TEST(FieldScanner, AnElapsedClockWrittenAsHoursMinutesSeconds) {
  ScannedLine s = ScanLine("1460/2680 = 54.5%, SPS: 0.1, ELAP: 4:34:09, ETA: 3:49:05 - loss: 18.14");
  ASSERT_EQ(s.fields.size(), 5u);
  EXPECT_EQ(s.fields[3].key, "elap");
  EXPECT_DOUBLE_EQ(s.fields[3].value, 4 * 3600 + 34 * 60 + 9);
  EXPECT_EQ(s.fields[3].unit, "s");
  EXPECT_EQ(s.fields[4].key, "loss");  // the ETA is still no field
  EXPECT_DOUBLE_EQ(ScanLine("Elapsed Time: 00:00:56.25, x: 1").fields[0].value, 56.25);
  // Bars' clocks, times of day, an epoch's own elapsed time stay out.
  EXPECT_TRUE(ScanLine("Time elapsed for this epoch: 00:03:04").fields.empty());
  EXPECT_EQ(ScanLine(" 12%|█▏   | 230/1875 [05:01<35:54,  1.31s/it]").fields.size(), 3u);
  // The clock times the steps when the printed rate is too coarse.
  std::vector<std::string> lines;
  for (int i = 0; i < 4; ++i)
    lines.push_back(std::to_string(1430 + 10 * i) + "/2680 = 53.4%, SPS: 0.1, ELAP: 4:" + std::to_string(28 + 2 * i) +
                    ":00, ETA: 3:54:38 - loss: 18.2");
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 1460);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, 12.0, 1e-9);
}

TEST(ProgressLine, CountersUnderKeysWrittenAsSentences) {
  ProgressLine p = InterpretLine("Epoch is [1/600], mini-batch is [31/1600], batch_loss is 2.22483110");
  EXPECT_EQ(p.step, 31);
  EXPECT_EQ(p.total_steps, 1600);
  EXPECT_DOUBLE_EQ(*p.loss, 2.2248311);
}

TEST(FieldScanner, ARangeOfStepsIsItsEnd) {
  ScannedLine s = ScanLine("Epoch[43] Batch [0-240]\tSpeed: 25.02 samples/sec\tM0_RPNAcc=0.998021");
  ASSERT_GE(s.fields.size(), 2u);
  EXPECT_EQ(s.fields[1].key, "batch");
  EXPECT_DOUBLE_EQ(s.fields[1].value, 240);
  EXPECT_EQ(InterpretLine("Epoch[43] Batch [0-240]\tSpeed: 25.02 samples/sec").step, 240);
  // Not a range: a date, a descending pair, a keyless pair, a third part.
  EXPECT_TRUE(ScanLine("on 2018-10-11 loss 0.5").fields.size() == 1u);
  EXPECT_DOUBLE_EQ(ScanLine("batch 9-3").fields[0].value, 9);
  EXPECT_DOUBLE_EQ(ScanLine("10-20 x").fields[0].value, 10);
  EXPECT_DOUBLE_EQ(ScanLine("batch 1-2-3").fields[0].value, 1);
}

TEST(ProgressLine, ALearningRateFinderBarIsNotTraining) {
  ProgressLine p = InterpretLine("Finding best initial lr: 100%|██████████| 100/100 [00:02<00:00, 33.79it/s]");
  EXPECT_FALSE(p.is_training);
  EXPECT_TRUE(InterpretLine("Epoch 27: 100%|██████████| 32/32 [00:00<00:00, 323.33it/s, loss=1.52]").is_training);
}

TEST(FieldScanner, ACountNamedAfterItsValue) {
  ScannedLine s = ScanLine("[LightGBM] [Info] 2.436162 seconds elapsed, finished 1000 iteration");
  ASSERT_EQ(s.fields.size(), 2u);
  EXPECT_EQ(s.fields[1].key, "iteration");
  EXPECT_DOUBLE_EQ(s.fields[1].value, 1000);
  EXPECT_EQ(ScanLine("200 iter, 0 epoch / 100 epochs").fields[0].key, "iteration");
  // An interval's count in parentheses, a noun that keys the next value.
  EXPECT_EQ(ScanLine("Elapsed time: 84.5849s(100 iters) Margin: 0.4").fields[1].key, "");
  EXPECT_EQ(ScanLine("warmup 500 steps: 20").fields[0].key, "warmup");
  std::vector<std::string> lines = {"[Info] 2.434642 seconds elapsed, finished 999 iteration",
                                    "[Info] Iteration:1000, training's log loss: 0.004583",
                                    "[Info] 2.436162 seconds elapsed, finished 1000 iteration"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 1000);
  ASSERT_TRUE(r.step_time_s.has_value());
  EXPECT_NEAR(*r.step_time_s, 0.00152, 1e-9);
}

TEST(ProgressLine, ALossKeyOverAListOfUnnamedValuesPrintsNoWholeLoss) {
  ProgressLine p = InterpretLine("step: 3300/ 3305 loss:0.3555 0.3044 2.7294 0.1937 imps:28.4 lr: 0.0003");
  EXPECT_EQ(p.step, 3300);
  EXPECT_FALSE(p.loss.has_value());
  EXPECT_TRUE(p.loss_withheld);
  // A running average in parentheses, or one value, is still the loss.
  EXPECT_DOUBLE_EQ(*InterpretLine("step: 3300/3305 loss: 0.3555 (0.3044) lr: 0.0003").loss, 0.3555);
  std::vector<std::string> lines = {"step: 3200/ 3305 loss:0.3464 0.3009 2.7539 0.1878 imps:28.1 lr: 0.0045",
                                    "step: 3300/ 3305 loss:0.3555 0.3044 2.7294 0.1937 imps:28.4 lr: 0.0003"};
  EXPECT_FALSE(ScanProgress(lines).loss.has_value());  // nor the tagger's
}

TEST(FieldScanner, CamelCaseKeysAreWords) {
  ProgressLine p = InterpretLine(" | > Step:12/40  GlobalStep:5012  TotalLoss:0.4312  MelLoss:0.2100  StepTime:1.25");
  EXPECT_EQ(p.step, 12);
  EXPECT_EQ(p.total_steps, 40);
  ASSERT_TRUE(p.loss);
  EXPECT_DOUBLE_EQ(*p.loss, 0.4312);
  ASSERT_TRUE(p.step_time_s);
  EXPECT_DOUBLE_EQ(*p.step_time_s, 1.25);
  EXPECT_EQ(ScanLine("valLoss: 0.3").fields[0].key, "val loss");
  // An acronym names a model part: one word, no loss of its own.
  EXPECT_EQ(ScanLine("Train-RPNLogLoss=0.03").fields[0].key, "train rpnlogloss");
  EXPECT_FALSE(InterpretLine("Epoch[0] Train-RCNNLogLoss=0.39").loss.has_value());
}

TEST(FieldScanner, UnitsCountersStampsAndKeysWrittenApart) {
  // A unit's denominator after a spaced slash.
  ProgressLine a = InterpretLine("iter: 300 / 9000, total loss: 0.52, speed: 0.275s / iter");
  ASSERT_TRUE(a.step_time_s);
  EXPECT_DOUBLE_EQ(*a.step_time_s, 0.275);
  EXPECT_FALSE(a.throughput);
  // A counter closed by a colon, under a month-day stamp.
  ScannedLine b = ScanLine("03-14 10:20:30 Epoch 2/9 itr 31/500: lr: 0.0001 loss: 0.3");
  ASSERT_TRUE(b.timestamp_s);
  EXPECT_NEAR(std::fmod(*b.timestamp_s, 86400.0), 10 * 3600 + 20 * 60 + 30, 1e-9);
  ProgressLine bp = InterpretScanned(b);
  EXPECT_EQ(bp.step, 31);
  EXPECT_EQ(bp.total_steps, 500);
  EXPECT_FALSE(InterpretLine("run 1/2:30 done").total_steps.has_value());  // a counter glued to a clock is none
  // Angle brackets delimit keys.
  ScannedLine c = ScanLine("<epoch:12, lr:1.000e-04> loss: 2.5e-02");
  ASSERT_EQ(c.fields.size(), 3u);
  EXPECT_EQ(c.fields[0].key, "epoch");
  EXPECT_EQ(c.fields[2].key, "loss");
  // A value printed inside a call: the key is in front of the call.
  ScannedLine d = ScanLine("epoch=3: train_epoch_loss=tensor(0.1827, device='cuda:0') lr: np.float64(0.001)");
  ASSERT_GE(d.fields.size(), 3u);
  EXPECT_EQ(d.fields[1].key, "train epoch loss");
  EXPECT_FALSE(d.fields[1].parenthesised);
  EXPECT_EQ(d.fields.back().key, "lr");
}

TEST(FieldScanner, DurationsWrittenInParts) {
  ScannedLine a = ScanLine("ups: 2.00, time: 50s 169ms, time_since_start: 01h 29m 27s");
  ASSERT_EQ(a.fields.size(), 3u);
  EXPECT_DOUBLE_EQ(a.fields[1].value, 50.169);
  EXPECT_EQ(a.fields[1].unit, "s");
  EXPECT_DOUBLE_EQ(a.fields[2].value, 3600 + 29 * 60 + 27);
  EXPECT_DOUBLE_EQ(ScanLine("elapsed 1h29m").fields[0].value, 5340);
  // A rate after a time is no part of it.
  ScannedLine k = ScanLine("1875/1875 [====] - 6s 3ms/step - loss: 0.29");
  ASSERT_GE(k.fields.size(), 3u);
  EXPECT_DOUBLE_EQ(k.fields[1].value, 6);
  EXPECT_EQ(k.fields[2].unit, "ms/step");
}

TEST(ProgressLine, AStepRateOutweighsAnIntervalsTime) {
  // "time" is the 100-update interval's: 1 / ups is the step's.
  ProgressLine a = InterpretLine("progress: 10600/22000, train/total_loss: 0.0024, ups: 2.00, time: 50s 169ms");
  ASSERT_TRUE(a.step_time_s);
  EXPECT_DOUBLE_EQ(*a.step_time_s, 0.5);
  // A time that names its step stays, beside an environment's step rate.
  ProgressLine b = InterpretLine("Learning iteration 66/3000 Steps per second: 101 Iteration time: 0.24s");
  ASSERT_TRUE(b.step_time_s);
  EXPECT_DOUBLE_EQ(*b.step_time_s, 0.24);
  // Agreeing values: the printed time.
  ProgressLine c = InterpretLine("step 5 loss 1.0 ups: 2.0 time: 0.52");
  ASSERT_TRUE(c.step_time_s);
  EXPECT_DOUBLE_EQ(*c.step_time_s, 0.52);
}

TEST(ProgressLine, AFinishedBarsElapsedTimeIsItsSteps) {
  ProgressLine p = InterpretLine("800/800 [==============================] - 120s - loss: 2.8254 - acc: 0.2476");
  EXPECT_EQ(p.step, 800);
  ASSERT_TRUE(p.step_time_s);
  EXPECT_DOUBLE_EQ(*p.step_time_s, 0.15);
  // Mid-epoch the bar prints its ETA, not its elapsed time.
  EXPECT_FALSE(InterpretLine("  45/800 [>.............................] - ETA: 120s - loss: 0.51").step_time_s);
}

TEST(ProgressLine, AFinishedCounterWithoutABarAndAWholeUnitRate) {
  // tf.keras verbose=2: no bar, the epoch's duration right after its counter.
  ProgressLine v2 = InterpretLine("19/19 - 12s - loss: 0.0275 - accuracy: 0.9623");
  EXPECT_EQ(v2.step, 19);
  ASSERT_TRUE(v2.step_time_s);
  EXPECT_DOUBLE_EQ(*v2.step_time_s, 12.0 / 19);
  // A duration elsewhere on an unfinished or counter-less line times no step.
  EXPECT_FALSE(InterpretLine("12/19 - 12s - loss: 0.0275").step_time_s);
  // "1s/step" is 0.5 to 1.5 s; the 338 s the 313 steps took time them to 0.2 %.
  ProgressLine whole = InterpretLine("313/313 [==============================] - 338s 1s/step - loss: 0.3206 - val_loss: 0.34");
  ASSERT_TRUE(whole.step_time_s);
  EXPECT_NEAR(*whole.step_time_s, 338.0 / 313, 1e-12);
  // A rate of more digits, or a duration too coarse to be finer, stays as printed.
  ProgressLine ms = InterpretLine("1875/1875 [==============================] - 6s 3ms/step - loss: 0.2977");
  EXPECT_NEAR(ms.step_time_s.value_or(0), 0.003, 1e-12);
  ProgressLine coarse = InterpretLine("500/500 [==============================] - 1s 2ms/step - loss: 0.2977");
  EXPECT_NEAR(coarse.step_time_s.value_or(0), 0.002, 1e-12);
  ProgressLine us = InterpretLine("7895/7895 [==============================] - 4s 537us/step - loss: 0.5471");
  EXPECT_NEAR(us.step_time_s.value_or(0), 537e-6, 1e-12);
}

TEST(ProgressLine, EvaluationColumnsBesideTrainingOnes) {
  // A report row with a column per metric, validation ones among them.
  std::vector<std::string> lines = {
      "epoch       iteration   main/loss   main/acc    validation/main/loss  validation/main/acc  elapsed_time",
      "2           812         1.4021      0.6120      1.5033                0.5901               301.7"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 812);
  ASSERT_TRUE(r.loss);
  EXPECT_DOUBLE_EQ(*r.loss, 1.4021);
  // Only evaluation keys: an evaluation record.
  EXPECT_FALSE(InterpretLine("step: 800, val/loss: 1.5, val/acc: 0.59").is_training);
  EXPECT_FALSE(InterpretLine("Validation: 100%|██████████| 79/79 [00:01<00:00, 52.11it/s]").is_training);
}

TEST(ProgressLine, ATimerAndACounterBetweenKeyAndValue) {
  // "Timer" times the step; its line opens a multi-line record.
  std::vector<std::string> log;
  for (int i = 0; i < 3; ++i) {
    log.push_back(StrFormat("Timer: 0.67%d", i));
    log.push_back(StrFormat("epoch:3 || iter:%d || Loss:4.93%d", 500 + 10 * i, i));
    log.push_back("->> part conf loss:1.62 || part loc loss:1.26");
  }
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 520);
  ASSERT_TRUE(r.step_time_s);
  EXPECT_DOUBLE_EQ(*r.step_time_s, 0.672);
  // The iteration printed between the key and its value.
  ProgressLine p = InterpretLine("Train loss 12 5.797815 Grad Norm 6.959098 3.97s/it");
  EXPECT_EQ(p.step, 12);
  ASSERT_TRUE(p.loss);
  EXPECT_DOUBLE_EQ(*p.loss, 5.797815);
  EXPECT_EQ(InterpretLine("iter 5 loss 7 5.79").step, 5);  // a printed step key stays the step
  EXPECT_FALSE(InterpretLine("step 5 lr 3 0.25").loss.has_value());  // only after a loss key
}

TEST(ProgressLine, ALossWrittenAsASentenceAndALossTotal) {
  ProgressLine p = InterpretLine("epoch: 1, batch_id: 40, loss is: [0.4125]");
  EXPECT_EQ(p.step, 40);
  ASSERT_TRUE(p.loss);
  EXPECT_DOUBLE_EQ(*p.loss, 0.4125);
  // The whole loss named "loss_total" beside its components.
  ProgressLine q = InterpretLine("Iter: [300/900]  loss_a 0.25  loss_b 712.5  loss_total 3.75");
  ASSERT_TRUE(q.loss);
  EXPECT_DOUBLE_EQ(*q.loss, 3.75);
}

}  // namespace
}  // namespace schedmate

