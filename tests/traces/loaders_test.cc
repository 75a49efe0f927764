// Loaders on fixtures generated here from the documented schemas
// (../shared/traces/README.md): the raw Helios and Acme files are not
// available, so these fixtures are the contract.
#include <sstream>

#include <gtest/gtest.h>

#include "core/time_format.h"
#include "traces/trace_loader.h"
#include "traces/vc_config.h"

namespace schedmate {
namespace {

Result<Trace> Load(const std::string& text, TraceFormat f = TraceFormat::kAuto,
                   LoadReport* r = nullptr) {
  std::istringstream in(text);
  return LoadTrace(in, "fixture.csv", f, {}, r);
}

void ExpectError(const std::string& text, const std::string& want) {
  auto t = Load(text);
  ASSERT_FALSE(t.ok()) << "expected an error containing: " << want;
  EXPECT_NE(t.status().message().find(want), std::string::npos) << t.status().message();
}

const char* kPhilly =
    "timestamp,duration,num_gpus,gpu_time,cluster\n"
    "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"
    "2017-10-09 06:13:03,2951.0,2,5902.0,6214e9\n"
    "2017-09-29 07:58:32,860662.0,1,860662.0,6c71a0\n"
    "\n";

TEST(PhillyLoaderTest, SortsAndRebasesTimes) {
  auto t = Load(kPhilly);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->format, "philly");
  ASSERT_EQ(t->jobs.size(), 3u);
  EXPECT_EQ(t->jobs[0].id, "philly-3");
  EXPECT_EQ(t->jobs[0].submit_s, 0);
  EXPECT_EQ(t->epoch_s, *ParseDateTime("2017-09-29 07:58:32"));
  EXPECT_EQ(t->jobs[1].vc, "6214e9");
  EXPECT_EQ(t->jobs[1].gpus, 2);
  EXPECT_EQ(t->jobs[1].duration_s, 2951);
  EXPECT_EQ(t->jobs[1].submit_s, *ParseDateTime("2017-10-09 06:13:03") - t->epoch_s);
  EXPECT_EQ(t->jobs[2].state, EndState::kUnknown);
}

TEST(PhillyLoaderTest, BadRowsNameFileLineAndColumn) {
  const std::string h = "timestamp,duration,num_gpus,gpu_time,cluster\n";
  ExpectError(h + "2017-10-09 07:01:55,-5,1,66.0,11cb48\n",
              "fixture.csv:2: column 'duration': '-5' is negative");
  ExpectError(h + "2017-10-09 07:01:55,5,1,66.0,11cb48\nnot a time,5,1,5,x\n",
              "fixture.csv:3: column 'timestamp': 'not a time' is not a date-time");
  ExpectError(h + "2017-10-09 07:01:55,5,1\n", "fixture.csv:2: expected 5 fields");
  ExpectError(h + "2017-10-09 07:01:55,5.5,1,5,x\n", "'5.5' is not a whole number");
  ExpectError(h + "2017-10-09 07:01:55,,1,5,x\n", "column 'duration': empty");
  ExpectError("", "fixture.csv: empty file");
}

const char* kHelios =
    "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n"
    "j1,u1,vcA,8,48,1,COMPLETED,2020-04-01 00:00:10,2020-04-01 00:01:00,2020-04-01 01:01:00,3600,50\n"
    "j2,u2,vcB,0,4,1,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:00:00,2020-04-01 00:00:05,5,0\n"
    "j3,u1,vcA,1,6,1,NODE_FAIL,2020-04-01 00:00:20,2020-04-01 00:00:30,2020-04-01 00:10:30,600,10\n"
    "j4,u3,vcA,2,6,1,RUNNING,2020-04-01 00:00:30,2020-04-01 00:00:30,,,0\n"
    "j5,u3,vcB,2,6,1,CANCELLED,2020-04-01 00:00:40,,,,\n";

TEST(HeliosLoaderTest, MapsStatesAndSkipsCpuAndUnfinishedJobs) {
  LoadReport r;
  auto t = Load(kHelios, TraceFormat::kAuto, &r);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->format, "helios");
  EXPECT_EQ(r.rows, 5);
  EXPECT_EQ(r.skipped_cpu_jobs, 1);
  EXPECT_EQ(r.skipped_unfinished, 1);
  ASSERT_EQ(t->jobs.size(), 3u);
  EXPECT_EQ(t->jobs[0].id, "j1");
  EXPECT_EQ(t->jobs[0].user, "u1");
  EXPECT_EQ(t->jobs[0].submit_s, 0);
  EXPECT_EQ(t->jobs[1].state, EndState::kNodeFail);
  EXPECT_TRUE(IsFailure(t->jobs[1].state));
  EXPECT_EQ(t->jobs[2].state, EndState::kCancelled);
  EXPECT_EQ(t->jobs[2].duration_s, 0);  // cancelled before it started
}

TEST(HeliosLoaderTest, UnknownStateIsAnError) {
  std::string h = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n";
  ExpectError(h + "j1,u,v,1,1,1,EXPLODED,2020-04-01 00:00:10,,,5,0\n",
              "fixture.csv:2: column 'state': unknown state 'EXPLODED'");
  ExpectError(h + "j1,u,v,1,1,1,FAILED,2020-04-01 00:00:10,,,,0\n",
              "no run time");
}

TEST(AcmeLoaderTest, IsoTimesWithOffsetsAndKalosExtras) {
  const char* kKalos =
      "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time,mem_per_pod_GB,shared_mem_per_pod,fail_time,stop_time\n"
      "k1,u1,2,16,64,Pretrain,FAILED,2023-05-01T10:00:00+00:00,2023-05-01T10:01:00+00:00,2023-05-01T11:01:00+00:00,3600,60,57600,512,64,2023-05-01T11:01:00+00:00,\n"
      "k2,u2,1,1,8,Debug,COMPLETED,2023-05-01T09:00:00-01:00,2023-05-01T10:00:05+00:00,2023-05-01T10:00:35+00:00,30,5,30,64,8,,\n";
  auto t = Load(kKalos);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->format, "acme");
  ASSERT_EQ(t->jobs.size(), 2u);
  // 09:00-01:00 is 10:00 UTC: the same instant as k1's submit; file order kept.
  EXPECT_EQ(t->jobs[0].id, "k1");
  EXPECT_EQ(t->jobs[1].submit_s, 0);
  EXPECT_EQ(t->jobs[0].type, "Pretrain");
  EXPECT_EQ(t->jobs[0].vc, "");
  EXPECT_EQ(t->jobs[0].state, EndState::kFailed);
  bool has_mem = false;
  for (auto& [k, v] : t->jobs[0].extra) has_mem = has_mem || (k == "mem_per_pod_GB" && v == "512");
  EXPECT_TRUE(has_mem);
  for (auto& [k, v] : t->jobs[0].extra) EXPECT_NE(k, "gpu_time");
}

TEST(AcmeLoaderTest, SerenTimesWithoutDurationUseStartAndEnd) {
  const char* kSeren =
      "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n"
      "s1,u1,1,8,32,SFT,COMPLETED,2023-03-01 08:00:00+08:00,2023-03-01 08:00:10+08:00,2023-03-01 08:10:10+08:00,,,\n";
  auto t = Load(kSeren);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->jobs[0].duration_s, 600);
  EXPECT_EQ(t->epoch_s, *ParseDateTime("2023-03-01 00:00:00"));
}

TEST(LucidLoaderTest, KeepsExtraColumnsAndAcceptsSecondTimes) {
  const char* kLucid =
      "job_id,user,vc,jobname,gpu_num,cpu_num,state,submit_time,duration,amp,gpu_util,gmem\n"
      "7,u1,vcEwI,resnet_train,4,24,COMPLETED,120,3000,1,85.5,10240\n"
      "8,u2,vcEwI,bert-ft,1,6,FAILED,60,10,0,20,4000\n";
  auto t = Load(kLucid);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->format, "lucid");
  EXPECT_EQ(t->jobs[0].id, "8");
  EXPECT_EQ(t->jobs[0].submit_s, 0);
  EXPECT_EQ(t->jobs[1].submit_s, 60);
  EXPECT_EQ(t->jobs[1].name, "resnet_train");
  ASSERT_EQ(t->jobs[1].extra.size(), 3u);
  EXPECT_EQ(t->jobs[1].extra[1], (std::pair<std::string, std::string>{"gpu_util", "85.5"}));
}

TEST(SiaLoaderTest, NoDurationIsMarkedUnknown) {
  auto t = Load("name,time,application,num_replicas,batch_size\n"
                "cifar10-0,107,cifar10,6,2048\nbert-1,50,bert,2,12\n");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->format, "sia");
  EXPECT_EQ(t->jobs[0].id, "bert-1");
  EXPECT_EQ(t->jobs[0].type, "bert");
  EXPECT_EQ(t->jobs[1].submit_s, 57);
  EXPECT_EQ(t->jobs[1].batch_size, 2048);
  EXPECT_EQ(t->jobs[1].duration_s, -1);
}

TEST(SiaLoaderTest, FractionalSubmitTimesRoundToSeconds) {
  // Sia's newer workloads (workloads/newtrace) stamp arrivals with microseconds.
  auto t = Load("name,time,application,num_replicas,batch_size\n"
                "deepspeech2-0,487.661836,deepspeech2,8,320\ncifar10-1,670.461855,cifar10,8,2048\n");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->jobs[1].submit_s, 670 - 488);
  ExpectError("name,time,application,num_replicas\nx,-3.5,bert,1\n", "must be 0 to 1e12 seconds");
  ExpectError("name,time,application,num_replicas\nx,soon,bert,1\n", "'soon' is not a number");
}

TEST(TraceFormatTest, UnknownHeaderAsksForAFormat) {
  ExpectError("a,b,c\n1,2,3\n", "cannot tell the trace format");
  EXPECT_FALSE(ParseTraceFormat("excel").ok());
  EXPECT_EQ(*ParseTraceFormat("pollux"), TraceFormat::kSia);
}

TEST(VcConfigTest, ReadsPhillyAndLucidLayouts) {
  std::istringstream philly("vc,node num\n6214e9,64\n7f04ca,32\n");
  auto a = LoadVcConfig(philly, "philly_vc.csv");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*a)[0].name, "6214e9");
  EXPECT_EQ((*a)[1].nodes, 32);
  std::istringstream lucid(",num\nvcEwI,9\nvcWoR,5\n");
  auto b = LoadVcConfig(lucid, "vc_config.csv");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ((*b)[1].name, "vcWoR");
  std::istringstream bad("vc,node num\nx,0\n");
  EXPECT_FALSE(LoadVcConfig(bad, "bad.csv").ok());
}

}  // namespace
}  // namespace schedmate

#include "traces/duration_model.h"

namespace schedmate {
namespace {

TEST(DurationModelTest, SiaBucketsFillUnknownDurationsWithinTheBucket) {
  auto t = Load("name,time,application,num_replicas,batch_size\n"
                "cifar10-0,0,cifar10,1,128\nimagenet-1,5,imagenet,8,256\n"
                "bert-2,9,bert,2,12\n");
  ASSERT_TRUE(t.ok());
  Trace a = *t, b = *t;
  ASSERT_TRUE(ApplyDurationModel(a, "sia-buckets", 1).ok());
  ASSERT_TRUE(ApplyDurationModel(b, "sia-buckets", 1).ok());
  EXPECT_EQ(a.jobs, b.jobs);  // seeded
  EXPECT_TRUE(a.synthetic);
  double gpu_h[3];
  for (int i = 0; i < 3; ++i) gpu_h[i] = a.jobs[i].duration_s * a.jobs[i].gpus / 3600.0;
  EXPECT_LE(gpu_h[0], 1.0);
  EXPECT_GE(gpu_h[1], 100.0 - 0.01);
  EXPECT_LE(gpu_h[1], 1000.0 + 0.01);
  EXPECT_GE(gpu_h[2], 1.0 - 0.01);
  EXPECT_LE(gpu_h[2], 10.0 + 0.01);
  Trace c = *t;
  c.jobs[0].type = "gpt5";
  auto s = ApplyDurationModel(c, "sia-buckets", 1);
  EXPECT_NE(s.message().find("'gpt5' has no GPU-time bucket"), std::string::npos);
  EXPECT_FALSE(ApplyDurationModel(c, "magic", 1).ok());
}

}  // namespace
}  // namespace schedmate
