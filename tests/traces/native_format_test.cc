#include "traces/native_format.h"

#include <sstream>

#include <gtest/gtest.h>

#include "traces/synthesizer.h"
#include "traces/trace_loader.h"

namespace schedmate {
namespace {

Trace Sample() {
  Trace t;
  t.source = "odd,source\nname%";
  t.format = "lucid";
  t.synthetic = true;
  t.epoch_s = 1585699200;
  JobSpec a;
  a.id = "a,1";
  a.user = "u \"quoted\"";
  a.vc = "vcX";
  a.name = "multi\nline";
  a.type = "SFT";
  a.gpus = 8;
  a.cpus = 48;
  a.submit_s = 0;
  a.duration_s = 3600;
  a.state = EndState::kNodeFail;
  a.batch_size = 256;
  a.extra = {{"amp", "1"}, {"k=;%", "v;=%\n"}, {"empty", ""}};
  JobSpec b;
  b.id = "b";
  b.gpus = 1;
  b.submit_s = 5;
  b.duration_s = -1;
  t.jobs = {a, b};
  return t;
}

TEST(NativeFormatTest, RoundTripIsLossless) {
  Trace t = Sample();
  std::stringstream buf;
  ASSERT_TRUE(WriteNativeTrace(t, buf).ok());
  auto back = LoadTrace(buf, "x.csv", TraceFormat::kAuto);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->source, t.source);
  EXPECT_EQ(back->format, t.format);
  EXPECT_EQ(back->synthetic, t.synthetic);
  EXPECT_EQ(back->epoch_s, t.epoch_s);
  ASSERT_EQ(back->jobs.size(), 2u);
  EXPECT_EQ(back->jobs[0], t.jobs[0]);
  EXPECT_EQ(back->jobs[1], t.jobs[1]);
}

TEST(NativeFormatTest, SyntheticTraceRoundTrips) {
  SynthOptions o;
  o.jobs = 300;
  auto t = SynthesizeTrace(*FindProfile("seren"), o);
  ASSERT_TRUE(t.ok());
  std::stringstream buf;
  ASSERT_TRUE(WriteNativeTrace(*t, buf).ok());
  auto back = LoadTrace(buf, "x.csv", TraceFormat::kNative);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->jobs, t->jobs);
  EXPECT_TRUE(back->synthetic);
}

TEST(NativeFormatTest, BadFieldsAreReported) {
  std::istringstream in(
      "# schedmate trace v1\n"
      "id,user,vc,name,type,gpus,cpus,submit_s,duration_s,state,batch_size,extra\n"
      "a,,,,,1,0,0,10,MAYBE,0,\n");
  auto t = LoadTrace(in, "n.csv", TraceFormat::kAuto);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("n.csv:3: column 'state'"), std::string::npos)
      << t.status().message();
}

}  // namespace
}  // namespace schedmate
