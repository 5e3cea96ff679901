// fixtures/unread/: inputs vrecon does not read (fixtures/unread/README.md), each with the piece
// of the message it must get (<file>.expected_error).
#ifndef VRECON_TESTS_SUPPORT_UNREAD_FIXTURES_H_
#define VRECON_TESTS_SUPPORT_UNREAD_FIXTURES_H_

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/cli_runner.h"

namespace vrecon::testing {

struct UnreadFixture {
  std::string path;
  std::string expected;  // in the refusal
};

inline std::vector<UnreadFixture> UnreadFixtures() {
  std::vector<UnreadFixture> out;
  for (const auto& e : std::filesystem::directory_iterator(Fixture("unread"))) {
    const std::string path = e.path().string();
    if (path.ends_with(".expected_error") || path.ends_with("README.md")) continue;
    std::string want = ReadText(path + ".expected_error");
    while (!want.empty() && want.back() == '\n') want.pop_back();
    out.push_back({path, want});
  }
  return out;
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_UNREAD_FIXTURES_H_
