// A server's answer into a pugixml document within fixed bounds, whatever the server sends
// (a hostile one, or anyone on the path of plain HTTP). pugixml itself never expands a
// DTD's entities and parses without recursion; these limits keep what it builds small and
// the documents our code walks shallow.
#ifndef VRECON_ADAPTERS_VSPHERE_ANSWER_XML_H_
#define VRECON_ADAPTERS_VSPHERE_ANSWER_XML_H_

#include <pugixml.hpp>

#include <cstdint>
#include <string_view>

#include "src/core/status.h"

namespace vrecon::vsphere {

// Real answers nest about 10 deep.
inline constexpr int kMaxAnswerDepth = 256;
// What pugixml may allocate for one answer: its copy of the text and the nodes. A 64 MiB answer
// of tiny elements (`<a/>` x 16 M) would otherwise need 1 GiB of nodes; real answers of a few MB
// need a few tens of MB.
inline constexpr int64_t kMaxAnswerMemory = int64_t{256} << 20;

// What pugixml allocates for one element: its xml_node_struct (a header word and seven
// pointers) on 64-bit. Debian builds pugixml without PUGIXML_COMPACT.
inline constexpr int64_t kAnswerNodeBytes = 64;

// A floor under what parsing `text` would allocate: pugixml's copy of the text plus a node per
// element start tag, counted up to the first `<!` (inside a comment or CDATA section a `<`
// starts nothing, so counting stops there). Lets LoadAnswer refuse a document of millions of
// tiny elements before building 256 MiB of nodes it would throw away.
int64_t AnswerMemoryFloor(std::string_view text);

// ParseError with one sentence when the text is not well-formed, carries a DOCTYPE (a SOAP
// message never does: SOAP 1.1 section 3; entity bombs start there), nests deeper than
// kMaxAnswerDepth or needs more than kMaxAnswerMemory.
Status LoadAnswer(std::string_view text, pugi::xml_document* doc);

}  // namespace vrecon::vsphere

#endif  // VRECON_ADAPTERS_VSPHERE_ANSWER_XML_H_
