"""The classic torch.onnx.export mistakes, each recognised from what it leaves behind:
train-mode layers, an opset too low for an op, a dimension baked into the graph, a
Resize/Upsample whose mode differs from PyTorch's interpolation."""

import copy
import re

import numpy as np
import torch

# Layers that compute something else in training mode.
_TRAIN_MODE_LAYERS = (torch.nn.modules.dropout._DropoutNd, torch.nn.modules.batchnorm._BatchNorm,
                      torch.nn.modules.instancenorm._InstanceNorm)


class Finding:
    """One mistake: ``kind`` (train-mode, opset-too-low, baked-in-dimension,
    resize-mode-changed, export-failed, output-count), a message that names what is
    wrong and how to fix it, and whether it fails the check."""

    def __init__(self, kind, message, failing=True):
        self.kind, self.message, self.failing = kind, message, failing

    def __repr__(self):
        return f"Finding({self.kind!r}, {self.message!r})"

    def __str__(self):
        return f"{self.kind}: {self.message}"


def train_mode(module, example_inputs, run_outputs):
    """Layers in training mode: torch.onnx.export writes them in eval mode, so the file
    does not compute what ``module(x)`` computes now. Measured on a copy (batch norm in
    training mode updates its running statistics)."""
    layers = [name or type(m).__name__ for name, m in module.named_modules()
              if m.training and isinstance(m, _TRAIN_MODE_LAYERS)]
    if not layers:
        return None
    trained = copy.deepcopy(module).train()
    evaluated = copy.deepcopy(module).eval()
    torch.manual_seed(0)
    gap = max(float(np.max(np.abs(a.astype(np.float64) - b))) if a.size else 0.0
              for a, b in zip(run_outputs(trained, example_inputs), run_outputs(evaluated, example_inputs)))
    shown = ", ".join(layers[:5]) + (f" and {len(layers) - 5} more" if len(layers) > 5 else "")
    return Finding("train-mode",
                   f"the module is in training mode with {len(layers)} layer(s) that behave differently in "
                   f"training ({shown}): torch.onnx.export wrote them in eval mode, and the module's own outputs "
                   f"differ from the exported ones by up to {gap:.3g}; call module.eval() before exporting")


_UNSUPPORTED = re.compile(r"operator '?([\w:.]+)'? to ONNX opset version (\d+) is not supported"
                          r"(?:.*?added in version (\d+))?", re.S)


def export_error(error, opset):
    """An exporter error as a finding: opset-too-low when the exporter says which opset
    would have the op."""
    text = str(error)
    m = _UNSUPPORTED.search(text)
    if m and m.group(3):
        return Finding("opset-too-low",
                       f"{m.group(1)} cannot be exported at opset {opset}: ONNX has it from opset {m.group(3)}; "
                       f"export with opset={m.group(3)} or higher")
    return Finding("export-failed", f"torch.onnx.export failed: {text.strip().splitlines()[0] if text else error!r}")


def baked_dimensions(declared, shapes):
    """Inputs whose exported shape fixes a dimension that ``shapes`` (name -> shape)
    varies: the export had no dynamic_axes entry for it."""
    findings = []
    for name, shape in shapes.items():
        fixed = declared.get(name) or []
        for axis, (want, have) in enumerate(zip(shape, fixed)):
            if isinstance(have, int) and have != want:
                findings.append(Finding(
                    "baked-in-dimension",
                    f"input '{name}' axis {axis} is fixed to {have} in the exported graph but is checked at "
                    f"{want}: export with dynamic_axes={{'{name}': {{{axis}: 'batch'}}}} (any name) to keep it "
                    f"dynamic"))
    return findings


def output_shape_mismatch(engine, name, got, expected, shapes):
    return Finding("baked-in-dimension",
                   f"output '{name}' is {list(got)} on {engine} but {list(expected)} in PyTorch at input shapes "
                   f"{_shapes_text(shapes)}: a size was traced as a constant inside the graph (e.g. x.view(1, -1) "
                   f"or a Python int taken from x.shape); use x.view(x.size(0), -1) / torch.flatten and dynamic_axes")


def _shapes_text(shapes):
    return ", ".join(f"{n}={'x'.join(map(str, s))}" for n, s in shapes.items())


# PyTorch interpolation -> the Resize attributes that reproduce it.
def _expected_resize(kind, align_corners):
    if "nearest" in kind:
        return {"mode": "nearest", "coordinate_transformation_mode": {"asymmetric"}, "nearest_mode": {"floor"}}
    mode = "cubic" if "bicubic" in kind else "linear"
    ctm = {"align_corners"} if align_corners else {"half_pixel", "pytorch_half_pixel"}
    expected = {"mode": mode, "coordinate_transformation_mode": ctm}
    if mode == "cubic":
        expected["cubic_coeff_a"] = {-0.75}
    return expected


def _torch_interpolations(module, example_inputs):
    graph = torch.jit.trace(module, example_inputs, check_trace=False).inlined_graph
    found = []
    for node in graph.nodes():
        kind = node.kind()
        if not kind.startswith("aten::upsample_"):
            continue
        align = None
        inputs = list(node.inputs())
        if "nearest" not in kind and len(inputs) > 2 and inputs[2].node().kind() == "prim::Constant":
            align = bool(inputs[2].toIValue())
        found.append((kind.split("::")[1], align))
    return found


def _onnx_resizes(model_path):
    import onnx
    from onnx import helper
    model = onnx.load(model_path)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    found = []
    for node in model.graph.node:
        if node.op_type not in ("Resize", "Upsample"):
            continue
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        attrs = {k: v.decode() if isinstance(v, bytes) else v for k, v in attrs.items()}
        # Upsample, and Resize before opset 11, have asymmetric coordinates and floor
        # rounding only.
        modern = node.op_type == "Resize" and opset >= 11
        default_ctm = "half_pixel" if modern else "asymmetric"
        found.append({"op": f"{node.op_type} (opset {opset})", "opset": opset, "mode": attrs.get("mode", "nearest"),
                      "coordinate_transformation_mode": attrs.get("coordinate_transformation_mode", default_ctm),
                      "nearest_mode": attrs.get("nearest_mode", "round_prefer_floor" if modern else "floor"),
                      "cubic_coeff_a": round(float(attrs.get("cubic_coeff_a", -0.75)), 6)})
    return found


def resize_modes(module, example_inputs, model_path):
    """Each PyTorch interpolation against the Resize/Upsample node it became (in graph
    order): a different mode, coordinate transform, rounding or cubic coefficient changes
    the values."""
    ours = _torch_interpolations(module, example_inputs)
    theirs = _onnx_resizes(model_path)
    findings = []
    for (kind, align), node in zip(ours, theirs):
        expected = _expected_resize(kind, align)
        wrong = [f"{key}={node[key]!r} (PyTorch needs {' or '.join(map(repr, sorted(want)))})"
                 if isinstance(want, set) else f"{key}={node[key]!r} (PyTorch needs {want!r})"
                 for key, want in expected.items()
                 if (node[key] not in want if isinstance(want, set) else node[key] != want)]
        if wrong:
            torch_call = kind + ("" if align is None else f"(align_corners={align})")
            fix = ("export with opset 11 or higher, where Resize can express it" if node["opset"] < 11 else
                   "PyTorch's interpolation is not what this file computes")
            findings.append(Finding("resize-mode-changed",
                                    f"PyTorch's {torch_call} became {node['op']} with {', '.join(wrong)}: {fix}"))
    return findings
