// Issue 16 item 10: the entry point a command names is found however the
// repository's listing is capped — behind more files than the listing
// holds, over its size cap, or through a symlinked directory inside the root.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "advisor/entry_points.h"
#include "advisor/metadata_extractor.h"
#include "repo/snapshot.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

const char kTrainPy[] =
    "import argparse\n"
    "p = argparse.ArgumentParser()\n"
    "p.add_argument('--batch_size', type=int, default=32)\n";

TEST(EntryPointDiscovery, FoundBehindMoreFilesThanTheListingHolds) {
  std::map<std::string, std::string> files;
  for (int i = 0; i < 60001; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "a/f%05d.py", i);  // every one sorts before train.py
    files[name] = "x = 1\n";
  }
  files["train.py"] = kTrainPy;
  auto snap = MemorySnapshot(std::move(files));
  auto md = ExtractMetadata(*snap, "python train.py");
  ASSERT_TRUE(md.ok()) << md.status().message();
  EXPECT_EQ(md->batch_size, 32);
}

TEST(EntryPointDiscovery, FoundOverTheListingsSizeCapAndReadFromItsHead) {
  std::string big = std::string(kTrainPy) + std::string(3u << 20, '#') + "\n";
  auto snap = MemorySnapshot({{"train.py", big}});
  auto md = ExtractMetadata(*snap, "python train.py");
  ASSERT_TRUE(md.ok()) << md.status().message();
  EXPECT_EQ(md->batch_size, 32);
}

TEST(EntryPointDiscovery, FoundThroughASymlinkedDirectoryButNotOutTheRoot) {
  fs::path root = fs::path(testing::TempDir()) / ("entry_links" + std::to_string(getpid()));
  fs::path outside = fs::path(testing::TempDir()) / ("entry_outside" + std::to_string(getpid()));
  fs::remove_all(root);
  fs::remove_all(outside);
  fs::create_directories(root / "sub");
  fs::create_directories(outside);
  std::ofstream(root / "sub/run.py") << kTrainPy;
  std::ofstream(outside / "run.py") << kTrainPy;
  fs::create_directory_symlink("sub", root / "scripts");
  fs::create_directory_symlink(outside, root / "out");
  auto snap = OpenDirectorySnapshot(root.string());
  ASSERT_TRUE(snap.ok());
  EXPECT_TRUE(FileInSnapshot(**snap, "scripts/run.py"));
  EXPECT_FALSE(FileInSnapshot(**snap, "out/run.py"));
  auto md = ExtractMetadata(**snap, "python scripts/run.py");
  ASSERT_TRUE(md.ok()) << md.status().message();
  EXPECT_EQ(md->batch_size, 32);
  EXPECT_FALSE(ExtractMetadata(**snap, "python out/run.py").ok());
  fs::remove_all(root);
  fs::remove_all(outside);
}

}  // namespace
}  // namespace schedmate
