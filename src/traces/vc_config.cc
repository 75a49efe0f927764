#include "traces/vc_config.h"

#include <fstream>

#include "traces/csv_table.h"

namespace schedmate {

Result<std::vector<VcCapacity>> LoadVcConfig(std::istream& in,
                                             std::string source) {
  ASSIGN_OR_RETURN(CsvTable t, CsvTable::Open(in, std::move(source)));
  if (t.header().size() < 2)
    return InvalidArgument(t.source() +
                           ":1: expected two columns: vc name, node count");
  int c_name = 0;
  int c_nodes = t.Find("node num");
  if (c_nodes < 0) c_nodes = t.Find("num");
  if (c_nodes < 0) c_nodes = t.Find("nodes");
  if (c_nodes < 0)
    return InvalidArgument(t.source() +
                           ":1: missing column 'node num', 'num' or 'nodes'");
  if (c_nodes == c_name) c_name = 1;
  std::vector<VcCapacity> out;
  while (true) {
    ASSIGN_OR_RETURN(bool more, t.Next());
    if (!more) break;
    VcCapacity vc;
    vc.name = std::string(t.Field(c_name));
    if (vc.name.empty()) return t.ColumnError(c_name, "empty VC name");
    for (const auto& other : out)
      if (other.name == vc.name)
        return t.ColumnError(c_name, "VC '" + vc.name + "' listed twice");
    ASSIGN_OR_RETURN(int64_t n, t.NonNegativeInt(c_nodes));
    if (n == 0 || n > 100000)
      return t.ColumnError(c_nodes, "node count must be 1..100000");
    vc.nodes = static_cast<int32_t>(n);
    out.push_back(std::move(vc));
  }
  if (out.empty()) return InvalidArgument(t.source() + ": no VCs listed");
  return out;
}

Result<std::vector<VcCapacity>> LoadVcConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot open VC config");
  return LoadVcConfig(in, path);
}

}  // namespace schedmate
