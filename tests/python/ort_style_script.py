"""A typical onnxruntime inference script, kept as written for onnxruntime except for its
import line: test_session.py checks that it runs on twinrt and gives ONNX Runtime's outputs."""

import numpy as np
import twinrt as ort


def main(model_path, seed=0):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    session = ort.InferenceSession(model_path, sess_options=so, providers=["CPUExecutionProvider"])
    print("providers:", session.get_providers())
    feed = {}
    rng = np.random.default_rng(seed)
    for inp in session.get_inputs():
        shape = [d if isinstance(d, int) else 1 for d in inp.shape]
        assert inp.type == "tensor(float)", inp.type
        feed[inp.name] = rng.random(shape, dtype=np.float32)
    output_names = [o.name for o in session.get_outputs()]
    outputs = session.run(None, feed)
    for name, value in zip(output_names, outputs):
        print(name, value.shape, value.dtype)
    return feed, dict(zip(output_names, outputs))
