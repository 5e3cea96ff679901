#include "src/serve/exposition.h"

#include <charconv>
#include <cmath>

namespace vrecon::serve {

void AppendLabelValue(std::string* out, std::string_view v) {
  for (const char c : v) {
    if (c == '\\') {
      out->append("\\\\");
    } else if (c == '"') {
      out->append("\\\"");
    } else if (c == '\n') {
      out->append("\\n");
    } else {
      out->push_back(c);
    }
  }
}

void Exposition::Family(std::string_view name, std::string_view type, std::string_view help) {
  name_ = name;
  out_->append("# HELP ").append(name).push_back(' ');
  for (const char c : help) {
    if (c == '\\') {
      out_->append("\\\\");
    } else if (c == '\n') {
      out_->append("\\n");
    } else {
      out_->push_back(c);
    }
  }
  out_->append("\n# TYPE ").append(name).push_back(' ');
  out_->append(type).push_back('\n');
}

void Exposition::Sample(std::initializer_list<Label> labels, double value) {
  out_->append(name_);
  if (labels.size() > 0) {
    char sep = '{';
    for (const auto& [key, v] : labels) {
      out_->push_back(sep);
      out_->append(key).append("=\"");
      AppendLabelValue(out_, v);
      out_->push_back('"');
      sep = ',';
    }
    out_->push_back('}');
  }
  out_->push_back(' ');
  if (std::isnan(value)) {
    out_->append("NaN");
  } else if (std::isinf(value)) {
    out_->append(value > 0 ? "+Inf" : "-Inf");
  } else {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof(buf), value);  // shortest text that reads back exactly
    out_->append(buf, r.ptr);
  }
  out_->push_back('\n');
}

}  // namespace vrecon::serve
