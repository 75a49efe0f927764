// The sweep file: parsing, errors naming file:line:field, and expansion
// into tasks with exact argv.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "experiments/json_location.h"
#include "experiments/sweep_plan.h"
#include "experiments/sweep_spec.h"

namespace schedmate {
namespace {
namespace fs = std::filesystem;

std::string Error(std::string_view text) {
  auto spec = ParseSweep(text, "/tmp/sw/s.json");
  return spec.ok() ? "" : spec.status().message();
}

SweepSpec Parse(std::string_view text, const std::string& path = "/tmp/sw/s.json") {
  auto spec = ParseSweep(text, path);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? *spec : SweepSpec{};
}

TEST(JsonLocation, FindsTheLineOfNestedValues) {
  const std::string text = "{\n  \"a\": [1,\n    {\"b\": \"x\",\n     \"c\": [\"p\", \"q\"]}],\n  \"d\": {}\n}";
  EXPECT_EQ(JsonLineOf(text, {}), 1);
  EXPECT_EQ(JsonLineOf(text, {"a", size_t{1}, "c", size_t{1}}), 4);
  EXPECT_EQ(JsonLineOf(text, {"d"}), 5);
  EXPECT_EQ(JsonLineOf(text, {"a", size_t{5}}), 0);
  EXPECT_EQ(JsonPathString({"experiments", size_t{1}, "args", size_t{0}}), "experiments[1].args[0]");
}

TEST(SweepSpec, MatrixCrossedWithSettingsAndSeedsGivesExactArgv) {
  SweepSpec spec = Parse(R"({"name": "s", "seeds": [1, 2],
    "experiments": [{"name": "e", "command": "simulate", "args": ["--jobs", "300"],
      "settings": [{"name": "small", "args": ["--nodes", "4"]}, {"name": "big", "args": ["--nodes", "8"]}],
      "matrix": {"--policy": ["fifo", "sjf"], "--load": [0.9]}, "seeds": [7]},
     {"name": "f", "command": "lucid", "keep_outputs": true}]})");
  SweepPlan plan = ExpandSweep(spec, "/bin/schedmate", "/out");
  ASSERT_EQ(plan.tasks.size(), 4u + 2u);
  // Matrix keys in name order (--load before --policy), values in file order, settings outermost.
  EXPECT_EQ(plan.tasks[0].setting, "small,load=0.9,policy=fifo");
  EXPECT_EQ(plan.tasks[3].setting, "big,load=0.9,policy=sjf");
  EXPECT_EQ(plan.tasks[1].argv,
            (std::vector<std::string>{"/bin/schedmate", "simulate", "--jobs", "300", "--nodes", "4", "--load", "0.9",
                                      "--policy", "sjf", "--seed", "7", "--json", "--progress", "off"}));
  EXPECT_EQ(plan.tasks[4].setting, "default");
  EXPECT_EQ(plan.tasks[4].seed, 1);
  EXPECT_EQ(plan.tasks[5].seed, 2);
  EXPECT_EQ(plan.tasks[5].argv.back(), "/out/task-5/out");
  EXPECT_EQ(plan.cwd, "/tmp/sw");
}

TEST(SweepSpec, ConfigIsResolvedBesideTheSweepFile) {
  fs::path dir = fs::temp_directory_path() / ("sweep_cfg_" + std::to_string(getpid()));
  fs::create_directories(dir / "configs");
  std::ofstream(dir / "configs" / "x.json") << "{}";
  SweepSpec spec = Parse(R"({"seeds": [1], "experiments": [{"name": "e", "command": "standalone",
                            "config": "configs/x.json"}]})",
                         (dir / "sweep.json").string());
  EXPECT_EQ(spec.name, "sweep");  // the file's stem
  SweepPlan plan = ExpandSweep(spec, "/b", "/o");
  ASSERT_EQ(plan.tasks.size(), 1u);
  EXPECT_EQ(plan.tasks[0].argv[2], "--config");
  EXPECT_EQ(plan.tasks[0].argv[3], (dir / "configs" / "x.json").string());
  std::string missing = ParseSweep(R"({"seeds": [1], "experiments": [{"name": "e", "command": "standalone",
                            "config": "configs/none.json"}]})",
                                   (dir / "sweep.json").string())
                            .status()
                            .message();
  EXPECT_NE(missing.find("sweep.json:2: field 'experiments[0].config'"), std::string::npos) << missing;
  fs::remove_all(dir);
}

TEST(SweepSpec, ErrorsNameFileLineAndField) {
  EXPECT_EQ(Error("{\"seeds\": [1],\n \"experiments\": [{\"name\": \"e\", \"command\": \"simulate\",\n"
                  "  \"polcy\": 1}]}"),
            "/tmp/sw/s.json:3: field 'experiments[0].polcy': unknown field; known: name command config args settings "
            "matrix seeds keep_outputs");
  EXPECT_NE(Error("{\"seed\": [1], \"experiments\": []}").find("field 'seed': unknown field (did you mean 'seeds'?)"),
            std::string::npos);
  EXPECT_NE(Error("{\"seeds\": [1],\n\"experiments\": [{\"name\": \"e\", \"command\": \"simulate\",\n"
                  "\"args\": [\"--jobs\", \"3\",\n \"--seed\", \"4\"]}]}")
                .find("s.json:4: field 'experiments[0].args[2]': '--seed' is set by the sweep"),
            std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [1], "experiments": [{"name": "e", "command": "rm"}]})").find("not a sweepable"),
            std::string::npos);
  EXPECT_NE(Error(R"({"experiments": [{"name": "e", "command": "simulate"}]})").find("no seeds"), std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [1, 1], "experiments": []})").find("field 'seeds[1]': seed 1 is listed twice"),
            std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [-1], "experiments": []})").find("whole number >= 0"), std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [1], "experiments": [{"name": "e", "command": "simulate"},
                                                    {"name": "e", "command": "lucid"}]})")
                .find("s.json:2: field 'experiments[1].name': 'e' names two experiments"),
            std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [1], "experiments": [{"name": "a b", "command": "simulate"}]})").find("letters, digits"),
            std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [1], "experiments": [{"name": "e", "command": "simulate",
                    "matrix": {"policy": ["fifo"]}}]})")
                .find("'policy' is not a flag"),
            std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [1], "experiments": [{"name": "e", "command": "simulate",
                    "matrix": {"--out": ["x"]}}]})")
                .find("'--out' is set by the sweep"),
            std::string::npos);
  EXPECT_NE(Error(R"({"seeds": [1], "slurm": {"sbatch_args": ["--array=0-3"]},
                    "experiments": [{"name": "e", "command": "simulate"}]})")
                .find("field 'slurm.sbatch_args[0]': '--array' is set by experiments run"),
            std::string::npos);
  EXPECT_NE(Error("{\"seeds\": [1], \"experiments\": [\n").find("invalid JSON"), std::string::npos);
  EXPECT_NE(Error("[]").find("a sweep file is an object"), std::string::npos);
}

}  // namespace
}  // namespace schedmate
