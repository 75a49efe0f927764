#include "loggen/noise_lines.h"

#include "core/str_format.h"

#include <cstdio>

namespace schedmate {
namespace {

const char* Pick(Rng& rng, std::initializer_list<const char*> xs) {
  return *(xs.begin() + rng.Below(xs.size()));
}

}  // namespace

std::string NoiseLine(Rng& rng) {
  int host = static_cast<int>(rng.Below(64));
  int pid = 1000 + static_cast<int>(rng.Below(60000));
  switch (rng.Below(22)) {
    case 0:
      return StrFormat("node-%d:%d:%d [%d] NCCL INFO Channel %02d/%02d :    0   1   2   3   4   5   6   7", host, pid,
               pid + 7, static_cast<int>(rng.Below(8)), static_cast<int>(rng.Below(32)), 32);
    case 1:
      return StrFormat("node-%d:%d:%d [%d] NCCL INFO Connected all rings, comm %p nRanks %d", host, pid, pid,
               static_cast<int>(rng.Below(8)), reinterpret_cast<void*>(rng.NextU64() & 0xffffffffffull),
               static_cast<int>(8 << rng.Below(4)));
    case 2:
      return StrFormat("10.%d.%d.%d - - [02/Dec/2026:10:%02d:%02d +0000] \"GET /metrics HTTP/1.1\" 200 %d \"-\" \"Prometheus/2.45.0\"",
               host, static_cast<int>(rng.Below(255)), static_cast<int>(rng.Below(255)),
               static_cast<int>(rng.Below(60)), static_cast<int>(rng.Below(60)), static_cast<int>(rng.Below(90000)));
    case 3:
      return StrFormat("Requirement already satisfied: %s in /opt/conda/lib/python3.10/site-packages (%d.%d.%d)",
               Pick(rng, {"numpy", "torch", "tqdm", "regex", "safetensors", "filelock"}),
               static_cast<int>(rng.Below(3)), static_cast<int>(rng.Below(30)), static_cast<int>(rng.Below(10)));
    case 4:
      return StrFormat("[%8.6f] nvidia-nvswitch%d: open (major=%d)", rng.Uniform(10, 90000), static_cast<int>(rng.Below(6)),
               static_cast<int>(rng.Below(500)));
    case 5:
      return StrFormat("GPU %d: util %d%%, mem %d/81920 MiB, temp %dC, power %dW", static_cast<int>(rng.Below(8)),
               static_cast<int>(rng.Below(101)), static_cast<int>(rng.Below(81920)),
               40 + static_cast<int>(rng.Below(45)), 80 + static_cast<int>(rng.Below(600)));
    case 6:
      return StrFormat("  %s: %s", Pick(rng, {"max_steps", "save_steps", "logging_steps", "warmup_steps", "eval_steps"}),
               std::to_string(10 * (1 + rng.Below(5000))).c_str());
    case 7:
      return StrFormat("  learning_rate: %.1e", rng.Uniform(1e-5, 1e-3));
    case 8:
      return StrFormat("Downloading shards: %d%%|%s| %d/%d [00:%02d<00:%02d, %.2fs/it]", 50 + static_cast<int>(rng.Below(51)),
               "██████████", static_cast<int>(rng.Below(4)) + 1, 4, static_cast<int>(rng.Below(60)),
               static_cast<int>(rng.Below(60)), rng.Uniform(1, 30));
    case 9:
      return StrFormat("/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py:%d: UserWarning: This DataLoader will create %d worker processes in total.",
               500 + static_cast<int>(rng.Below(200)), static_cast<int>(rng.Below(64)));
    case 10:
      return StrFormat("  warnings.warn(%s)", Pick(rng, {"\"torch.cuda.amp.GradScaler is deprecated\"", "msg", "_create_warning_msg("}));
    case 11:
      return StrFormat("Loaded %d samples from /data/%s/train-%05d.parquet in %.2f s", static_cast<int>(rng.Below(900000)),
               Pick(rng, {"pile", "c4", "imagenet", "coco", "laion"}), static_cast<int>(rng.Below(1024)), rng.Uniform(0.1, 30));
    case 12:
      return StrFormat("[kubelet] Pod train-%04x-worker-%d: container healthy (restarts %d)", static_cast<int>(rng.Below(65536)),
               static_cast<int>(rng.Below(16)), static_cast<int>(rng.Below(3)));
    case 13:
      return StrFormat("wandb: Syncing run %s-%d", Pick(rng, {"lively", "quiet", "brisk", "amber"}), static_cast<int>(rng.Below(999)));
    case 14:
      return StrFormat("Processing batch files: %d/%d done", static_cast<int>(rng.Below(100)), 100);
    case 15:
      return StrFormat("{\"gpu_util\": %d, \"mem_used_gb\": %.1f, \"host\": \"node-%d\"}", static_cast<int>(rng.Below(101)),
               rng.Uniform(1, 80), host);
    case 16:
      return StrFormat("%s slurmstepd: task/cgroup: _memcg_initialize: job: alloc=%dMB mem.limit=%dMB", "", 
               static_cast<int>(rng.Below(500000)), static_cast<int>(rng.Below(500000)));
    case 17:
      return StrFormat("[W socket.cpp:%d] [c10d] The client socket has failed to connect to [node-%d]:%d (errno: 99).",
               400 + static_cast<int>(rng.Below(300)), host, 29500 + static_cast<int>(rng.Below(10)));
    case 18:
      return StrFormat("INFO:root:Reading file %d of %d: shard_%04d.tar", static_cast<int>(rng.Below(500)), 500,
               static_cast<int>(rng.Below(9999)));
    case 19:
      return StrFormat("prefetch queue depth %d, %d cached items, hit rate %.3f", static_cast<int>(rng.Below(64)),
               static_cast<int>(rng.Below(100000)), rng.Uniform());
    case 20:
      return StrFormat("    at org.apache.hadoop.hdfs.DFSInputStream.read(DFSInputStream.java:%d)", static_cast<int>(rng.Below(2000)));
    default:
      return StrFormat("Epoch %d finished; checkpoint written to /ckpt/run-%d/epoch_%d.pt (%.1f GB)",
               static_cast<int>(rng.Below(90)), static_cast<int>(rng.Below(999)), static_cast<int>(rng.Below(90)),
               rng.Uniform(0.1, 60));
  }
}

}  // namespace schedmate
