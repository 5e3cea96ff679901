// What a store holds, per source file, as one comparable line each: the crash and I/O-fault
// tests compare a store after a kill with the store of one uninterrupted run.
#ifndef VRECON_TESTS_FAULTS_STORE_DIGEST_H_
#define VRECON_TESTS_FAULTS_STORE_DIGEST_H_

#include <map>
#include <string>

namespace vrecon::testing {

// path -> "<blocks> <samples> <hash>" over every series, time block and value of the file; empty
// when there is no store. Opens the file read-only with SQLite, never through vrecon.
std::map<std::string, std::string> StoreDigest(const std::string& db);

// Every series of `source` (a SeriesFilter glob: "vsphere") and each of its samples' start, end
// and value bits, as "<series> <samples> <hash>", read in-process through the store's own reader
// (the codecs a blob is stored in are the store's): what `vrecon samples --source S` would print,
// without a run of the binary. "(cannot read) <why>" when the store cannot be read.
std::string SamplesDigest(const std::string& db, const std::string& source);

// "ok", or what PRAGMA integrity_check reports ("ok" when there is no file).
std::string IntegrityCheck(const std::string& db);

// PRAGMA user_version (the schema version), -1 without a readable store.
int SchemaVersion(const std::string& db);

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_FAULTS_STORE_DIGEST_H_
