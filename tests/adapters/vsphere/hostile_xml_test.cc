// The answer parsers against hostile XML (adapters/vsphere/answer_xml.h): a DOCTYPE (billion
// laughs) is refused, a million nested elements neither overflow the stack nor pass, a document
// that would need more than the parser's memory budget is refused, and real shapes still parse.
#include <gtest/gtest.h>

#include <string>

#include "adapters/vsphere/answer_xml.h"
#include "adapters/vsphere/vsphere_xml.h"

namespace vrecon::vsphere {
namespace {

const char kHead[] =
    "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
    "<soapenv:Body><QueryPerfResponse xmlns=\"urn:vim25\">";
const char kTail[] = "</QueryPerfResponse></soapenv:Body></soapenv:Envelope>";

std::string Repeated(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * n);
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string Nested(int depth) { return kHead + Repeated("<a>", depth) + Repeated("</a>", depth) + kTail; }

TEST(HostileXmlTest, BillionLaughsIsRefusedUnexpanded) {
  std::string dtd = "<!DOCTYPE lolz [<!ENTITY lol0 \"lol\">";
  for (int level = 1; level <= 9; ++level) {
    dtd +=
        "<!ENTITY lol" + std::to_string(level) + " \"" + Repeated("&lol" + std::to_string(level - 1) + ";", 10) + "\">";
  }
  dtd += "]>";
  const std::string body = std::string(kHead).insert(21, dtd) + "<returnval>&lol9;</returnval>" + kTail;
  auto r = ParseQueryPerf(body);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "the server's answer carries a DOCTYPE, which a SOAP answer never does; refused");
  EXPECT_FALSE(ParseFault(body).has_value());
  // Even an empty internal subset: SOAP forbids any document type declaration.
  EXPECT_FALSE(ParseCurrentTime(std::string(kHead).insert(21, "<!DOCTYPE x>") + kTail).ok());
}

TEST(HostileXmlTest, AMillionNestedElementsAreRefusedWithoutRecursion) {
  auto r = ParseQueryPerf(Nested(1000000));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "the server's answer nests elements more than 256 deep; refused");
  EXPECT_FALSE(ParseFault(Nested(1000000)).has_value());
}

TEST(HostileXmlTest, DepthUpToTheLimitIsRead) {
  // Envelope, Body and QueryPerfResponse are 3 levels: 253 more make 256.
  EXPECT_TRUE(ParseQueryPerf(Nested(253)).ok());
  EXPECT_FALSE(ParseQueryPerf(Nested(254)).ok());
}

TEST(HostileXmlTest, AnAnswerNeedingMoreThanTheMemoryBudgetIsRefused) {
  // 12 M empty elements: 48 MB of text, about 770 MB of pugixml nodes; the floor refuses it
  // before any node is built.
  ASSERT_GT(AnswerMemoryFloor(kHead + Repeated("<a/>", 12000000) + kTail), kMaxAnswerMemory);
  auto r = ParseQueryPerf(kHead + Repeated("<a/>", 12000000) + kTail);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("would need more than 256 MiB to parse"), std::string::npos)
      << r.status().message();
  // The budget is per parse: the next answer on this thread parses as usual.
  auto ok = ParseQueryPerf(std::string(kHead) + kTail);
  EXPECT_TRUE(ok.ok()) << ok.status().message();
}

TEST(HostileXmlTest, TheMemoryFloorCountsTheTextAndEachElement) {
  const std::string three = std::string(kHead) + "<a/><b x=\"1\">text</b></c>" + kTail;
  // Envelope, Body, QueryPerfResponse, a and b start elements; </c>, </...> and <?xml do not.
  EXPECT_EQ(AnswerMemoryFloor(three), static_cast<int64_t>(three.size()) + 5 * kAnswerNodeBytes);
  // After `<!` a `<` may sit inside a comment or CDATA: counting stops there.
  const std::string commented = std::string(kHead) + "<a/><!-- <b/><c/> --><d/>" + kTail;
  EXPECT_EQ(AnswerMemoryFloor(commented), static_cast<int64_t>(commented.size()) + 4 * kAnswerNodeBytes);
  EXPECT_EQ(AnswerMemoryFloor(""), 0);
  EXPECT_EQ(AnswerMemoryFloor("<"), 1);
}

TEST(HostileXmlTest, AnAnswerBelowTheFloorButOverTheBudgetIsStillRefused) {
  // 3 M elements with an attribute each: the floor (27 MB + 192 MB of nodes) passes, the
  // attributes' 40 bytes each take the parse past 256 MiB, and the allocator's cap refuses it.
  const std::string body = kHead + Repeated("<a b=\"\"/>", 3000000) + kTail;
  ASSERT_LE(AnswerMemoryFloor(body), kMaxAnswerMemory);
  auto r = ParseQueryPerf(body);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("would need more than 256 MiB to parse"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace vrecon::vsphere
