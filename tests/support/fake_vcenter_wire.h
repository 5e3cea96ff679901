// The fake vCenter's per-answer and per-connection state, shared by its request handling
// (fake_vcenter.cc) and its hostile answers (fake_vcenter_hostile.cc). Test support only.
#ifndef VRECON_TESTS_SUPPORT_FAKE_VCENTER_WIRE_H_
#define VRECON_TESTS_SUPPORT_FAKE_VCENTER_WIRE_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "tests/support/fake_vcenter.h"

namespace vrecon::testing {

// An answer body made as it is sent: `prefix`, then `unit` over and over, `total` bytes in all.
struct FakeStream {
  std::string prefix, unit;
  int64_t total = 0;
  bool chunked = false;     // Transfer-Encoding: chunked (no length announced)
  int64_t announced = 0;    // Content-Length when not chunked (may exceed total: the server lies)
  int64_t bytes_per_s = 0;  // 0: as fast as the socket takes
};

struct FakeResponse {
  int status = 200;
  std::string content_type = "text/xml; charset=utf-8";
  std::string body;
  std::string extra_headers;  // each ending in \r\n
  bool cut = false;           // write half the body, then close
  bool hang = false;          // write nothing, close after hang_s
  std::optional<FakeStream> stream;
};

struct FakeConnection {
  int fd = -1;
  std::string in;
  std::optional<std::chrono::steady_clock::time_point> hang_until;
  std::optional<FakeStream> stream;
  int64_t body_sent = 0;  // of the stream's body
  std::chrono::steady_clock::time_point stream_start{};
  std::string pending;  // made, not yet taken by the socket
};

// The answer of a hostile QueryPerf mode (kTrickle .. kManyElements; fake_vcenter_hostile.cc);
// false for the other modes.
bool HostileAnswer(PerfMode mode, const FakeVcenterOptions& options, FakeResponse* r);

// The next bytes of a stream, at most `max` (chunk framing included when chunked), appended to
// `out`; advances `sent`. A chunked stream's end marker comes with its last bytes.
void MakeStreamBytes(const FakeStream& s, int64_t max, int64_t* sent, std::string* out);

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_FAKE_VCENTER_WIRE_H_
