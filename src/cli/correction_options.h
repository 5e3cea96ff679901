// The options `vrecon correct` and `vrecon counters` share (which VMs, which range, which
// windows, how guest and host are paired), registered once (AddCorrectionOptions in
// src/cli/command_line.h) and turned into a CorrectionRequest here.
#ifndef VRECON_SRC_CLI_CORRECTION_OPTIONS_H_
#define VRECON_SRC_CLI_CORRECTION_OPTIONS_H_

#include <string>
#include <vector>

#include "src/core/host_counters.h"
#include "src/core/status.h"
#include "src/engine/correction_job.h"

namespace vrecon::cli {

struct CorrectionOptions {
  std::vector<std::string> maps;
  std::string vm, from, to, hyperv_counter = "total", vsphere_counter = "usage", esxtop_counter = "used";
  int window = 300;
  bool no_align = false;
};

// The host counter an option's word names (--hyperv-counter, --vsphere-counter,
// --esxtop-counter); a usage error names the option. CLI11 checks the words first, from the same
// lists (src/core/host_counters.h).
Status ParseCounterOption(const std::string& word, HyperVCounter* out);
Status ParseCounterOption(const std::string& word, VsphereCounter* out);
Status ParseCounterOption(const std::string& word, EsxtopCounter* out);
// A usage error (exit 2) names the option at fault.
Status ToCorrectionRequest(const CorrectionOptions& o, CorrectionRequest* req);

}  // namespace vrecon::cli

#endif  // VRECON_SRC_CLI_CORRECTION_OPTIONS_H_
