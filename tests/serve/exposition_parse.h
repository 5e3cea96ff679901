// For the /metrics tests: the samples of a text exposition keyed by their series as written
// (`name{label="value",...}`), and the families' # TYPE lines.
#ifndef VRECON_TESTS_SERVE_EXPOSITION_PARSE_H_
#define VRECON_TESTS_SERVE_EXPOSITION_PARSE_H_

#include <map>
#include <sstream>
#include <string>

namespace vrecon::testing {

struct ParsedExposition {
  std::map<std::string, double> samples;     // series -> value
  std::map<std::string, std::string> types;  // family -> gauge | counter
};

inline ParsedExposition ParseExposition(const std::string& text) {
  ParsedExposition p;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# TYPE ", 0) == 0) {
      const size_t sp = line.find(' ', 7);
      p.types[line.substr(7, sp - 7)] = line.substr(sp + 1);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const size_t sp = line.rfind(' ');
    p.samples[line.substr(0, sp)] = std::stod(line.substr(sp + 1));
  }
  return p;
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SERVE_EXPOSITION_PARSE_H_
