#include "adapters/vsphere/answer_xml.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace vrecon::vsphere {
namespace {

// pugixml takes one process-wide allocator; this one counts what each thread holds so that
// LoadAnswer can cap a parse without touching other threads' documents. Each block carries
// its size in front (pugixml's deallocate is not told the size).
constexpr size_t kHeader = 16;  // keeps malloc's 16-byte alignment
thread_local int64_t t_in_use = 0;
thread_local int64_t t_limit = std::numeric_limits<int64_t>::max();

void* Allocate(size_t size) {
  if (t_in_use + static_cast<int64_t>(size) > t_limit) return nullptr;  // pugixml: status_out_of_memory
  char* p = static_cast<char*>(std::malloc(size + kHeader));
  if (p == nullptr) return nullptr;
  std::memcpy(p, &size, sizeof size);
  t_in_use += static_cast<int64_t>(size);
  return p + kHeader;
}

void Deallocate(void* ptr) {
  if (ptr == nullptr) return;
  char* p = static_cast<char*>(ptr) - kHeader;
  size_t size = 0;
  std::memcpy(&size, p, sizeof size);
  t_in_use -= static_cast<int64_t>(size);
  std::free(p);
}

// Installed before main: pugixml must free every block with the function that allocated it,
// so no document may exist before the switch.
const bool kInstalled = [] {
  pugi::set_memory_management_functions(&Allocate, &Deallocate);
  return true;
}();

// Without recursion: the document may be a million levels deep.
bool DeeperThan(const pugi::xml_document& doc, int limit) {
  pugi::xml_node n = doc.first_child();
  int depth = 1;
  while (n) {
    if (pugi::xml_node c = n.first_child()) {
      n = c;
      if (++depth > limit) return true;
      continue;
    }
    while (!n.next_sibling()) {
      n = n.parent();
      if (--depth == 0) return false;
    }
    n = n.next_sibling();
  }
  return false;
}

Status TooLarge(std::string_view text) {
  return Status::ParseError("the server's answer would need more than " + std::to_string(kMaxAnswerMemory >> 20) +
                            " MiB to parse (" + std::to_string(text.size()) + " bytes of XML); refused");
}

}  // namespace

int64_t AnswerMemoryFloor(std::string_view text) {
  int64_t elements = 0;
  for (size_t at = text.find('<'); at != std::string_view::npos; at = text.find('<', at + 1)) {
    if (at + 1 == text.size()) break;
    const char next = text[at + 1];
    if (next == '!') break;
    if (next != '/' && next != '?') ++elements;
  }
  return static_cast<int64_t>(text.size()) + elements * kAnswerNodeBytes;
}

Status LoadAnswer(std::string_view text, pugi::xml_document* doc) {
  (void)kInstalled;
  if (AnswerMemoryFloor(text) > kMaxAnswerMemory) return TooLarge(text);
  t_limit = t_in_use + kMaxAnswerMemory;
  const pugi::xml_parse_result r =
      doc->load_buffer(text.data(), text.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_utf8);
  t_limit = std::numeric_limits<int64_t>::max();
  if (r.status == pugi::status_out_of_memory) return TooLarge(text);
  if (!r) return Status::ParseError(std::string("malformed XML in the server's answer: ") + r.description());
  for (pugi::xml_node n = doc->first_child(); n; n = n.next_sibling())
    if (n.type() == pugi::node_doctype)
      return Status::ParseError("the server's answer carries a DOCTYPE, which a SOAP answer never does; refused");
  if (DeeperThan(*doc, kMaxAnswerDepth))
    return Status::ParseError("the server's answer nests elements more than " + std::to_string(kMaxAnswerDepth) +
                              " deep; refused");
  return Status::Ok();
}

}  // namespace vrecon::vsphere
