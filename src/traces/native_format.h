// schedmate's own trace format: what `schedmate` writes and reads back
// losslessly (every JobSpec field, extra columns included).
//
//   # schedmate trace v1
//   # source=<percent-encoded>
//   # format=<format it was converted from>
//   # synthetic=0|1
//   # epoch_s=<calendar seconds of submit_s == 0>
//   id,user,vc,name,type,gpus,cpus,submit_s,duration_s,state,batch_size,extra
//
// `extra` holds k=v pairs joined by ';' with '%', ';', '=' percent-encoded.
#ifndef SCHEDMATE_TRACES_NATIVE_FORMAT_H_
#define SCHEDMATE_TRACES_NATIVE_FORMAT_H_

#include <ostream>
#include <string>

#include "core/job_spec.h"
#include "core/status.h"

namespace schedmate {

Status WriteNativeTrace(const Trace& trace, std::ostream& out);
Status WriteNativeTraceFile(const Trace& trace, const std::string& path);

std::string PercentEncode(std::string_view s, std::string_view specials);
Result<std::string> PercentDecode(std::string_view s);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_NATIVE_FORMAT_H_
