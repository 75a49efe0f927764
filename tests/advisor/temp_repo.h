// A small repository written to a temporary directory, and the embedded
// extractor run on it: the fixture of the Advisor's extractor tests.
#ifndef SCHEDMATE_TESTS_ADVISOR_TEMP_REPO_H_
#define SCHEDMATE_TESTS_ADVISOR_TEMP_REPO_H_

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "advisor/metadata_extractor.h"
#include "repo/snapshot.h"

namespace schedmate::testing_support {

class TempRepo {
 public:
  explicit TempRepo(const std::string& name)
      : root_(std::filesystem::path(testing::TempDir()) / (name + std::to_string(getpid()))) {
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~TempRepo() { std::filesystem::remove_all(root_); }
  TempRepo& File(const std::string& rel, const std::string& text) {
    std::filesystem::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
    return *this;
  }
  WorkloadMetadata Extract(const std::string& cmd) {
    auto snap = OpenDirectorySnapshot(root_.string());
    EXPECT_TRUE(snap.ok());
    auto md = ExtractMetadata(**snap, cmd);
    EXPECT_TRUE(md.ok()) << md.status().message();
    return md.ok() ? *md : WorkloadMetadata{};
  }
  const FieldSource* Source(const WorkloadMetadata& md, const std::string& field) {
    for (const auto& s : md.sources)
      if (s.field == field) return &s;
    return nullptr;
  }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

}  // namespace schedmate::testing_support

#endif  // SCHEDMATE_TESTS_ADVISOR_TEMP_REPO_H_
