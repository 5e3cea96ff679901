// Prometheus' text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/): a family's `# HELP` and
// `# TYPE` lines, then its samples `name{label="value",...} value`, one per line. Label values
// escape backslash, double quote and newline; HELP text backslash and newline.
#ifndef VRECON_SRC_SERVE_EXPOSITION_H_
#define VRECON_SRC_SERVE_EXPOSITION_H_

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace vrecon::serve {

inline constexpr std::string_view kExpositionContentType = "text/plain; version=0.0.4; charset=utf-8";

using Label = std::pair<std::string_view, std::string_view>;

class Exposition {
 public:
  explicit Exposition(std::string* out) : out_(out) {}

  // `type`: gauge | counter | info-style gauges are "gauge".
  void Family(std::string_view name, std::string_view type, std::string_view help);
  // A sample of the family named last. NaN and infinities are written as Prometheus spells them.
  void Sample(std::initializer_list<Label> labels, double value);

 private:
  std::string* out_;
  std::string name_;
};

// Appends `v` escaped for a label value.
void AppendLabelValue(std::string* out, std::string_view v);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_EXPOSITION_H_
