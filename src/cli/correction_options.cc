#include "src/cli/correction_options.h"

#include "src/cli/commands.h"

namespace vrecon::cli {

Status ToCorrectionRequest(const CorrectionOptions& o, CorrectionRequest* req) {
  req->window = static_cast<TimeNs>(o.window) * kNsPerSec;
  if (!o.vm.empty()) req->vm = o.vm;
  req->hyperv_guest_run_time = o.hyperv_counter == "guest";
  req->vsphere_run = o.vsphere_counter == "run";
  req->esxtop_run = o.esxtop_counter == "run";
  req->align = !o.no_align;
  RETURN_IF_ERROR(ParseTimeRange(o.from, o.to, &req->from, &req->to));
  for (const std::string& m : o.maps) {
    std::string g, v;
    RETURN_IF_ERROR(ParseMapping(m, &g, &v));
    req->mappings[g] = v;
  }
  return Status::Ok();
}

}  // namespace vrecon::cli
