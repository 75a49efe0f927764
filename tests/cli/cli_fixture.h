// The real `schedmate` binary run as a user would run it: Exec and the test
// fixture shared by the CLI tests.
#ifndef SCHEDMATE_TESTS_CLI_CLI_FIXTURE_H_
#define SCHEDMATE_TESTS_CLI_CLI_FIXTURE_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

struct CmdResult {
  int code;
  std::string out, err;
};

// `args` run from the test's working directory, or with `cd` into another first.
CmdResult Exec(const std::string& args, const std::string& cwd = "") {
  fs::path err = fs::temp_directory_path() / ("sm_err_" + std::to_string(getpid()));
  std::string cmd = (cwd.empty() ? "" : "cd '" + cwd + "' && ") + std::string(SCHEDMATE_BIN) + " " + args + " 2>" +
                    err.string();
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  int status = pclose(p);
  std::ifstream e(err);
  std::stringstream es;
  es << e.rdbuf();
  fs::remove(err);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, es.str()};
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sm_cli_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

}  // namespace

#endif  // SCHEDMATE_TESTS_CLI_CLI_FIXTURE_H_
