// Field numbers of the ONNX protobuf messages twinrt reads and writes (onnx.proto, IR 8/9).
// Shared by the reader and the writer so the two cannot drift apart.
#pragma once

#include <cstdint>

namespace twinrt::onnx {

namespace model_proto {
enum : uint32_t {
  kIrVersion = 1, kProducerName = 2, kProducerVersion = 3, kDomain = 4, kModelVersion = 5,
  kDocString = 6, kGraph = 7, kOpsetImport = 8, kMetadataProps = 14, kTrainingInfo = 20,
  kFunctions = 25,
};
}
namespace operator_set_id_proto {
enum : uint32_t { kDomain = 1, kVersion = 2 };
}
namespace string_string_entry_proto {
enum : uint32_t { kKey = 1, kValue = 2 };
}
namespace graph_proto {
enum : uint32_t {
  kNode = 1, kName = 2, kInitializer = 5, kDocString = 10, kInput = 11, kOutput = 12,
  kValueInfo = 13, kQuantizationAnnotation = 14, kSparseInitializer = 15,
};
}
namespace node_proto {
enum : uint32_t {
  kInput = 1, kOutput = 2, kName = 3, kOpType = 4, kAttribute = 5, kDocString = 6, kDomain = 7,
};
}
namespace attribute_proto {
enum : uint32_t {
  kName = 1, kF = 2, kI = 3, kS = 4, kT = 5, kG = 6, kFloats = 7, kInts = 8, kStrings = 9,
  kTensors = 10, kGraphs = 11, kDocString = 13, kTp = 14, kTypeProtos = 15, kType = 20,
  kRefAttrName = 21, kSparseTensor = 22, kSparseTensors = 23,
};
}
namespace value_info_proto {
enum : uint32_t { kName = 1, kType = 2, kDocString = 3 };
}
namespace tensor_proto {
enum : uint32_t {
  kDims = 1, kDataType = 2, kSegment = 3, kFloatData = 4, kInt32Data = 5, kStringData = 6,
  kInt64Data = 7, kName = 8, kRawData = 9, kDoubleData = 10, kUint64Data = 11, kDocString = 12,
  kExternalData = 13, kDataLocation = 14,
};
enum : int32_t { kLocationDefault = 0, kLocationExternal = 1 };
}
namespace sparse_tensor_proto {
enum : uint32_t { kValues = 1, kIndices = 2, kDims = 3 };
}
namespace type_proto {
enum : uint32_t {
  kTensorType = 1, kSequenceType = 4, kMapType = 5, kDenotation = 6, kOpaqueType = 7,
  kSparseTensorType = 8, kOptionalType = 9,
};
namespace tensor {  // TypeProto.Tensor and TypeProto.SparseTensor
enum : uint32_t { kElemType = 1, kShape = 2 };
}
namespace sequence {  // TypeProto.Sequence and TypeProto.Optional
enum : uint32_t { kElemType = 1 };
}
namespace map {
enum : uint32_t { kKeyType = 1, kValueType = 2 };
}
}  // namespace type_proto
namespace tensor_shape_proto {
enum : uint32_t { kDim = 1 };
namespace dimension {
enum : uint32_t { kDimValue = 1, kDimParam = 2, kDenotation = 3 };
}
}  // namespace tensor_shape_proto
namespace function_proto {
enum : uint32_t {
  kName = 1, kInput = 4, kOutput = 5, kAttribute = 6, kNode = 7, kDocString = 8,
  kOpsetImport = 9, kDomain = 10, kAttributeProto = 11,
};
}
// SequenceProto and OptionalProto (test-data files).
namespace sequence_proto {
enum : uint32_t {
  kName = 1, kElemType = 2, kTensorValues = 3, kSparseTensorValues = 4, kSequenceValues = 5,
  kMapValues = 6, kOptionalValues = 7,
};
}
namespace optional_proto {
enum : uint32_t {
  kName = 1, kElemType = 2, kTensorValue = 3, kSparseTensorValue = 4, kSequenceValue = 5,
  kMapValue = 6, kOptionalValue = 7,
};
}
// SequenceProto.DataType / OptionalProto.DataType.
enum class ValueElemType : int32_t {
  kUndefined = 0, kTensor = 1, kSparseTensor = 2, kSequence = 3, kMap = 4, kOptional = 5,
};

}  // namespace twinrt::onnx
