// A test-only SQLite VFS, loaded with LD_PRELOAD into the real vrecon binary: it wraps the
// default VFS, counts every xRead, xWrite and xSync on every file SQLite opens, and fails the
// k-th one of a kind, the way SQLite's own test suite injects I/O errors (docs/reliability.md).
//
//   VRECON_FAULT_OP=write|sync|read  VRECON_FAULT_AT=k  [VRECON_FAULT_CODE=ioerr|full]
//   VRECON_FAULT_COUNTS=FILE   at exit, writes "write=N sync=N read=N" to FILE
//
// Registered as the default VFS from a constructor, before main() opens any database.
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

enum Op { kRead, kWrite, kSync, kOps };

// Plain data, zero-initialized before any constructor runs (a C++ initializer could run after
// Install and undo it).
struct State {
  sqlite3_vfs vfs;
  sqlite3_vfs* base;
  sqlite3_io_methods methods;
  long counts[kOps];
  int fault_op;  // an Op, or -1
  long fault_at;
  bool full;
};
State g;

struct File {
  sqlite3_file base;   // must be first: SQLite sees this
  sqlite3_file* real;  // the wrapped VFS's file, allocated right after this struct
};

sqlite3_file* Real(sqlite3_file* f) { return reinterpret_cast<File*>(f)->real; }

// Counts one operation; true when it is the one to fail.
bool Hit(Op op) {
  const long n = ++g.counts[op];
  return op == g.fault_op && n == g.fault_at;
}

int FaultCode(Op op) {
  if (g.full && op == kWrite) return SQLITE_FULL;
  return op == kRead ? SQLITE_IOERR_READ : op == kWrite ? SQLITE_IOERR_WRITE : SQLITE_IOERR_FSYNC;
}

int Close(sqlite3_file* f) { return Real(f)->pMethods->xClose(Real(f)); }
int Read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
  if (Hit(kRead)) return FaultCode(kRead);
  return Real(f)->pMethods->xRead(Real(f), buf, n, off);
}
int Write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
  if (Hit(kWrite)) return FaultCode(kWrite);
  return Real(f)->pMethods->xWrite(Real(f), buf, n, off);
}
int Truncate(sqlite3_file* f, sqlite3_int64 size) { return Real(f)->pMethods->xTruncate(Real(f), size); }
int Sync(sqlite3_file* f, int flags) {
  if (Hit(kSync)) return FaultCode(kSync);
  return Real(f)->pMethods->xSync(Real(f), flags);
}
int FileSize(sqlite3_file* f, sqlite3_int64* size) { return Real(f)->pMethods->xFileSize(Real(f), size); }
int Lock(sqlite3_file* f, int l) { return Real(f)->pMethods->xLock(Real(f), l); }
int Unlock(sqlite3_file* f, int l) { return Real(f)->pMethods->xUnlock(Real(f), l); }
int CheckReservedLock(sqlite3_file* f, int* out) { return Real(f)->pMethods->xCheckReservedLock(Real(f), out); }
int FileControl(sqlite3_file* f, int op, void* arg) { return Real(f)->pMethods->xFileControl(Real(f), op, arg); }
int SectorSize(sqlite3_file* f) { return Real(f)->pMethods->xSectorSize(Real(f)); }
int DeviceCharacteristics(sqlite3_file* f) { return Real(f)->pMethods->xDeviceCharacteristics(Real(f)); }
int ShmMap(sqlite3_file* f, int i, int size, int extend, void volatile** p) {
  return Real(f)->pMethods->xShmMap(Real(f), i, size, extend, p);
}
int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  return Real(f)->pMethods->xShmLock(Real(f), offset, n, flags);
}
void ShmBarrier(sqlite3_file* f) { Real(f)->pMethods->xShmBarrier(Real(f)); }
int ShmUnmap(sqlite3_file* f, int del) { return Real(f)->pMethods->xShmUnmap(Real(f), del); }
int Fetch(sqlite3_file* f, sqlite3_int64 off, int n, void** p) { return Real(f)->pMethods->xFetch(Real(f), off, n, p); }
int Unfetch(sqlite3_file* f, sqlite3_int64 off, void* p) { return Real(f)->pMethods->xUnfetch(Real(f), off, p); }

int Open(sqlite3_vfs*, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  File* w = reinterpret_cast<File*>(f);
  w->real = reinterpret_cast<sqlite3_file*>(w + 1);
  const int rc = g.base->xOpen(g.base, name, w->real, flags, out_flags);
  // Without methods SQLite will not call xClose: leave ours unset too.
  w->base.pMethods = w->real->pMethods ? &g.methods : nullptr;
  return rc;
}
int Delete(sqlite3_vfs*, const char* name, int sync_dir) { return g.base->xDelete(g.base, name, sync_dir); }
int Access(sqlite3_vfs*, const char* name, int flags, int* out) { return g.base->xAccess(g.base, name, flags, out); }
int FullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return g.base->xFullPathname(g.base, name, n, out);
}
void* DlOpen(sqlite3_vfs*, const char* name) { return g.base->xDlOpen(g.base, name); }
void DlError(sqlite3_vfs*, int n, char* msg) { g.base->xDlError(g.base, n, msg); }
void (*DlSym(sqlite3_vfs*, void* h, const char* sym))(void) { return g.base->xDlSym(g.base, h, sym); }
void DlClose(sqlite3_vfs*, void* h) { g.base->xDlClose(g.base, h); }
int Randomness(sqlite3_vfs*, int n, char* out) { return g.base->xRandomness(g.base, n, out); }
int Sleep(sqlite3_vfs*, int us) { return g.base->xSleep(g.base, us); }
int CurrentTime(sqlite3_vfs*, double* t) { return g.base->xCurrentTime(g.base, t); }
int GetLastError(sqlite3_vfs*, int n, char* out) { return g.base->xGetLastError(g.base, n, out); }
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* t) { return g.base->xCurrentTimeInt64(g.base, t); }

void WriteCounts() {
  const char* path = std::getenv("VRECON_FAULT_COUNTS");
  if (path == nullptr) return;
  if (FILE* f = std::fopen(path, "w")) {
    std::fprintf(f, "write=%ld sync=%ld read=%ld\n", g.counts[kWrite], g.counts[kSync], g.counts[kRead]);
    std::fclose(f);
  }
}

__attribute__((constructor)) void Install() {
  g.base = sqlite3_vfs_find(nullptr);
  g.fault_op = -1;
  if (g.base == nullptr) return;
  if (const char* op = std::getenv("VRECON_FAULT_OP")) {
    g.fault_op = !std::strcmp(op, "read")    ? kRead
                 : !std::strcmp(op, "write") ? kWrite
                 : !std::strcmp(op, "sync")  ? kSync
                                             : -1;
  }
  if (const char* at = std::getenv("VRECON_FAULT_AT")) g.fault_at = std::atol(at);
  if (const char* code = std::getenv("VRECON_FAULT_CODE")) g.full = !std::strcmp(code, "full");

  g.methods = sqlite3_io_methods{3,
                                 Close,
                                 Read,
                                 Write,
                                 Truncate,
                                 Sync,
                                 FileSize,
                                 Lock,
                                 Unlock,
                                 CheckReservedLock,
                                 FileControl,
                                 SectorSize,
                                 DeviceCharacteristics,
                                 ShmMap,
                                 ShmLock,
                                 ShmBarrier,
                                 ShmUnmap,
                                 Fetch,
                                 Unfetch};
  g.vfs = *g.base;
  g.vfs.zName = "vrecon-fault";
  g.vfs.szOsFile = static_cast<int>(sizeof(File)) + g.base->szOsFile;
  g.vfs.pNext = nullptr;
  g.vfs.xOpen = Open;
  g.vfs.xDelete = Delete;
  g.vfs.xAccess = Access;
  g.vfs.xFullPathname = FullPathname;
  g.vfs.xDlOpen = DlOpen;
  g.vfs.xDlError = DlError;
  g.vfs.xDlSym = DlSym;
  g.vfs.xDlClose = DlClose;
  g.vfs.xRandomness = Randomness;
  g.vfs.xSleep = Sleep;
  g.vfs.xCurrentTime = CurrentTime;
  g.vfs.xGetLastError = GetLastError;
  g.vfs.xCurrentTimeInt64 = CurrentTimeInt64;
  sqlite3_vfs_register(&g.vfs, 1);
  std::atexit(WriteCounts);
}

}  // namespace
