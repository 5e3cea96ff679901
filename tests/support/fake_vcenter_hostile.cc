// The fake vCenter's hostile QueryPerf answers: slow, huge, endless, entity bombs, deep or
// bloated XML. The large ones are streams made piece by piece, so a 2 GB answer costs the test
// no memory.
#include <cstdio>

#include "tests/support/fake_vcenter_wire.h"

namespace vrecon::testing {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;

const char kHead[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
    "<QueryPerfResponse xmlns=\"urn:vim25\">";
const char kTail[] = "</QueryPerfResponse></soapenv:Body></soapenv:Envelope>";
const char kReturnval[] = "<returnval><entity type=\"VirtualMachine\">vm-101</entity></returnval>";

FakeStream Endless(int64_t bytes_per_s) {
  return FakeStream{
      .prefix = kHead, .unit = kReturnval, .total = 2 * kGiB, .chunked = true, .bytes_per_s = bytes_per_s};
}

// The classic: ten of the previous entity, nine levels, 10^9 "lol" when expanded.
std::string BillionLaughs() {
  std::string dtd = "<!DOCTYPE lolz [\n<!ENTITY lol0 \"lol\">\n";
  for (int level = 1; level <= 9; ++level) {
    dtd += "<!ENTITY lol" + std::to_string(level) + " \"";
    for (int i = 0; i < 10; ++i) dtd += "&lol" + std::to_string(level - 1) + ";";
    dtd += "\">\n";
  }
  dtd += "]>\n";
  std::string head = kHead;
  head.insert(head.find("<soapenv:Envelope"), dtd);
  return head + "<returnval><entity type=\"VirtualMachine\">&lol9;</entity></returnval>" + kTail;
}

std::string Repeated(const std::string& s, int64_t n) {
  std::string out;
  out.reserve(static_cast<size_t>(n) * s.size());
  for (int64_t i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

bool HostileAnswer(PerfMode mode, const FakeVcenterOptions& options, FakeResponse* r) {
  switch (mode) {
    case PerfMode::kTrickle:
      r->stream = FakeStream{.prefix = kHead,
                             .unit = kReturnval,
                             .total = 1 << 20,
                             .announced = 1 << 20,
                             .bytes_per_s = options.trickle_bytes_per_s};
      return true;
    case PerfMode::kSlowEndless: r->stream = Endless(8192); return true;
    case PerfMode::kHugeBody:
      r->stream = FakeStream{.prefix = kHead, .unit = kReturnval, .total = 2 * kGiB, .announced = 2 * kGiB};
      return true;
    case PerfMode::kEndlessBody: r->stream = Endless(0); return true;
    case PerfMode::kBillionLaughs: r->body = BillionLaughs(); return true;
    case PerfMode::kDeepNesting:
      r->body = kHead + Repeated("<a>", 1000000) + Repeated("</a>", 1000000) + kTail;
      return true;
    case PerfMode::kManyElements: r->body = kHead + Repeated("<a/>", 12000000) + kTail; return true;
    default: return false;
  }
}

void MakeStreamBytes(const FakeStream& s, int64_t max, int64_t* sent, std::string* out) {
  const int64_t n = std::min(max, s.total - *sent);
  std::string data;
  data.reserve(static_cast<size_t>(n));
  for (int64_t p = *sent; p < *sent + n; ++p) {
    const int64_t prefix = static_cast<int64_t>(s.prefix.size());
    data += p < prefix ? s.prefix[p] : s.unit[(p - prefix) % s.unit.size()];
  }
  *sent += n;
  if (!s.chunked) {
    *out += data;
    return;
  }
  char size[32];
  std::snprintf(size, sizeof size, "%llx\r\n", static_cast<unsigned long long>(n));
  *out += size + data + "\r\n";
  if (*sent >= s.total) *out += "0\r\n\r\n";
}

}  // namespace vrecon::testing
