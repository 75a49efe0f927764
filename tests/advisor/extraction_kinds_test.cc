// Kinds of evidence the extractor reads in code nobody here wrote, each
// found among the development misses of the real-repository corpus
// (docs/advisor-real-corpus.md) and written here as a small repository.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "advisor/metadata_extractor.h"
#include "repo/snapshot.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

class Repo {
 public:
  explicit Repo(const std::string& name)
      : root_(fs::path(testing::TempDir()) / ("kinds_" + name + std::to_string(getpid()))) {
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~Repo() { fs::remove_all(root_); }
  Repo& File(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
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

 private:
  fs::path root_;
};

// The model a script builds names the model: at the top of a script as well
// as in a function, under `model_<class>` as well as `model`; a wrapper built
// around it, a task-head class and an RL library's network do not.
TEST(ExtractionKinds, ModelTheEntryBuilds) {
  Repo r("model_built");
  r.File("sage.py",
         "import torch\nfrom torch_geometric.nn import GraphSAGE\n"
         "model = GraphSAGE(100, 256, num_layers=2).to('cuda')\n"
         "model = torch.nn.parallel.DistributedDataParallel(model)\n"
         "opt = torch.optim.Adam(model.parameters(), lr=0.001)\n");
  EXPECT_EQ(r.Extract("python sage.py").model_name, "GraphSAGE");
  r.File("rec.py",
         "import torch\nfrom models import BERT4Rec\n"
         "def main():\n    model_bert4rec = BERT4Rec(1000, 200, emb_dim=64).to('cuda')\n"
         "    model = DistributedModelParallel(module=model_bert4rec)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_EQ(r.Extract("python rec.py").model_name, "BERT4Rec");
  r.File("cls.py",
         "import torch\nfrom modeling import GLMForSequenceClassification\n"
         "def main():\n    model = GLMForSequenceClassification(cfg)\n"
         "if __name__ == '__main__':\n    main()\n");
  EXPECT_FALSE(r.Extract("python cls.py").model_name.has_value());
  r.File("rl.py",
         "import torch\nfrom tianshou.utils.net.common import MLP\n"
         "net = MLP(4, 2, hidden_sizes=[64, 64])\n");
  EXPECT_FALSE(r.Extract("python rl.py").model_name.has_value());
}

}  // namespace
}  // namespace schedmate
