// Which process printed a log line, read from the line's shape alone (issue
// 14): a failed job's log interleaves the kernel, the cluster manager, C++
// loggers, NCCL and the Python interpreter, and who reported the error says
// much about what failed — a kernel or scheduler line points at the node, a
// Python exception at the job's code or its libraries. The learned classifier
// reads it as a feature of the root line and of the window's failure lines.
#ifndef SCHEDMATE_FAILURE_LINE_PRINTER_H_
#define SCHEDMATE_FAILURE_LINE_PRINTER_H_

#include <string_view>

namespace schedmate {

// One of:
//   "kernel"       dmesg or journal kernel lines ("[  218.25] …", "kernel: …", "NVRM: …")
//   "syslog"       a system daemon's syslog line ("Dec  2 11:38:46 host proc[12]: …")
//   "slurm"        SLURM's tools ("slurmstepd: error: …", "srun: …")
//   "kubernetes"   Kubernetes ("kubelet …", "pod …", "container …")
//   "cpp-log-E"    a glog-style C++ logger line ("E0330 21:37:34.807 155011 file.cc:869] …";
//                  the letter is its severity: I, W, E or F)
//   "nccl"         NCCL's own log ("host:pid:tid [0] NCCL WARN …")
//   "cpp-what"     a C++ exception's "what():"
//   "py-qualified" a Python exception named with its module ("torch.distributed.DistNetworkError: …")
//   "py"           a Python exception by bare name ("ValueError: …")
//   "warning"      any other line with a warning word
//   "other"
std::string_view LinePrinter(std::string_view line);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_LINE_PRINTER_H_
