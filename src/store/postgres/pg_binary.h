// Result cells in PostgreSQL's binary format, for the types vrecon's statements return: bytea
// comes as its bytes (the text format's hex doubles them and costs the server and the client a
// pass each), integers and floats in network byte order, text as is.
#ifndef VRECON_SRC_STORE_POSTGRES_PG_BINARY_H_
#define VRECON_SRC_STORE_POSTGRES_PG_BINARY_H_

#include <cstdint>
#include <string>

namespace vrecon::pg {

using TypeOid = unsigned int;  // libpq's Oid
inline constexpr TypeOid kBool = 16, kBytea = 17, kName = 19, kInt8 = 20, kInt2 = 21, kInt4 = 23, kText = 25,
                         kFloat4 = 700, kFloat8 = 701, kBpchar = 1042, kVarchar = 1043;

// The types the functions below read; a statement whose result has another (numeric, oid, ...)
// asks for text.
bool BinaryReadable(TypeOid type);
int64_t BinaryInt(TypeOid type, const char* cell, int length);
double BinaryDouble(TypeOid type, const char* cell, int length);
// As the text format would have given it ("t"/"f", digits), so that a column reads the same
// whichever format its statement chose.
std::string BinaryText(TypeOid type, const char* cell, int length);

}  // namespace vrecon::pg

#endif  // VRECON_SRC_STORE_POSTGRES_PG_BINARY_H_
