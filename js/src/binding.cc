// C ABI of the WebAssembly module: sessions, their options and metadata, runs.
//
// JavaScript (js/lib/wasm-backend.js) calls these through the module's exports. Every
// call that can fail returns 0 / null and leaves its message in twinrt_last_error(): the
// C++ Status travels back as a value, never as an abort. Values and tensors are in
// binding_values.cc.
#include <emscripten/emscripten.h>
#include <emscripten/heap.h>

#include <algorithm>
#include <memory>
#include <string>

#include "binding.h"
#include "twinrt/limits.h"

namespace twinrt::wasm {

Status check_value_elements(const Value& value, DataType dtype, const std::string& what) {
  const Value* v = value.is_optional() ? value.optional.get() : &value;
  if (!v) return Status::ok();
  const std::string expected = what + " must hold " + dtype_name(dtype) + " tensors, got ";
  if (v->is_tensor() && v->tensor.dtype() != dtype) return invalid_argument(expected + dtype_name(v->tensor.dtype()));
  if (!v->is_sequence()) return Status::ok();
  if (v->sequence_dtype != DataType::kUndefined && v->sequence_dtype != dtype)
    return invalid_argument(expected + "a sequence of " + dtype_name(v->sequence_dtype));
  for (const Tensor& t : v->sequence)
    if (t.dtype() != dtype) return invalid_argument(expected + "a sequence holding " + dtype_name(t.dtype()));
  return Status::ok();
}

namespace {

Status g_last_error;
// Pool workers (emscripten's pre-started pthreads) not yet given to a session. A thread
// started beyond the pool would only run once JavaScript returns to its event loop, and
// joining it before then would hang, so sessions get at most what is free (results do not
// depend on the thread count).
int g_free_workers = 0;

const IoInfo* io_at(const SessionHandle* s, int output, int i) {
  const auto& list = output ? s->session->outputs() : s->session->inputs();
  if (i < 0 || static_cast<size_t>(i) >= list.size()) return nullptr;
  return &list[static_cast<size_t>(i)];
}

// Threads a new session may use: what it asks for (0: all the pool), bounded by the pool.
int claim_threads(int requested) {
  int wanted = requested <= 0 ? g_free_workers + 1 : requested;
  int threads = std::max(1, std::min(wanted, g_free_workers + 1));
  g_free_workers -= threads - 1;
  return threads;
}

template <class Load>
SessionHandle* create_session(const SessionOptions* options, Load load) {
  if (!options) return fail<SessionHandle>(invalid_argument("no session options"));
  SessionOptions o = *options;
  const int threads = claim_threads(o.threads);
  o.threads = threads;
  auto session = load(o);
  if (!session) {
    g_free_workers += threads - 1;
    return fail<SessionHandle>(session.status());
  }
  return new SessionHandle{std::move(session.value()), threads};
}

// The element type of sequence and optional feeds, which Session::run leaves unchecked.
Status check_element_types(const Session& session, const Feeds& feeds) {
  for (const IoInfo& io : session.inputs()) {
    if (io.type == "tensor" || io.dtype == DataType::kUndefined) continue;
    auto it = feeds.values.find(io.name);
    if (it != feeds.values.end()) TRY(check_value_elements(it->second, io.dtype, "input '" + io.name + "'"));
  }
  return Status::ok();
}

}  // namespace

void set_error(const Status& status) { g_last_error = status; }

}  // namespace twinrt::wasm

using namespace twinrt;
using namespace twinrt::wasm;
using wasm::SessionHandle;

extern "C" {

// pool_workers: the pthreads started with the module (none in a build without threads,
// where starting a thread would abort).
EMSCRIPTEN_KEEPALIVE void twinrt_init(int pool_workers) {
#ifdef __EMSCRIPTEN_PTHREADS__
  g_free_workers = std::max(pool_workers, 0);
#else
  (void)pool_workers;
  g_free_workers = 0;
#endif
}

// The most the heap can grow to (MAXIMUM_MEMORY), in bytes: JavaScript refuses larger
// blocks before calling malloc, whose 32-bit size would wrap around.
EMSCRIPTEN_KEEPALIVE double twinrt_heap_max() { return static_cast<double>(emscripten_get_heap_max()); }

EMSCRIPTEN_KEEPALIVE const char* twinrt_last_error() { return g_last_error.message().c_str(); }
EMSCRIPTEN_KEEPALIVE int twinrt_last_error_code() { return static_cast<int>(g_last_error.code()); }

// mode: 0 default, 1 reference, 2 exact. threads: 0 = every pool worker.
EMSCRIPTEN_KEEPALIVE SessionOptions* twinrt_options_new(int mode, int threads) {
  auto* o = new SessionOptions();
  o->mode = mode == 1 ? Mode::kReference : mode == 2 ? Mode::kExact : Mode::kDefault;
  o->threads = std::max(threads, 0);
  return o;
}

EMSCRIPTEN_KEEPALIVE int twinrt_options_add_dim(SessionOptions* o, const char* name, double value) {
  if (!(value >= 0 && value <= 9007199254740992.0) || value != static_cast<double>(static_cast<int64_t>(value))) {
    set_error(invalid_argument(std::string("freeDimensionOverrides['") + name +
                               "'] must be a non-negative integer"));
    return 0;
  }
  o->dim_overrides[name] = static_cast<int64_t>(value);
  return 1;
}

// Resource limits in bytes for the sessions created next (each keeps its own); 0 = the
// default (half the heap's maximum for one tensor, all of it in total).
EMSCRIPTEN_KEEPALIVE int twinrt_set_limits(double max_tensor_bytes, double max_memory_bytes) {
  for (double v : {max_tensor_bytes, max_memory_bytes})
    if (!(v >= 0 && v <= 9007199254740992.0) || v != static_cast<double>(static_cast<int64_t>(v))) {
      set_error(invalid_argument("maxTensorBytes and maxMemoryBytes must be non-negative integers"));
      return 0;
    }
  set_resource_limits({static_cast<uint64_t>(max_tensor_bytes), static_cast<uint64_t>(max_memory_bytes)});
  return 1;
}

EMSCRIPTEN_KEEPALIVE void twinrt_options_free(SessionOptions* o) { delete o; }

// A model held in memory (its bytes are copied; the caller may free them afterwards).
EMSCRIPTEN_KEEPALIVE SessionHandle* twinrt_session_create(const void* bytes, size_t size,
                                                          const SessionOptions* options) {
  return create_session(options, [&](const SessionOptions& o) { return Session::load_bytes(bytes, size, o); });
}

// A model file in the module's in-memory file system, with its external data next to it.
EMSCRIPTEN_KEEPALIVE SessionHandle* twinrt_session_load(const char* path, const SessionOptions* options) {
  return create_session(options, [&](const SessionOptions& o) { return Session::load(path, o); });
}

EMSCRIPTEN_KEEPALIVE void twinrt_session_free(SessionHandle* s) {
  if (!s) return;
  g_free_workers += s->threads - 1;
  delete s;
}

EMSCRIPTEN_KEEPALIVE int twinrt_session_threads(const SessionHandle* s) { return s->threads; }

EMSCRIPTEN_KEEPALIVE int twinrt_session_io_count(const SessionHandle* s, int output) {
  return static_cast<int>((output ? s->session->outputs() : s->session->inputs()).size());
}

EMSCRIPTEN_KEEPALIVE const char* twinrt_session_io_name(const SessionHandle* s, int output, int i) {
  const IoInfo* io = io_at(s, output, i);
  return io ? io->name.c_str() : "";
}

// "tensor", "sequence", "optional", "map", "sparse_tensor" or "unknown".
EMSCRIPTEN_KEEPALIVE const char* twinrt_session_io_kind(const SessionHandle* s, int output, int i) {
  const IoInfo* io = io_at(s, output, i);
  return io ? io->type.c_str() : "unknown";
}

EMSCRIPTEN_KEEPALIVE int twinrt_session_io_dtype(const SessionHandle* s, int output, int i) {
  const IoInfo* io = io_at(s, output, i);
  return io ? static_cast<int>(io->dtype) : 0;
}

// -1 when the rank is unknown.
EMSCRIPTEN_KEEPALIVE int twinrt_session_io_rank(const SessionHandle* s, int output, int i) {
  const IoInfo* io = io_at(s, output, i);
  return io && io->has_shape ? static_cast<int>(io->dims.size()) : -1;
}

// -1 when the dimension is not a fixed number (see twinrt_session_io_dim_name).
EMSCRIPTEN_KEEPALIVE double twinrt_session_io_dim(const SessionHandle* s, int output, int i, int d) {
  const IoInfo* io = io_at(s, output, i);
  if (!io || d < 0 || static_cast<size_t>(d) >= io->dims.size()) return -1;
  return static_cast<double>(io->dims[static_cast<size_t>(d)]);
}

EMSCRIPTEN_KEEPALIVE const char* twinrt_session_io_dim_name(const SessionHandle* s, int output, int i, int d) {
  const IoInfo* io = io_at(s, output, i);
  if (!io || d < 0 || static_cast<size_t>(d) >= io->dim_names.size()) return "";
  return io->dim_names[static_cast<size_t>(d)].c_str();
}

EMSCRIPTEN_KEEPALIVE Outputs* twinrt_session_run(const SessionHandle* s, const Feeds* feeds) {
  if (Status st = check_element_types(*s->session, *feeds); !st.is_ok()) return fail<Outputs>(st);
  auto result = s->session->run(feeds->values);
  if (!result) return fail<Outputs>(result.status());
  auto* out = new Outputs();
  for (auto& [name, value] : result.value()) out->entries.emplace_back(name, std::move(value));
  return out;
}

}  // extern "C"
