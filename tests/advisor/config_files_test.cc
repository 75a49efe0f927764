// Configs as users split them: YAML with Hydra defaults, JSON, TOML; and
// the errors a broken file gives.
#include <gtest/gtest.h>

#include "advisor/config_files.h"

namespace schedmate {
namespace {

TEST(ConfigFiles, YamlWithHydraDefaults) {
  auto c = ParseConfig(R"(defaults:
  - model: gpt2
  - /data: pile
  - override trainer: ddp
  - _self_
trainer:
  max_steps: 20000
  devices: [0, 1, 2, 3]
optimizer:
  lr: 3.0e-4
)", "conf/config.yaml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->defaults.size(), 3u);
  EXPECT_EQ(c->defaults[0], (std::pair<std::string, std::string>{"model", "gpt2"}));
  EXPECT_EQ(c->defaults[1].first, "/data");  // an absolute group, resolved from the config root
  EXPECT_EQ(c->defaults[2].first, "trainer");
  ASSERT_NE(c->Find("trainer.max_steps"), nullptr);
  EXPECT_EQ(c->Find("trainer.max_steps")->value, "20000");
  EXPECT_EQ(c->Find("trainer.max_steps")->line, 7);
  EXPECT_EQ(c->Find("trainer.devices")->value, "0,1,2,3");
  EXPECT_EQ(c->Find("optimizer.lr")->value, "3.0e-4");
}

TEST(ConfigFiles, JsonAndToml) {
  auto j = ParseConfig("{\n  \"train_batch_size\": 256,\n  \"zero_optimization\": {\"stage\": 3},\n  \"fp16\": {\"enabled\": true}\n}",
                       "ds_config.json");
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j->Find("train_batch_size")->value, "256");
  EXPECT_EQ(j->Find("train_batch_size")->line, 2);
  EXPECT_EQ(j->Find("zero_optimization.stage")->value, "3");
  EXPECT_EQ(j->Find("fp16.enabled")->value, "true");
  auto t = ParseConfig("[model]\nname = \"llama-3-8b\"\nlayers = 32\n\n[training]\nlr = 0.0002\n", "cfg.toml");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->Find("model.name")->value, "llama-3-8b");
  EXPECT_EQ(t->Find("model.layers")->line, 3);
  EXPECT_DOUBLE_EQ(std::stod(t->Find("training.lr")->value), 0.0002);  // shortest form: "2e-04"
}

TEST(ConfigFiles, BrokenFilesNameFileAndLine) {
  auto y = ParseConfig("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml");
  ASSERT_FALSE(y.ok());
  EXPECT_NE(y.status().message().find("bad.yaml:"), std::string::npos) << y.status().message();
  auto t = ParseConfig("[x\ny = 1\n", "bad.toml");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("bad.toml:1"), std::string::npos) << t.status().message();
  EXPECT_FALSE(ParseConfig("{", "bad.json").ok());
  EXPECT_FALSE(ParseConfig("x", "notes.txt").ok());
  // YAML bombs (aliases) and deep nesting stay bounded.
  std::string deep;
  for (int i = 0; i < 500; ++i) deep += std::string(static_cast<size_t>(i) * 0 + 1, '[');
  (void)ParseConfig(deep, "deep.yaml");  // bounded: returns, with a value or an error
  (void)ParseConfig("a: &a [1,2,3]\nb: &b [*a,*a,*a]\nc: &c [*b,*b,*b]\nd: [*c,*c,*c]\n", "alias.yaml");
}

// JSON as many projects write it: comments and trailing commas are read,
// lines keep their numbers, and a comment mark inside a string stays text.
TEST(ConfigFiles, JsonWithCommentsAndTrailingCommas) {
  auto c = ParseConfig(R"({
  "base_config": "config/vits.json", // the defaults
  /* a block
     comment */
  "train": {
    "batch_size": 16,
    //"multi_speaker_training": true
  },
  "url": "http://example.org/a,b",
  "dataset": ["LJSpeech",],
})", "egs/tts/exp_config.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_NE(c->Find("train.batch_size"), nullptr);
  EXPECT_EQ(c->Find("train.batch_size")->value, "16");
  EXPECT_EQ(c->Find("train.batch_size")->line, 6);
  EXPECT_EQ(c->Find("url")->value, "http://example.org/a,b");
  EXPECT_EQ(c->Find("train.multi_speaker_training"), nullptr);
  EXPECT_FALSE(ParseConfig("{\"a\": 1 oops}", "x.json").ok());
}

// `/*/` opens a block comment; it does not close one: the closing */ is
// looked for after the opening /*.
TEST(ConfigFiles, ABlockCommentOpenedBySlashStarSlash) {
  auto c = ParseConfig("{\n  /*/ \"epochs\": 90, */\n  \"epochs\": 100\n}\n", "x.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_NE(c->Find("epochs"), nullptr);
  EXPECT_EQ(c->Find("epochs")->value, "100");
  EXPECT_EQ(c->Find("epochs")->line, 3);
}

}  // namespace
}  // namespace schedmate
