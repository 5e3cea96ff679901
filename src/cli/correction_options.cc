#include "src/cli/correction_options.h"

#include <optional>
#include <string>
#include <vector>

#include "src/cli/commands.h"

namespace vrecon::cli {

namespace {

template <typename E>
Status ParseWord(const char* option, const std::string& word, std::optional<E> parsed,
                 const std::vector<std::string>& words, E* out) {
  if (!parsed)
    return Status::InvalidArgument(std::string(option) + " " + MustBeOneOf(words) + ", not \"" + word + "\"");
  *out = *parsed;
  return Status::Ok();
}

}  // namespace

Status ParseCounterOption(const std::string& word, HyperVCounter* out) {
  return ParseWord("--hyperv-counter", word, ParseHyperVCounter(word), HyperVCounterWords(), out);
}
Status ParseCounterOption(const std::string& word, VsphereCounter* out) {
  return ParseWord("--vsphere-counter", word, ParseVsphereCounter(word), VsphereCounterWords(), out);
}
Status ParseCounterOption(const std::string& word, EsxtopCounter* out) {
  return ParseWord("--esxtop-counter", word, ParseEsxtopCounter(word), EsxtopCounterWords(), out);
}

Status ToCorrectionRequest(const CorrectionOptions& o, CorrectionRequest* req) {
  req->window = static_cast<TimeNs>(o.window) * kNsPerSec;
  if (!o.vm.empty()) req->vm = o.vm;
  RETURN_IF_ERROR(ParseCounterOption(o.hyperv_counter, &req->host_counters.hyperv));
  RETURN_IF_ERROR(ParseCounterOption(o.vsphere_counter, &req->host_counters.vsphere));
  RETURN_IF_ERROR(ParseCounterOption(o.esxtop_counter, &req->host_counters.esxtop));
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
