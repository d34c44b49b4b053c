#include "arrays.h"

#include <cstring>

#include "errors.h"

namespace py = pybind11;

namespace twinrt::python {
namespace {

// Keeps a numpy array alive while a twinrt tensor points into it. twinrt never writes
// into its feeds, so read-only arrays are wrapped too.
class ArrayStorage : public Storage {
 public:
  explicit ArrayStorage(py::array array)
      : data_(static_cast<std::byte*>(const_cast<void*>(array.data()))), size_(static_cast<size_t>(array.nbytes())),
        array_(std::move(array)) {}
  // The last reference may go away in a thread without the GIL (a session's worker).
  ~ArrayStorage() override {
    py::gil_scoped_acquire gil;
    array_ = py::array();
  }
  std::byte* data() override { return data_; }
  size_t size() const override { return size_; }

 private:
  std::byte* data_;
  size_t size_;
  py::array array_;
};

Result<DataType> dtype_of_array(const py::dtype& dt, const std::string& name) {
  const size_t size = static_cast<size_t>(dt.itemsize());
  switch (dt.kind()) {
    case 'f':
      if (size == 2) return DataType::kFloat16;
      if (size == 4) return DataType::kFloat;
      if (size == 8) return DataType::kDouble;
      break;
    case 'i':
      if (size == 1) return DataType::kInt8;
      if (size == 2) return DataType::kInt16;
      if (size == 4) return DataType::kInt32;
      if (size == 8) return DataType::kInt64;
      break;
    case 'u':
      if (size == 1) return DataType::kUInt8;
      if (size == 2) return DataType::kUInt16;
      if (size == 4) return DataType::kUInt32;
      if (size == 8) return DataType::kUInt64;
      break;
    case 'b': return DataType::kBool;
    case 'c':
      if (size == 8) return DataType::kComplex64;
      if (size == 16) return DataType::kComplex128;
      break;
    case 'U': case 'S': case 'O': return DataType::kString;
  }
  return invalid_argument("input '" + name + "': numpy dtype " + py::str(py::handle(dt)).cast<std::string>() +
                          " has no ONNX tensor type");
}

std::vector<int64_t> shape_of(const py::array& a) {
  return std::vector<int64_t>(a.shape(), a.shape() + a.ndim());
}

Tensor string_tensor(const py::array& a) {
  Tensor t = unwrap(Tensor::create(DataType::kString, shape_of(a)));
  std::string* out = t.data<std::string>();
  py::list items = a.attr("ravel")().attr("tolist")();
  for (size_t i = 0; i < items.size(); ++i) {
    py::handle item = items[i];
    if (py::isinstance<py::bytes>(item))
      out[i] = item.cast<std::string>();
    else if (py::isinstance<py::str>(item))
      out[i] = item.cast<std::string>();
    else
      throw StatusError{invalid_argument("string input holds a " + py::str(item.get_type()).cast<std::string>() +
                                         ", not str or bytes")};
  }
  return t;
}

Tensor tensor_from_array(const py::handle& object, const std::string& name) {
  if (!py::isinstance<py::array>(object))
    throw StatusError{invalid_argument("input '" + name + "' must be a numpy array, got " +
                                       py::str(object.get_type()).cast<std::string>())};
  py::array a = py::reinterpret_borrow<py::array>(object);
  const DataType dtype = unwrap(dtype_of_array(a.dtype(), name));
  if (dtype == DataType::kString) {
    try {
      return string_tensor(a);
    } catch (const StatusError& e) {
      throw StatusError{e.status.with_context("input '" + name + "': ")};
    }
  }
  const bool aligned = a.attr("flags").attr("aligned").cast<bool>();
  if (!(a.flags() & py::array::c_style) || !aligned || !a.dtype().attr("isnative").cast<bool>())
    throw StatusError{invalid_argument("input '" + name + "' must be a C-contiguous, aligned, native-endian array")};
  auto storage = std::make_shared<ArrayStorage>(a);
  return unwrap(Tensor::view(dtype, shape_of(a), std::move(storage), 0));
}

py::dtype numpy_dtype(DataType t) {
  switch (t) {
    case DataType::kFloat: return py::dtype("float32");
    case DataType::kDouble: return py::dtype("float64");
    case DataType::kFloat16: return py::dtype("float16");
    case DataType::kInt8: return py::dtype("int8");
    case DataType::kInt16: return py::dtype("int16");
    case DataType::kInt32: return py::dtype("int32");
    case DataType::kInt64: return py::dtype("int64");
    case DataType::kUInt8: return py::dtype("uint8");
    case DataType::kUInt16: return py::dtype("uint16");
    case DataType::kUInt32: return py::dtype("uint32");
    case DataType::kUInt64: return py::dtype("uint64");
    case DataType::kBool: return py::dtype("bool");
    case DataType::kComplex64: return py::dtype("complex64");
    case DataType::kComplex128: return py::dtype("complex128");
    case DataType::kString: return py::dtype("object");
    case DataType::kBFloat16: case DataType::kUndefined: break;
  }
  throw StatusError{not_implemented(std::string("an output of type ") + dtype_name(t) + " has no numpy type")};
}

std::vector<py::ssize_t> byte_strides(const Tensor& t) {
  std::vector<py::ssize_t> strides(t.shape().size());
  py::ssize_t step = static_cast<py::ssize_t>(dtype_size(t.dtype()));
  for (size_t i = strides.size(); i-- > 0;) {
    strides[i] = step;
    step *= static_cast<py::ssize_t>(t.shape()[i]);
  }
  return strides;
}

py::array tensor_to_array(Tensor t) {
  if (t.dtype() == DataType::kString) {
    py::list items;
    for (int64_t i = 0; i < t.numel(); ++i) items.append(py::str(t.data<std::string>()[i]));
    py::tuple shape(t.shape().size());
    for (size_t i = 0; i < t.shape().size(); ++i) shape[i] = py::int_(t.shape()[i]);
    py::array flat = py::module_::import("numpy").attr("array")(items, py::arg("dtype") = "object");
    return flat.attr("reshape")(shape);
  }
  const py::dtype dtype = numpy_dtype(t.dtype());
  const std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  // Only this tensor holds the buffer: hand it to numpy (the capsule owns the reference).
  if (t.storage() && t.storage().use_count() == 1 && t.numel() > 0) {
    auto* owner = new std::shared_ptr<Storage>(t.storage());
    py::capsule base(owner, [](void* p) { delete static_cast<std::shared_ptr<Storage>*>(p); });
    return py::array(dtype, shape, byte_strides(t), t.raw(), base);
  }
  py::array copy(dtype, shape);
  if (t.nbytes() > 0) std::memcpy(copy.mutable_data(), t.raw(), t.nbytes());
  return copy;
}

}  // namespace

Value value_from_python(const py::handle& object, const std::string& name) {
  if (py::isinstance<py::list>(object) || py::isinstance<py::tuple>(object)) {
    std::vector<Tensor> items;
    for (py::handle item : object) items.push_back(tensor_from_array(item, name));
    const DataType elem = items.empty() ? DataType::kUndefined : items.front().dtype();
    return Value::of_sequence(std::move(items), elem);
  }
  return Value::of(tensor_from_array(object, name));
}

py::object value_to_python(Value value) {
  switch (value.kind) {
    case Value::Kind::kTensor: return tensor_to_array(std::move(value.tensor));
    case Value::Kind::kSequence: {
      py::list items;
      for (Tensor& t : value.sequence) items.append(tensor_to_array(std::move(t)));
      return items;
    }
    case Value::Kind::kOptional:
      if (!value.optional) return py::none();
      return value_to_python(*value.optional);
    case Value::Kind::kNone: break;
  }
  return py::none();
}

}  // namespace twinrt::python
