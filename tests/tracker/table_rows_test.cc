// Tables and blocks in progress logs: a header line over its value rows
// (CSV loggers, aligned columns, behind a logger's stamp), rows between
// rules joined into one record, a header line with its indented rows.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tracker/field_scanner.h"
#include "tracker/progress_line.h"
#include "tracker/progress_scan.h"
#include "tracker/table_rows.h"

namespace schedmate {
namespace {

TEST(FieldScanner, HeaderOverValueTables) {
  TableCells h = SplitCells("epoch,step,train_loss,val_loss");
  TableCells r = SplitCells("3,649,0.147,");
  EXPECT_TRUE(IsHeaderRow(h));
  EXPECT_TRUE(IsValueRow(r));
  EXPECT_EQ(JoinHeader(h, r), "epoch: 3, step: 649, train_loss: 0.147");
  EXPECT_FALSE(IsHeaderRow(SplitCells("2024-01-01 10:00:00  INFO  step 5")));
  // Aligned columns with empty cells are matched by position.
  TableCells ah = SplitCells("epoch       iteration   main/loss   lr          validation/main/loss  elapsed_time");
  TableCells ar = SplitCells("1           600         2.26055     6.7e-05                           152.6");
  EXPECT_EQ(JoinHeader(ah, ar), "epoch: 1, iteration: 600, main/loss: 2.26055, lr: 6.7e-05, elapsed_time: 152.6");
  EXPECT_FALSE(IsValueRow(SplitCells("Saving checkpoint to /ckpt/step_100")));
  // A CSV logger's row: a whole-float step, a stamp column, a per-step loss column.
  TableCells ch = SplitCells("train/loss_step,global_step,epoch,created_at");
  TableCells cr = SplitCells("0.147,649.0,0,2025-11-07 07:24:14.265115");
  ScannedLine cs = ScanLine(JoinHeader(ch, cr));
  ASSERT_TRUE(cs.timestamp_s.has_value());
  EXPECT_NEAR(std::fmod(*cs.timestamp_s, 86400.0), 7 * 3600 + 24 * 60 + 14.265115, 1e-6);
  ProgressLine cp = InterpretScanned(cs);
  EXPECT_EQ(cp.step, 649);
  EXPECT_DOUBLE_EQ(*cp.loss, 0.147);
  // Read newest first, the rows come before their header: they wait for it.
  std::vector<std::string> lines = {"  step      loss        lr      time", "   100    0.5000    0.0001    0.2500",
                                    "   200    0.4500    0.0001    0.2600", "some other line"};
  ProgressReport rep = ScanProgress(lines);
  EXPECT_EQ(rep.step, 200);
  ASSERT_TRUE(rep.loss.has_value());
  EXPECT_DOUBLE_EQ(*rep.loss, 0.45);
  ASSERT_TRUE(rep.step_time_s.has_value());
  EXPECT_DOUBLE_EQ(*rep.step_time_s, 0.26);
}

TEST(FieldScanner, TableRowsJoinIntoOneRecord) {
  EXPECT_EQ(TableRow("|    ep_len_mean          | 200       |"), "ep_len_mean 200");
  EXPECT_EQ(TableRow("---------------------------------------"), "");
  EXPECT_EQ(TableRow("| rollout/                |           |"), "");
  EXPECT_EQ(TableRow("2024-01-01 10:00:00 step 5 loss 0.3"), "");
  std::vector<std::string> lines = {"----", "| a | 1 |", "| b | 2 |", "| loss | 0.5 |", "----",
                                    "| a | 3 |", "| b | 4 |", "plain line 7"};
  auto records = JoinTableRows(lines);
  ASSERT_EQ(records.size(), 5u);  // the rule after a table belongs to it
  EXPECT_EQ(records[1], "a 1, b 2, loss 0.5");
  EXPECT_EQ(records[2], "| a | 3 |");  // two rows are not a table
}

TEST(FieldScanner, BlocksJoinAcrossRulesSectionsAndNegativeValues) {
  EXPECT_EQ(TableRow("   Mean surrogate loss: -0.1204"), "Mean surrogate loss: -0.1204");
  EXPECT_EQ(TableRow("| learning_rate | 1e-05 |"), "learning_rate 1e-05");
  EXPECT_EQ(TableRow("lr 1e-05 loss -3 x 4"), "");  // three numbers
  EXPECT_TRUE(IsBlockFiller("-----------------"));
  EXPECT_TRUE(IsBlockFiller("| time/                   |             |"));
  EXPECT_TRUE(IsBlockFiller(""));
  EXPECT_FALSE(IsBlockFiller("Saving checkpoint"));
  EXPECT_FALSE(IsBlockFiller("| time/ | 12 |"));
  // A block per iteration (counter line, blank, rows, rule, more rows).
  std::vector<std::string> lines = {"#####", "   Learning iteration 66/300  ", "",
                                    "   Total steps: 1608", "   Mean value loss: 0.43",
                                    "   Mean surrogate loss: -0.12", "-----", "   Iteration time: 0.24s"};
  auto records = JoinTableRows(lines);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1], "Learning iteration 66/300, Total steps: 1608, Mean value loss: 0.43, "
                        "Mean surrogate loss: -0.12, Iteration time: 0.24s");
  ProgressLine p = InterpretLine(records[1]);
  EXPECT_EQ(p.step, 66);
  EXPECT_EQ(p.total_steps, 300);
  EXPECT_DOUBLE_EQ(*p.step_time_s, 0.24);
  EXPECT_FALSE(p.loss.has_value());  // only component losses are printed
}

TEST(FieldScanner, AHeaderLineAndItsIndentedRowsAreOneRecord) {
  std::vector<std::string> lines = {"2025-12-12 12:11:25.670 INFO [step=1010/15000,epoch=0]",
                                    "    train/CrossEntropyLoss=2.956", "    throughput/device/tokens_per_second=67,742",
                                    "    throughput/device/batches_per_second=0.2584", "done"};
  auto records = JoinTableRows(lines);
  ASSERT_EQ(records.size(), 2u);
  ProgressLine p = InterpretLine(records[0]);
  EXPECT_EQ(p.step, 1010);
  EXPECT_EQ(p.total_steps, 15000);
  EXPECT_DOUBLE_EQ(*p.loss, 2.956);  // a glued "…Loss" under a namespace
  EXPECT_DOUBLE_EQ(*p.throughput, 67742);  // thousands separators
  EXPECT_EQ(p.throughput_unit, "tokens/s");
  EXPECT_NEAR(*p.step_time_s, 1 / 0.2584, 1e-9);  // batches per second
  // The scan (newest first) reads the same record.
  ProgressReport r = ScanProgress(lines, ProgressScanOptions{});
  EXPECT_EQ(r.step, 1010);
  EXPECT_DOUBLE_EQ(*r.loss, 2.956);
  // An unindented line over unindented rows is not their header.
  EXPECT_EQ(JoinTableRows({"epoch 5 done in 30 s, loss 0.4", "a: 1", "b: 2", "c: 3"}).size(), 2u);
  EXPECT_FALSE(InterpretLine("val/CrossEntropyLoss=2.9, step=4").loss.has_value());
}

TEST(FieldScanner, HeaderTablesBehindALoggersStamp) {
  EXPECT_EQ(LoggerPrefixEnd("2021-01-26 02:42:23 [INFO]:    Epoch   Batch"), 31u);
  EXPECT_EQ(LoggerPrefixEnd("2024-05-01 10:00:00,123 - INFO - step 5"), 33u);
  EXPECT_EQ(LoggerPrefixEnd("Epoch   Batch   loss"), 0u);
  TableCells header = SplitCells("2021-01-26 02:42:23 [INFO]:    Epoch       Batch       box     total      time");
  TableCells row = SplitCells("2021-01-26 03:03:45 [INFO]:    29/29     160/165   0.00712     -13.9      7.17");
  ASSERT_TRUE(IsHeaderRow(header));
  ASSERT_TRUE(IsValueRow(row));
  EXPECT_EQ(JoinHeader(header, row), "Epoch: 29/29, Batch: 160/165, box: 0.00712, total loss: -13.9, time: 7.17");
  // "total" beside a loss column stays what it is.
  EXPECT_EQ(JoinHeader(SplitCells("step  loss  total"), SplitCells("5  0.3  12")), "step: 5, loss: 0.3, total: 12");
}

TEST(FieldScanner, HeadersWithACountColumnWordsAndACommentMark) {
  // "#" counts the steps; a column named in two words.
  std::vector<std::string> lines = {"E    #       LOSS EMBED  LOSS TAGGER  TAG_ACC  SCORE ",
                                    "---  ------  ----------  -----------  -------  ------",
                                    "  0     200       35.70      2163.45    83.16    0.83",
                                    "  0     400       11.09      1182.04    88.91    0.89"};
  ProgressReport r = ScanProgress(lines);
  EXPECT_EQ(r.step, 400);
  EXPECT_FALSE(r.loss.has_value());  // two component losses, no whole one
  // A header written as a comment.
  TableCells h = SplitCells("# step       loss_trn    lr      ");
  EXPECT_TRUE(IsHeaderRow(h));
  EXPECT_EQ(JoinHeader(h, SplitCells("1200         0.52        1e-05")), "step: 1200, loss_trn: 0.52, lr: 1e-05");
  // Prose is no header.
  EXPECT_FALSE(IsHeaderRow(SplitCells("Loading the model from disk  please wait  it takes a while")));
}

TEST(FieldScanner, APrettyPrintedJsonRecordIsOneRecord) {
  // Quoted keys are keys whatever their length; a long one does not cut the record.
  EXPECT_EQ(TableRow("  \"train-misc/num_tasks_completed_since_last_log\": 1600,"),
            "\"train-misc/num_tasks_completed_since_last_log\": 1600,");
  EXPECT_EQ(TableRow("  num tasks completed since the last log 1600"), "");  // unquoted: a sentence
  std::vector<std::string> log = {"{",
                                  "  \"train-metrics/reward\": 0.3714,",
                                  "  \"train-onpolicy-losses/total_loss\": 0.3769,",
                                  "  \"train-onpolicy-misc/lr\": 0.0003,",
                                  "  \"train-misc/num_tasks_completed_since_last_log\": 1600,",
                                  "  \"training_step\": 57104,",
                                  "  \"_runtime\": 1422",
                                  "}"};
  std::vector<std::string> joined = JoinTableRows(log);
  EXPECT_EQ(joined.size(), 3u);  // "{", the record, "}"
  ProgressReport r = ScanProgress(log);
  EXPECT_EQ(r.step, 57104);
  ASSERT_TRUE(r.loss);
  EXPECT_DOUBLE_EQ(*r.loss, 0.3769);
}

}  // namespace
}  // namespace schedmate
