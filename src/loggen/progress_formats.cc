// The framework formats of the synthetic progress logs: each imitates one
// framework's real output and records the truth of its last training line.
#include "loggen/progress_gen.h"

namespace schedmate {
namespace loggen_internal {

void HfTrainer(Gen& g) {
  std::string bar_line;
  int64_t log_every = g.run.interval * (1 + static_cast<int64_t>(g.rng.Below(5)));
  bool grad_norm = g.Chance(0.5);
  bool any_dict = false;
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double sec;
    std::string rate = g.TqdmRate(dt, &sec);
    double frac = static_cast<double>(s) / g.run.total;
    std::string seg = StrFormat("%3d%%|%s| %lld/%lld [%s<%s, %s]", static_cast<int>(100 * frac), g.Bar(frac, 20).c_str(),
                        (long long)s, (long long)g.run.total, g.Hms(s * dt).c_str(),
                        g.Hms((g.run.total - s) * dt).c_str(), rate.c_str());
    bar_line += "\r" + seg;
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      g.truth.step_time_s = sec;
    }
    if ((s % log_every == 0 && !last) || !any_dict) {
      any_dict = true;
      g.Add(bar_line);
      bar_line.clear();
      double l = g.Loss(s);
      std::string ls = g.LossStr(l, "%.4f");
      g.SetLoss(l, ls);
      g.Add(grad_norm ? StrFormat("{'loss': %s, 'grad_norm': %.4f, 'learning_rate': %.4e, 'epoch': %.2f}", ls.c_str(),
                          g.rng.Uniform(0.1, 5), 2e-5 * (1 - frac), 3.0 * frac)
                      : StrFormat("{'loss': %s, 'learning_rate': %.4e, 'epoch': %.2f}", ls.c_str(), 2e-5 * (1 - frac), 3.0 * frac));
    }
  });
  g.Add(bar_line);
}

void Lightning(Gen& g) {
  bool rich = g.Chance(0.4);
  int epoch = static_cast<int>(g.rng.Below(20));
  bool step_suffix = g.Chance(0.4);
  std::string line;
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.3f");
    double sec;
    std::string rate = g.TqdmRate(dt, &sec);
    double frac = static_cast<double>(s) / g.run.total;
    std::string loss_kv = step_suffix ? StrFormat("train_loss_step=%s", ls.c_str()) : StrFormat("loss=%s", ls.c_str());
    std::string seg;
    if (rich) {
      std::string rate_rich = StrFormat("%.2fit/s", 1 / dt);
      sec = 1 / Printed(rate_rich.substr(0, rate_rich.size() - 4));
      seg = StrFormat("Epoch %d/%d  %s %lld/%lld %s • %s %s v_num: %d %s: %s", epoch, 30, "━━━━━━━━━━━━━━━━━━━━",
              (long long)s, (long long)g.run.total, g.Hms(s * dt).c_str(), g.Hms((g.run.total - s) * dt).c_str(),
              rate_rich.c_str(), 7, step_suffix ? "train_loss_step" : "train_loss", ls.c_str());
    } else {
      seg = StrFormat("Epoch %d: %3d%%|%s| %lld/%lld [%s<%s, %s, %s, v_num=%d]", epoch, static_cast<int>(100 * frac),
              g.Bar(frac, 10).c_str(), (long long)s, (long long)g.run.total, g.Hms(s * dt).c_str(),
              g.Hms((g.run.total - s) * dt).c_str(), rate.c_str(), loss_kv.c_str(), 3);
    }
    line += "\r" + seg;
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      g.truth.step_time_s = sec;
      g.SetLoss(l, ls);
    }
  });
  g.Add(line);
  if (g.Chance(0.3)) g.Add("Validation DataLoader 0:  62%|██████▎   | 31/50 [00:02<00:01, 14.21it/s]");
}

void Keras(Gen& g) {
  bool keras3 = g.Chance(0.4);
  int epochs = 5 + static_cast<int>(g.rng.Below(20));
  int epoch = 1 + static_cast<int>(g.rng.Below(epochs - 1));
  bool end_of_epoch = g.Chance(0.4);
  g.Add(StrFormat("Epoch %d/%d", epoch, epochs));
  std::string line;
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.4f");
    if (last && end_of_epoch) s = g.run.total;
    int ms = std::max(1, static_cast<int>(std::lround(dt * 1000)));
    std::string seg;
    bool done = s == g.run.total;
    if (keras3) {
      seg = StrFormat("%5lld/%lld %s %ds %dms/step - accuracy: %.4f - loss: %s", (long long)s, (long long)g.run.total,
              "━━━━━━━━━━━━━━━━━━━━", static_cast<int>(s * dt), ms, g.rng.Uniform(0.5, 1), ls.c_str());
    } else if (done) {
      seg = StrFormat("%lld/%lld [==============================] - %ds %dms/step - loss: %s - accuracy: %.4f - val_loss: %.4f - val_accuracy: %.4f",
              (long long)s, (long long)g.run.total, static_cast<int>(s * dt), ms, ls.c_str(), g.rng.Uniform(0.5, 1),
              l * 1.1, g.rng.Uniform(0.5, 1));
    } else {
      seg = StrFormat("%5lld/%lld [%s>%s] - ETA: %s - loss: %s - accuracy: %.4f", (long long)s, (long long)g.run.total,
              std::string(29 * s / g.run.total, '=').c_str(), std::string(29 - 29 * s / g.run.total, '.').c_str(),
              g.Hms((g.run.total - s) * dt).c_str(), ls.c_str(), g.rng.Uniform(0.5, 1));
    }
    line += (line.empty() ? "" : "\b\b\b\r") + seg;
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      if (keras3 || done) g.truth.step_time_s = ms / 1000.0;
      g.SetLoss(l, ls);
    }
  });
  g.Add(line);
}

void Megatron(Gen& g) {
  bool ms = g.Chance(0.6);
  int prefix = static_cast<int>(g.rng.Below(3));
  bool tflops_only = g.Chance(0.3);
  g.ForSteps([&](int64_t s, double dt, bool last) {
    std::string t = ms ? StrFormat("%.1f", dt * 1000) : StrFormat("%.2f", dt);
    double l = g.Loss(s);
    std::string ls = std::isnan(l) ? "nan" : StrFormat("%.6E", l);
    std::string tp = tflops_only ? StrFormat("%.1f", g.rng.Uniform(100, 400)) : StrFormat("%.3f", g.run.batch / dt);
    std::string pre = prefix == 0 ? " " : prefix == 1 ? "[default0]: " : " [" + g.Clock("isos") + "] ";
    std::string line = StrFormat("%siteration %8lld/%8lld | consumed samples: %12lld | elapsed time per iteration (%s): %s | ",
                         pre.c_str(), (long long)s, (long long)g.run.total, (long long)(s * g.run.batch),
                         ms ? "ms" : "s", t.c_str());
    line += tflops_only ? StrFormat("throughput per GPU (TFLOP/s/GPU): %s | ", tp.c_str()) : std::string();
    line += StrFormat("learning rate: %.3E | global batch size: %5d | lm loss: %s | loss scale: %.1f | grad norm: %.3f | "
              "number of skipped iterations:   0 | number of nan iterations:   0 |",
              3e-4, static_cast<int>(g.run.batch), ls.c_str(), 65536.0, g.rng.Uniform(0.1, 3));
    if (!tflops_only) line += StrFormat(" samples per second: %s | TFLOPs: %.2f |", tp.c_str(), g.rng.Uniform(100, 300));
    g.Add(line);
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      g.truth.step_time_s = Printed(t) * (ms ? 1e-3 : 1);
      g.truth.throughput = Printed(tp);
      g.truth.throughput_unit = tflops_only ? "TFLOP/s/GPU" : "samples/s";
      g.SetLoss(l, ls);
    }
  });
}

void DeepSpeed(Gen& g) {
  bool new_timer = g.Chance(0.5);
  std::string prev_stamp;
  g.ForSteps([&](int64_t s, double dt, bool last) {
    std::string stamp = g.Clock("iso");
    if (last && !prev_stamp.empty()) g.StepTimeFromStamps(prev_stamp, stamp, g.run.interval);
    prev_stamp = stamp;
    g.Add(StrFormat("[%s] [INFO] [logging.py:96:log_dist] [Rank 0] step=%lld, skipped=0, lr=[%.6e], mom=[(0.9, 0.95)]",
            stamp.c_str(), (long long)s, 1e-4));
    std::string tp = StrFormat("%.6f", g.run.batch / dt);
    if (new_timer)
      g.Add(StrFormat("[%s] [INFO] [timer.py:260:stop] epoch=0/micro_step=%lld/global_step=%lld, RunningAvgSamplesPerSec=%.6f, "
              "CurrSamplesPerSec=%s, MemAllocated=%.2fGB, MaxMemAllocated=%.2fGB",
              stamp.c_str(), (long long)s, (long long)s, g.run.batch / g.run.step_time, tp.c_str(), 12.5, 20.1));
    else
      g.Add(StrFormat("[%s] [INFO] [timer.py:181:stop] 0/%lld, SamplesPerSec=%s", stamp.c_str(), (long long)s, tp.c_str()));
    if (last) {
      g.truth.step = s;
      g.truth.throughput = Printed(tp);
      g.truth.throughput_unit = "samples/s";
    }
  });
}

void Mmcv(Gen& g) {
  bool engine = g.Chance(0.5);
  int epoch = 1 + static_cast<int>(g.rng.Below(24));
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.4f");
    std::string t = StrFormat("%.4f", dt);
    std::string line =
        engine ? StrFormat("%s - mmengine - INFO - Epoch(train) [%d][%4lld/%lld]  base_lr: 2.0000e-02 lr: 2.0000e-02  eta: %s  "
                   "time: %s  data_time: %.4f  memory: %d  grad_norm: %.4f  loss: %s  loss_cls: %.4f  loss_bbox: %.4f",
                   g.Clock("slash").c_str(), epoch, (long long)s, (long long)g.run.total, g.Hms(9000).c_str(), t.c_str(),
                   dt * 0.05, 3456, g.rng.Uniform(1, 9), ls.c_str(), l * 0.4, l * 0.3)
               : StrFormat("%s - mmdet - INFO - Epoch [%d][%lld/%lld]\tlr: 2.000e-02, eta: 1 day, %s, time: %s, data_time: 0.012, "
                   "memory: 3456, loss_rpn_cls: %.4f, loss_rpn_bbox: %.4f, loss_cls: %.4f, acc: %.4f, loss: %s",
                   g.Clock("iso").c_str(), epoch, (long long)s, (long long)g.run.total, g.Hms(7000).c_str(), t.c_str(),
                   l * 0.1, l * 0.1, l * 0.4, g.rng.Uniform(80, 99), ls.c_str());
    g.Add(line);
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      g.truth.step_time_s = Printed(t);
      g.SetLoss(l, ls);
    }
  });
  if (g.Chance(0.4)) {
    g.Add(StrFormat("%s - mmdet - INFO - Saving checkpoint at %d epochs", g.Clock("iso").c_str(), epoch));
    g.Add("[>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>] 500/500, 21.3 task/s, elapsed: 23s, ETA:     0s");
    g.Add(StrFormat("%s - mmdet - INFO - Epoch(val) [%d][500]\tbbox_mAP: 0.3120, bbox_mAP_50: 0.5210", g.Clock("iso").c_str(), epoch));
  }
}

void Detectron2(Gen& g) {
  bool file_style = g.Chance(0.5);
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.3f");
    std::string t = StrFormat("%.4f", dt);
    std::string body = StrFormat(" eta: %s  iter: %lld  total_loss: %s  loss_cls: %.3f  loss_box_reg: %.3f  time: %s  "
                         "data_time: %.4f  lr: %.6f  max_mem: %dM",
                         g.Hms((g.run.total - s) * dt).c_str(), (long long)s, ls.c_str(), l * 0.6, l * 0.3, t.c_str(),
                         dt * 0.1, 0.01, 3961);
    g.Add(file_style ? "[" + g.Clock("md") + "] d2.utils.events INFO: " + body
                     : "[" + g.Clock("md") + " d2.utils.events]:" + body);
    if (last) {
      g.truth.step = s;
      g.truth.step_time_s = Printed(t);
      g.SetLoss(l, ls);
    }
  });
}

void Fairseq(Gen& g) {
  int epoch = 1 + static_cast<int>(g.rng.Below(30));
  bool json = g.Chance(0.25);
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.3f");
    std::string ups = StrFormat("%.2f", 1 / dt);
    std::string wps = StrFormat("%d", static_cast<int>(g.run.batch * 100 / dt));
    int64_t updates = s + (epoch - 1) * g.run.total;
    if (json) {
      g.Add(StrFormat("{\"epoch\": %d, \"update\": %.3f, \"loss\": \"%s\", \"ppl\": \"%.2f\", \"wps\": \"%s\", \"ups\": \"%s\", "
              "\"wpb\": \"%d\", \"bsz\": \"%d\", \"num_updates\": \"%lld\", \"lr\": \"%.6g\", \"gnorm\": \"%.3f\"}",
              epoch, epoch - 1 + static_cast<double>(s) / g.run.total, ls.c_str(), std::exp(std::min(l, 20.0)),
              wps.c_str(), ups.c_str(), static_cast<int>(g.run.batch * 100), static_cast<int>(g.run.batch),
              (long long)updates, 5e-4, g.rng.Uniform(0.1, 3)));
    } else {
      g.Add(StrFormat("%s | INFO | train_inner | epoch %03d:  %5lld / %lld loss=%s, ppl=%.2f, wps=%s, ups=%s, wpb=%d, bsz=%d, "
              "num_updates=%lld, lr=%.6g, gnorm=%.3f, train_wall=%d, wall=%d",
              g.Clock("isos").c_str(), epoch, (long long)s, (long long)g.run.total, ls.c_str(),
              std::exp(std::min(l, 20.0)), wps.c_str(), ups.c_str(), static_cast<int>(g.run.batch * 100),
              static_cast<int>(g.run.batch), (long long)updates, 5e-4, g.rng.Uniform(0.1, 3), 13, 1349));
    }
    if (last) {
      g.truth.step = json ? updates : s;
      g.truth.total_steps = json ? std::nullopt : std::optional<int64_t>(g.run.total);
      g.truth.step_time_s = 1 / Printed(ups);
      g.truth.throughput = Printed(wps);
      g.truth.throughput_unit = "words/s";
      g.SetLoss(l, ls);
    }
  });
  if (g.Chance(0.4))
    g.Add(StrFormat("%s | INFO | valid | epoch %03d | valid on 'valid' subset | loss 4.123 | ppl 17.42 | num_updates %lld",
            g.Clock("isos").c_str(), epoch, (long long)g.run.last));
}

void NanoGpt(Gen& g) {
  bool stamps = g.Chance(0.3);
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.4f");
    std::string t = StrFormat("%.2f", dt * 1000);
    g.Add(StrFormat("%siter %lld: loss %s, time %sms, mfu %.2f%%", stamps ? (g.Clock("isos") + " ").c_str() : "", (long long)s,
            ls.c_str(), t.c_str(), g.rng.Uniform(10, 50)));
    if (last) {
      g.truth.step = s;
      g.truth.step_time_s = Printed(t) / 1000;
      g.SetLoss(l, ls);
    }
  });
  if (g.Chance(0.5)) {
    g.Add(StrFormat("step %lld: train loss %.4f, val loss %.4f", (long long)(g.run.last + g.run.interval), 1.5, 1.7));
    g.Add("saving checkpoint to out");
  }
}

void Torchtitan(Gen& g) {
  int ranks = 1 + static_cast<int>(g.rng.Below(8));
  int64_t prev_step = -1;
  std::string prev_stamp;
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.5f");
    std::string stamp = g.Clock("iso");
    int tps = static_cast<int>(g.run.batch * 1000 / dt);
    std::string tps_s = tps >= 1000 ? StrFormat("%d,%03d", tps / 1000, tps % 1000) : StrFormat("%d", tps);
    for (int r = 0; r < ranks; ++r)
      g.Add(StrFormat("[titan] %s - root - INFO - step: %2lld  loss: %s  grad_norm: %.4f  memory: %.2fGiB(%.2f%%)  tps: %s  "
              "tflops: %.2f  mfu: %.2f%%",
              stamp.c_str(), (long long)s, ls.c_str(), g.rng.Uniform(0.5, 40), 66.91, 37.51, tps_s.c_str(), 314.69, 13.99));
    if (last) {
      g.truth.step = s;
      g.truth.throughput = tps;
      g.truth.throughput_unit = "tokens/s/GPU";
      g.SetLoss(l, ls);
      if (prev_step >= 0) g.StepTimeFromStamps(prev_stamp, stamp, s - prev_step);
    }
    prev_step = s;
    prev_stamp = stamp;
  });
}

void TfSlim(Gen& g) {
  bool dup = g.Chance(0.4);
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.4f");
    std::string t = StrFormat("%.3f", dt);
    std::string line = StrFormat("INFO:tensorflow:global step %lld: loss = %s (%s sec/step)", (long long)s, ls.c_str(), t.c_str());
    g.Add(line);
    if (dup) g.Add(line);
    if (s % (g.run.interval * 5) == 0 && !last) g.Add(StrFormat("INFO:tensorflow:global_step/sec: %.4f", 1 / dt));
    if (last) {
      g.truth.step = s;
      g.truth.step_time_s = Printed(t);
      g.SetLoss(l, ls);
    }
  });
}

void Paddle(Gen& g) {
  int epoch = static_cast<int>(g.rng.Below(50));
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.6f");
    std::string t = StrFormat("%.4f", dt);
    std::string ips = StrFormat("%.4f", g.run.batch / dt);
    g.Add(StrFormat("[%s] ppdet.engine.callbacks INFO: Epoch: [%d] [%4lld/%lld] learning_rate: 0.000029 loss: %s loss_cls: %.6f "
            "loss_iou: %.6f eta: 2 days, %s batch_cost: %s data_cost: 0.0042 ips: %s images/s, max_mem_reserved: 10812 MB",
            g.Clock("md").c_str(), epoch, (long long)s, (long long)g.run.total, ls.c_str(), l * 0.3, l * 0.1,
            g.Hms(8000).c_str(), t.c_str(), ips.c_str()));
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      g.truth.step_time_s = Printed(t);
      g.truth.throughput = Printed(ips);
      g.truth.throughput_unit = "images/s";
      g.SetLoss(l, ls);
    }
  });
}

void Yolo(Gen& g) {
  int epochs = 100 + static_cast<int>(g.rng.Below(200));
  int epoch = static_cast<int>(g.rng.Below(epochs));
  g.Add("      Epoch    GPU_mem   box_loss   obj_loss   cls_loss  Instances       Size");
  std::string line;
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double sec;
    std::string rate = g.TqdmRate(dt, &sec);
    double frac = static_cast<double>(s) / g.run.total;
    line += StrFormat("\r%11s %10s %10.4f %10.4f %10.4f %10d %10d: %3d%%|%s| %lld/%lld [%s<%s, %s]",
              StrFormat("%d/%d", epoch, epochs - 1).c_str(), "3.21G", g.rng.Uniform(0.01, 0.1), g.rng.Uniform(0.01, 0.1),
              g.rng.Uniform(0.01, 0.1), static_cast<int>(g.rng.Below(300)), 640, static_cast<int>(100 * frac),
              g.Bar(frac, 10).c_str(), (long long)s, (long long)g.run.total, g.Hms(s * dt).c_str(),
              g.Hms((g.run.total - s) * dt).c_str(), rate.c_str());
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      g.truth.step_time_s = sec;
    }
  });
  g.Add(line);
}

void MetricLogger(Gen& g) {
  int epoch = static_cast<int>(g.rng.Below(300));
  bool stamps = g.Chance(0.5);
  g.ForSteps([&](int64_t s, double dt, bool last) {
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.4f");
    std::string t = StrFormat("%.4f", dt);
    g.Add(StrFormat("%sEpoch: [%d]  [%4lld/%lld]  eta: %s  lr: 0.000500  loss: %s (%.4f)  time: %s  data: %.4f  max mem: %d",
            stamps ? ("[" + g.Clock("isos").substr(11) + ".138234] ").c_str() : "", epoch, (long long)s,
            (long long)g.run.total, g.Hms((g.run.total - s) * dt).c_str(), ls.c_str(), l * 1.02, t.c_str(), dt * 0.2, 2900));
    if (last) {
      g.truth.step = s;
      g.truth.total_steps = g.run.total;
      g.truth.step_time_s = Printed(t);
      g.SetLoss(l, ls);
    }
  });
  if (g.Chance(0.4)) g.Add(StrFormat("Epoch: [%d] Total time: 0:12:34 (0.6004 s / it)", epoch));
}

// Layouts people write themselves: randomised keys, separators and units.
void Custom(Gen& g) {
  static const char* kStepKeys[] = {"step", "iter", "Step", "global_step", "iteration", "it"};
  static const char* kSeps[] = {": ", "=", " "};
  static const char* kDelims[] = {" | ", ", ", "  ", " - ", "\t"};
  static const char* kLossKeys[] = {"loss", "train_loss", "Loss", "total_loss", "lm_loss"};
  std::string sk = kStepKeys[g.rng.Below(6)], sep = kSeps[g.rng.Below(3)], d = kDelims[g.rng.Below(5)];
  std::string lk = kLossKeys[g.rng.Below(5)];
  int time_style = static_cast<int>(g.rng.Below(6));
  int tp_style = static_cast<int>(g.rng.Below(4));
  bool counter = g.Chance(0.4);
  bool json = g.Chance(0.2);
  bool stamp = g.Chance(0.5);
  std::string prev_stamp;
  g.ForSteps([&](int64_t s, double dt, bool last) {
    std::string now = g.Clock("iso");
    std::string older = prev_stamp;
    prev_stamp = now;
    double l = g.Loss(s);
    std::string ls = g.LossStr(l, "%.4f");
    double sec = 0;
    std::string tfield;
    std::string v;
    switch (time_style) {
      case 0: v = StrFormat("%.3f", dt); tfield = json ? "\"step_time\": " + v : "time" + sep + v + "s"; sec = Printed(v); break;
      case 1: v = StrFormat("%.3f", dt); tfield = json ? "\"time_per_step\": " + v : "step_time" + sep + v; sec = Printed(v); break;
      case 2: v = StrFormat("%.3f", dt); tfield = v + " s/step"; sec = Printed(v); break;
      case 3: v = StrFormat("%.1f", dt * 1000); tfield = json ? "\"iter_time_ms\": " + v : v + "ms/it"; sec = Printed(v) / 1000; break;
      case 4: v = StrFormat("%.2f", 1 / dt); tfield = v + " it/s"; sec = 1 / Printed(v); break;
      default: tfield = ""; break;
    }
    std::string tp, unit;
    double tpv = g.run.batch / dt;
    switch (tp_style) {
      case 0: tp = StrFormat("%.1f", tpv); unit = "samples/s"; tp = json ? "\"samples_per_second\": " + tp : tp + " samples/s"; break;
      case 1: tp = StrFormat("%.0f", tpv * 512); unit = "tokens/s"; tp = json ? "\"tokens_per_sec\": " + tp : "tokens/s" + sep + tp; break;
      case 2: tp = StrFormat("%.1f", tpv); unit = "images/s"; tp = "throughput" + sep + tp + " img/s"; break;
      default: tp = ""; break;
    }
    std::string line;
    if (json) {
      line = StrFormat("{\"step\": %lld, \"%s\": %s", (long long)s, lk.c_str(), std::isnan(l) ? "NaN" : ls.c_str());
      if (!tfield.empty() && tfield[0] == '"') line += ", " + tfield;
      if (!tp.empty() && tp[0] == '"') line += ", " + tp;
      line += ", \"lr\": 0.0003}";
    } else {
      line = stamp ? now + " INFO train: " : std::string();
      line += counter ? StrFormat("[%lld/%lld]", (long long)s, (long long)g.run.total) + d
                      : sk + sep + std::to_string(s) + d;
      line += lk + sep + ls;
      if (!tfield.empty()) line += d + tfield;
      if (!tp.empty()) line += d + tp;
      line += d + "lr" + sep + "3.0e-04";
    }
    g.Add(line);
    if (last) {
      g.truth.step = s;
      if (counter && !json) g.truth.total_steps = g.run.total;
      bool json_time = json && !tfield.empty() && tfield[0] == '"';
      bool text_time = !json && !tfield.empty();
      if ((json_time || text_time) && sec > 0) g.truth.step_time_s = sec;
      else if (stamp && !json && !older.empty()) g.StepTimeFromStamps(older, now, g.run.interval);
      bool json_tp = json && !tp.empty() && tp[0] == '"';
      if ((json_tp || (!json && !tp.empty()))) {
        g.truth.throughput = Printed(tp.substr(tp.find_first_of("0123456789")));
        g.truth.throughput_unit = unit;
      }
      g.SetLoss(l, ls);
    }
  });
}

// A job that never reaches training: start-up and a crash, or evaluation only.
void NoProgress(Gen& g) {
  g.Add("Loading checkpoint shards: 100%|██████████| 4/4 [00:05<00:00,  1.31s/it]");
  g.Add(StrFormat("Model has %d parameters", static_cast<int>(g.rng.Below(900000000))));
  if (g.Chance(0.5)) {
    g.Add("Evaluating: 100%|██████████| 125/125 [00:31<00:00,  3.98it/s]");
    g.Add(StrFormat("eval_loss: %.4f eval_accuracy: %.4f", 1.2, 0.61));
  } else {
    g.Add("Traceback (most recent call last):");
    g.Add("  File \"train.py\", line 88, in <module>");
    g.Add("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB");
  }
}


}  // namespace loggen_internal
}  // namespace schedmate
