"""twinrt for Python: an onnxruntime-style inference API on twinrt's C++ core
(``import twinrt as ort``), the parity toolkit (``twinrt.compare``, ``twinrt.localize``,
``twinrt.parity.sweep``) and the PyTorch export check (``twinrt.torch.export_check``).
See docs/python.md."""

from ._twinrt import (EngineUnavailable, InternalError, InvalidArgument, InvalidModel, IoError,
                      NotImplementedByTwinrt, OutOfMemory, TwinrtError, __version__)
from .parity import Report, compare, localize
from .session import (ExecutionMode, GraphOptimizationLevel, InferenceSession, ModelMetadata, NodeArg,
                      SessionOptions, get_all_providers, get_available_providers, get_device)

__all__ = [
    "InferenceSession", "SessionOptions", "GraphOptimizationLevel", "ExecutionMode", "NodeArg",
    "ModelMetadata", "get_available_providers", "get_all_providers", "get_device", "compare", "localize",
    "Report", "TwinrtError", "InvalidModel", "InvalidArgument", "NotImplementedByTwinrt", "IoError",
    "OutOfMemory", "InternalError", "EngineUnavailable", "__version__",
]
