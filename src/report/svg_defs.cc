#include "src/report/svg_defs.h"

namespace vrecon::report {

std::string SvgDefs::Use(const std::string& fragment) {
  auto [it, fresh] = ids_.try_emplace(fragment, static_cast<int>(ids_.size()));
  const std::string id = "c" + std::to_string(it->second);
  if (fresh) defs_ += "<g id=\"" + id + "\">" + fragment + "</g>";
  return "<use href=\"#" + id + "\"/>";
}

std::string SvgDefs::Block() const {
  if (defs_.empty()) return "";
  // Zero-sized and out of the flow; the parts keep their classes, styled like the charts.
  return "<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\" style=\"position:absolute\"><defs>" +
         defs_ + "</defs></svg>\n";
}

}  // namespace vrecon::report
