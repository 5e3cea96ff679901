// Chart parts that repeat across a report's charts: grids, time axes, frames, axis titles and
// legends are the same for every VM of a fleet that shares one period. Each distinct part is
// written once, in a hidden <svg> before the first chart, and drawn with <use> everywhere: a
// 1,000-VM report is about 40% smaller (docs/performance.md).
#ifndef VRECON_SRC_REPORT_SVG_DEFS_H_
#define VRECON_SRC_REPORT_SVG_DEFS_H_

#include <string>
#include <unordered_map>

namespace vrecon::report {

class SvgDefs {
 public:
  // `<use href="#cN"/>` drawing `fragment` (SVG elements), which is defined the first time.
  std::string Use(const std::string& fragment);
  // The hidden <svg> holding every fragment defined so far ("" when none): put it in the page
  // before the charts that use them.
  std::string Block() const;

 private:
  std::unordered_map<std::string, int> ids_;
  std::string defs_;
};

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_SVG_DEFS_H_
