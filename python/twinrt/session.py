"""onnxruntime's Python inference API on twinrt: InferenceSession, SessionOptions,
NodeArg, ModelMetadata, so that a script written for onnxruntime runs after
``import twinrt as ort``."""

import enum
import os
import warnings

import numpy as np

from . import _twinrt

CPU_PROVIDER = "CPUExecutionProvider"

# twinrt's numpy-style dtype names -> onnxruntime's type names ("tensor(float)").
_ORT_ELEMENT_NAMES = {"float32": "float", "float64": "double"}


class GraphOptimizationLevel(enum.IntEnum):
    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_ALL = 99


class ExecutionMode(enum.IntEnum):
    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


# twinrt has two levels of value-changing passes; "extended" has no own meaning here.
_OPTIMIZATION_NAMES = {
    GraphOptimizationLevel.ORT_DISABLE_ALL: "none",
    GraphOptimizationLevel.ORT_ENABLE_BASIC: "basic",
    GraphOptimizationLevel.ORT_ENABLE_EXTENDED: "all",
    GraphOptimizationLevel.ORT_ENABLE_ALL: "all",
}


class SessionOptions:
    """onnxruntime.SessionOptions. Settings twinrt has no use for (inter-op threads,
    logging, profiling, memory pattern) are accepted and kept; a misspelled attribute is
    an AttributeError, as in onnxruntime. ``mode`` ('default', 'exact', 'reference') and
    ``isa`` are twinrt's own."""

    __slots__ = ("intra_op_num_threads", "inter_op_num_threads", "graph_optimization_level",
                 "execution_mode", "log_severity_level", "log_verbosity_level", "logid",
                 "enable_profiling", "profile_file_prefix", "enable_mem_pattern", "enable_cpu_mem_arena",
                 "enable_mem_reuse", "optimized_model_filepath", "use_deterministic_compute",
                 "mode", "isa", "_dims", "_configs")

    def __init__(self):
        self.intra_op_num_threads = 0
        self.inter_op_num_threads = 0
        self.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        self.execution_mode = ExecutionMode.ORT_SEQUENTIAL
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.enable_profiling = False
        self.profile_file_prefix = "onnxruntime_profile_"
        self.enable_mem_pattern = True
        self.enable_cpu_mem_arena = True
        self.enable_mem_reuse = True
        self.optimized_model_filepath = ""
        self.use_deterministic_compute = False
        self.mode = "default"
        self.isa = "auto"
        self._dims = {}
        self._configs = {}

    def add_free_dimension_override_by_name(self, dim_name, dim_value):
        self._dims[str(dim_name)] = int(dim_value)

    def add_session_config_entry(self, key, value):
        self._configs[str(key)] = str(value)

    def get_session_config_entry(self, key):
        return self._configs[key]


class NodeArg:
    """A graph input or output as onnxruntime describes it: name, type
    ('tensor(float)') and shape (ints for fixed dims, the symbol's name for named
    dynamic dims, None for anonymous ones)."""

    __slots__ = ("name", "type", "shape")

    def __init__(self, name, type, shape):
        self.name, self.type, self.shape = name, type, shape

    def __repr__(self):
        return f"NodeArg(name='{self.name}', type='{self.type}', shape={self.shape})"


def _node_arg(info):
    element = _ORT_ELEMENT_NAMES.get(info["dtype"], info["dtype"])
    kind = info["kind"]
    type_name = f"tensor({element})"
    if kind == "sequence":
        type_name = f"seq({type_name})"
    elif kind == "optional":
        type_name = f"optional({type_name})"
    elif kind not in ("tensor",):
        type_name = kind
    shape = []
    if info["has_shape"]:
        shape = [d if d >= 0 else (n or None) for d, n in zip(info["dims"], info["dim_names"])]
    return NodeArg(info["name"], type_name, shape)


class ModelMetadata:
    __slots__ = ("producer_name", "graph_name", "domain", "description", "graph_description",
                 "version", "custom_metadata_map")

    def __init__(self, meta):
        for key in self.__slots__:
            setattr(self, key, meta[key])


def get_available_providers():
    return [CPU_PROVIDER]


def get_all_providers():
    return [CPU_PROVIDER]


def get_device():
    return "CPU"


def _provider_names(providers):
    names = []
    for p in providers or []:
        names.append(p[0] if isinstance(p, (tuple, list)) else p)
    unknown = [n for n in names if n != CPU_PROVIDER]
    if unknown:
        warnings.warn(f"twinrt runs on the CPU only: provider(s) {', '.join(unknown)} are not available, "
                      f"using {CPU_PROVIDER}", stacklevel=3)
    return [CPU_PROVIDER]


def _as_feed(value, declared):
    """A numpy array twinrt can read in place: C-contiguous, aligned, native byte order.
    Arrays that already are are passed without a copy; other values (lists, scalars)
    become arrays of the input's declared element type, as in onnxruntime."""
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], np.ndarray):
        return [_as_feed(v, None) for v in value]  # a sequence input
    if isinstance(value, np.ndarray) or declared is None:
        array = np.asarray(value)
    else:
        array = np.asarray(value, dtype=declared)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    return np.require(array, requirements=("C", "A"))


def _numpy_dtype(name):
    """numpy's dtype for a twinrt dtype name; strings as Python objects; None when numpy has none."""
    if name == "string":
        return np.dtype(object)
    try:
        return np.dtype(name)
    except TypeError:
        return None  # bfloat16


class InferenceSession:
    """onnxruntime.InferenceSession on twinrt.

    ``path_or_bytes``: a file path (str or os.PathLike) or the model's bytes.
    ``mode``, ``threads``, ``optimization`` ('none', 'basic', 'all'), ``isa`` and
    ``lenient`` override what ``sess_options`` says."""

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None,
                 mode=None, threads=None, optimization=None, isa=None, lenient=False, **kwargs):
        options = sess_options or SessionOptions()
        model = path_or_bytes if isinstance(path_or_bytes, bytes) else os.fspath(path_or_bytes)
        self._providers = _provider_names(providers)
        self._sess_options = options
        self._model_path = model if isinstance(model, str) else None
        self._session = _twinrt.Session(
            model,
            mode=mode or options.mode,
            threads=options.intra_op_num_threads if threads is None else threads,
            isa=isa or options.isa,
            optimization=optimization or _OPTIMIZATION_NAMES[GraphOptimizationLevel(options.graph_optimization_level)],
            lenient=lenient,
            dims=dict(options._dims))
        self._inputs = [_node_arg(i) for i in self._session.inputs]
        self._input_dtypes = {i["name"]: _numpy_dtype(i["dtype"]) for i in self._session.inputs if i["kind"] == "tensor"}
        self._outputs = [_node_arg(o) for o in self._session.outputs]

    @property
    def mode(self):
        return self._session.mode

    @property
    def warnings(self):
        return list(self._session.warnings)

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def get_overridable_initializers(self):
        return []

    def get_modelmeta(self):
        return ModelMetadata(self._session.metadata())

    def get_providers(self):
        return list(self._providers)

    def get_provider_options(self):
        return {p: {} for p in self._providers}

    def get_session_options(self):
        return self._sess_options

    def set_providers(self, providers=None, provider_options=None):
        self._providers = _provider_names(providers)

    def disable_fallback(self):
        pass

    def enable_fallback(self):
        pass

    def end_profiling(self):
        return ""

    def run(self, output_names, input_feed, run_options=None):
        """Outputs in the order of ``output_names`` (None or empty: every graph output)."""
        known = [o.name for o in self._outputs]
        names = list(output_names) if output_names else known
        unknown = [n for n in names if n not in known]
        if unknown:
            raise _twinrt.InvalidArgument(f"unknown output name(s) {', '.join(map(repr, unknown))} "
                                          f"(the model's outputs: {', '.join(known)})")
        feeds = {str(name): _as_feed(value, self._input_dtypes.get(name)) for name, value in input_feed.items()}
        results = self._session.run(feeds)
        return [results[n] for n in names]
