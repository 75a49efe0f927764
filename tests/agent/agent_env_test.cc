// The agent's files through an injected Env: a short write of the state file
// is an error that loses nothing, the log reader follows a truncated log,
// and the SLURM artefact source reads a job's repository, StdOut and end.
#include <gtest/gtest.h>

#include <map>

#include "agent/agent_state.h"
#include "agent/log_reader.h"
#include "agent/slurm_artefacts.h"
#include "core/fake_env.h"

namespace schedmate {
namespace {

TEST(AgentStateEnv, AShortWriteIsAnErrorAndThePreviousStateSurvives) {
  FakeEnv env;
  auto state = AgentState::Load("/var/agent/state.json", env);
  ASSERT_TRUE(state.ok());
  state->For("17", 0).log_offset = 120;
  ASSERT_TRUE(state->Save().ok());
  state->For("17", 0).log_offset = 999;
  state->For("18", 0).advised = true;
  env.FailNextWriteAfter(10);
  EXPECT_FALSE(state->Save().ok());
  auto reloaded = AgentState::Load("/var/agent/state.json", env);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status().ToString();
  EXPECT_EQ(reloaded->jobs().at("17").log_offset, 120);  // the last saved state, whole
  EXPECT_EQ(reloaded->jobs().count("18"), 0u);
  ASSERT_TRUE(state->Save().ok());  // the next poll saves what the failed one could not
  EXPECT_EQ(AgentState::Load("/var/agent/state.json", env)->jobs().at("17").log_offset, 999);
}

TEST(AgentStateEnv, AStateFileThatCannotBeReadIsAnError) {
  FakeEnv env;
  env.SetFile("/s.json", "{}");
  env.FailReadsOf("/s.json");
  EXPECT_FALSE(AgentState::Load("/s.json", env).ok());
}

TEST(ReadNewLinesEnv, ATruncatedLogIsReadAgainFromItsStart) {
  FakeEnv env;
  env.SetFile("/out", "step 1\nstep 2\npart");
  auto r = ReadNewLines("/out", 0, 1 << 20, env);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lines, (std::vector<std::string>{"step 1", "step 2"}));
  EXPECT_EQ(r->next_offset, 14);
  env.SetFile("/out", "step 9\n");  // rotated: shorter than where we were
  r = ReadNewLines("/out", 14, 1 << 20, env);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->restarted);
  EXPECT_EQ(r->lines, std::vector<std::string>{"step 9"});
  env.FailReadsOf("/out");
  EXPECT_EQ(ReadNewLines("/out", 0, 1 << 20, env).status().code(), StatusCode::kUnavailable);
}

TEST(SlurmArtefacts, ReadsTheJobsStdOutTailAndEndButNotACadence) {
  FakeEnv env;
  env.SetFile("/logs/17.out", "first line\nsecond line\nthird line\n");
  std::map<std::string, SlurmJob> jobs;
  SlurmJob& j = jobs["17"];
  j.job_id = "17";
  j.name = "train-bert";
  j.state = "COMPLETED";
  j.stdout_path = "/logs/17.out";
  SlurmArtefactSource source(jobs, env);
  EXPECT_EQ(*source.LogTail({"17"}, 16), "third line\n");  // cut at a line start
  EXPECT_EQ(source.Outcome({"17"})->end_reason, EndReason::kCompleted);
  EXPECT_EQ(source.Outcome({"17"})->name, "train-bert");
  EXPECT_FALSE(source.Outcome({"17"})->sm_util.has_value());
  EXPECT_EQ(*source.RepositoryKey({"17"}), 0u);
  EXPECT_EQ(source.Repository({"17"}).status().code(), StatusCode::kNotFound);  // no batch script
  EXPECT_EQ(source.Cadence({"17"}).status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(source.LogTail({"99"}, 16).status().code(), StatusCode::kNotFound);
  env.RemoveFile("/logs/17.out");
  EXPECT_EQ(*source.LogTail({"17"}, 16), "");  // not written yet
}

}  // namespace
}  // namespace schedmate
