#include "onnx/file_bytes.h"

#include <cstdlib>

#include "onnx/loader.h"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#define TWINRT_FILE_BYTES_MAPPED 1
#endif

namespace twinrt::onnx {

Result<std::shared_ptr<FileBytes>> FileBytes::read(const std::string& path, const ResourceLimits& limits) {
  ASSIGN_OR_RETURN(io::RegularFile file, io::RegularFile::open(path, "model"));
  TRY(check_memory_bytes(0, file.size(), "model file '" + path + "'", limits));
  if (file.size() > SIZE_MAX / 2) return out_of_memory("'" + path + "' is too large to read");
  const size_t size = static_cast<size_t>(file.size());
  if (size == 0) return std::shared_ptr<FileBytes>(new FileBytes(nullptr, 0, false));
  std::shared_ptr<FileBytes> bytes;
#ifdef TWINRT_FILE_BYTES_MAPPED
  // A mapping of its own (page aligned) so that pages of weights kept only packed can go.
  // In transparent huge pages where the system allows: reading the file into 4 KiB pages
  // faulted once per page, which on the paravirtualized Zen 5 VM took a third of BERT's
  // session creation (3.3-3.5 s, 2.1-2.9 s with huge pages; the pages released later split).
  void* m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m != MAP_FAILED) madvise(m, size, MADV_HUGEPAGE);  // only advice: failing changes nothing
  if (m != MAP_FAILED) bytes.reset(new FileBytes(static_cast<std::byte*>(m), size, true));
#endif
  if (!bytes) {
    constexpr size_t kAlign = 64;
    auto* p = static_cast<std::byte*>(std::aligned_alloc(kAlign, (size + kAlign - 1) / kAlign * kAlign));
    if (!p) return out_of_memory("cannot allocate " + std::to_string(size) + " bytes for '" + path + "'");
    bytes.reset(new FileBytes(p, size, false));
  }
  std::byte* p = bytes->data_;
  TRY(file.read_at(0, p, size));
  return bytes;
}

FileBytes::~FileBytes() {
#ifdef TWINRT_FILE_BYTES_MAPPED
  if (mapped_) {
    munmap(data_, size_);
    return;
  }
#endif
  std::free(data_);
}

namespace {

// Whole pages inside [offset, offset + bytes) of the mapping at `data` made inaccessible
// and given back; returns the bytes released.
size_t release_pages(std::byte* data, size_t size, size_t offset, size_t bytes) {
#ifdef TWINRT_FILE_BYTES_MAPPED
  if (offset > size || bytes > size - offset) return 0;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t begin = (offset + page - 1) / page * page, end = (offset + bytes) / page * page;
  if (begin >= end) return 0;
  // No access at all afterwards: a reader that should not exist faults instead of seeing zeros.
  if (madvise(data + begin, end - begin, MADV_DONTNEED) != 0 || mprotect(data + begin, end - begin, PROT_NONE) != 0)
    return 0;
  return end - begin;
#else
  (void)data;
  (void)size;
  (void)offset;
  (void)bytes;
  return 0;
#endif
}

}  // namespace

size_t ReleasableBytes::release(size_t offset, size_t bytes) {
  const size_t n = mapped_ ? release_pages(data_, size_, offset, bytes) : 0;
  released_ += n;
  return n;
}

std::shared_ptr<CopiedBytes> CopiedBytes::create(size_t bytes) {
#ifdef TWINRT_FILE_BYTES_MAPPED
  if (bytes == 0) return nullptr;
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  return std::shared_ptr<CopiedBytes>(new CopiedBytes(static_cast<std::byte*>(m), bytes, true));
#else
  (void)bytes;
  return nullptr;
#endif
}

CopiedBytes::~CopiedBytes() {
#ifdef TWINRT_FILE_BYTES_MAPPED
  munmap(data_, size_);
#endif
}

Result<std::string> read_file(const std::string& path) {
  ASSIGN_OR_RETURN(io::RegularFile file, io::RegularFile::open(path));
  return file.read_all();
}

}  // namespace twinrt::onnx
