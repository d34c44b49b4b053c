"""The export parity stand: ``export_check`` exports a PyTorch module with
torch.onnx.export, runs PyTorch, twinrt and ONNX Runtime (when installed) on the same
fixed control inputs at every listed shape, compares them under a parity policy, names
the classic export mistakes it sees and writes the model card."""

import inspect
import os
import tempfile

import numpy as np
import torch

from . import _twinrt, export_findings
from .parity import Report
from .session import InferenceSession

# Engines tried when none are named; those not installed are left out (and said so).
DEFAULT_ENGINES = ("twinrt", "ort", "ort-web")


class ExportCheck:
    """What export_check found: ``passed``, ``findings`` (export_findings.Finding),
    ``reports`` (one parity Report per shape set: PyTorch is the baseline),
    ``model_path``, ``card_path``, ``skipped_engines`` (name -> why)."""

    def __init__(self, model_path, opset):
        self.model_path, self.opset = model_path, opset
        self.findings, self.reports, self.shapes = [], [], []
        self.skipped_engines, self.card_path = {}, None

    @property
    def passed(self):
        return not any(f.failing for f in self.findings) and bool(self.reports) and all(r.passed for r in self.reports)

    def __str__(self):
        lines = [f"export check of {self.model_path} (opset {self.opset}): {'PASS' if self.passed else 'FAIL'}"]
        lines += [f"  {f}" for f in self.findings]
        for shapes, report in zip(self.shapes, self.reports):
            lines.append(f"  shapes {_shapes_text(shapes)}: {report.verdict}")
            for o in report.outputs:
                lines.append(f"    {o['output']} on {o['engine']}: max_abs {o['metrics']['max_abs']}, "
                             f"{o['verdict']['summary']}")
            lines += [f"    {e['name']}: {e['error']}" for e in report.engines if not e["ok"]]
        lines += [f"  {name} not run: {why}" for name, why in self.skipped_engines.items()]
        return "\n".join(lines)


def _shapes_text(shapes):
    return ", ".join(f"{n}={'x'.join(map(str, s))}" for n, s in shapes.items())


def _as_tuple(example_inputs):
    return tuple(example_inputs) if isinstance(example_inputs, (tuple, list)) else (example_inputs,)


def _default_input_names(module, count):
    params = [p.name for p in inspect.signature(module.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return params[:count] if len(params) >= count else [f"input_{i}" for i in range(count)]


def _flat_outputs(result):
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, dict):
        result = list(result.values())
    return [t for item in result for t in _flat_outputs(item)]


def _run_torch(module, inputs):
    with torch.no_grad():
        return [t.detach().cpu().numpy() for t in _flat_outputs(module(*inputs))]


def _shape_sets(shapes, names, examples):
    """``shapes``: None (the example inputs' shapes), or a list whose items are
    {name: shape}, a list of shapes (one per input) or, for one input, one shape."""
    if not shapes:
        return [{n: tuple(e.shape) for n, e in zip(names, examples)}]
    sets = []
    for item in shapes:
        if isinstance(item, dict):
            given = {n: tuple(s) for n, s in item.items()}
        elif len(names) == 1 and all(isinstance(d, int) for d in item):
            given = {names[0]: tuple(item)}
        else:
            given = {n: tuple(s) for n, s in zip(names, item)}
        unknown = set(given) - set(names)
        if unknown:
            raise _twinrt.InvalidArgument(f"shapes name unknown input(s) {sorted(unknown)} (inputs: {names})")
        sets.append({n: given.get(n, tuple(e.shape)) for n, e in zip(names, examples)})
    return sets


def control_inputs(examples, shapes, seed):
    """Fixed inputs of the example inputs' dtypes at ``shapes``: standard normal floats,
    integers in [0, max(example) + 1) (so token ids stay valid), random booleans."""
    generator = torch.Generator().manual_seed(seed)
    inputs = []
    for example, shape in zip(examples, shapes.values()):
        if example.dtype.is_floating_point:
            t = torch.randn(shape, generator=generator).to(example.dtype)
        elif example.dtype == torch.bool:
            t = torch.randint(0, 2, shape, generator=generator).bool()
        else:
            high = int(example.max()) + 1 if example.numel() else 1
            t = torch.randint(0, max(high, 1), shape, generator=generator).to(example.dtype)
        inputs.append(t)
    return inputs


def _engines(names, result):
    """Engine objects for the names other than twinrt (which runs in this process)."""
    engines = {}
    for name in names:
        if name == "twinrt":
            continue
        try:
            engines[name] = _twinrt.Engine(name)
            engines[name].load(result.model_path)
        except _twinrt.EngineUnavailable as e:
            result.skipped_engines[name] = str(e)
        except _twinrt.TwinrtError as e:
            engines[name] = str(e)  # the engine rejects the model: reported per shape set
    return engines


def _engine_outputs(run, output_names, torch_outputs, shapes, name, findings):
    """One engine's outputs as the compare expects them, or its error text; an output
    whose shape differs from PyTorch's is a baked-in dimension."""
    try:
        got = run()
    except _twinrt.TwinrtError as e:
        return str(e)
    for out, expected in zip(output_names, torch_outputs):
        if got[out].shape != expected.shape:
            findings.append(export_findings.output_shape_mismatch(name, out, got[out].shape, expected.shape, shapes))
            return f"output '{out}' has shape {list(got[out].shape)}, PyTorch's {list(expected.shape)}"
    return [{n: got[n] for n in output_names}]


def _check_shapes(module, result, session, engines, names, output_names, examples, shapes, policy, seed):
    inputs = control_inputs(examples, shapes, seed)
    torch_outputs = _run_torch(module, inputs)
    feeds = {n: t.numpy() for n, t in zip(names, inputs)}
    runs = [("pytorch", [dict(zip(output_names, torch_outputs))])]
    runs.append(("twinrt", _engine_outputs(lambda: dict(zip(output_names, session.run(output_names, feeds))),
                                           output_names, torch_outputs, shapes, "twinrt", result.findings)))
    for name, engine in engines.items():
        outputs = engine if isinstance(engine, str) else _engine_outputs(
            lambda: engine.run(feeds, output_names), output_names, torch_outputs, shapes, name, result.findings)
        runs.append((name, outputs))
    description = f"control inputs (seed {seed}): {_shapes_text(shapes)}"
    return Report(_twinrt.compare_outputs(result.model_path, runs, output_names, os.fspath(policy), description))


def export_check(module, example_inputs, opset=17, dynamic_axes=None, shapes=None, policy="fp32", card=None,
                 input_names=None, output_names=None, path=None, engines=None, mode="default", seed=0):
    """Exports ``module`` at ``opset`` (with ``dynamic_axes``) to ``path`` (default: next
    to ``card``, else a temporary folder), then at every shape set in ``shapes`` runs
    PyTorch and each engine on the same control inputs and compares them under
    ``policy``. Writes the model card to ``card`` when given. Returns an ExportCheck."""
    examples = _as_tuple(example_inputs)
    names = list(input_names or _default_input_names(module, len(examples)))
    shape_sets = _shape_sets(shapes, names, examples)
    if path is None:
        folder = os.path.dirname(os.path.abspath(card)) if card else tempfile.mkdtemp(prefix="twinrt-export-")
        path = os.path.join(folder, (os.path.splitext(os.path.basename(card))[0] if card else "model") + ".onnx")
    result = ExportCheck(os.fspath(path), opset)

    was_training = module.training
    mistake = export_findings.train_mode(module, examples, _run_torch)
    if mistake:
        result.findings.append(mistake)
    module.eval()  # what torch.onnx.export writes, and so what the engines are held to
    try:
        output_count = len(_run_torch(module, examples))
        output_names = list(output_names or (["output"] if output_count == 1 else
                                             [f"output_{i}" for i in range(output_count)]))
        try:
            torch.onnx.export(module, examples, result.model_path, opset_version=opset, input_names=names,
                              output_names=output_names, dynamic_axes=dynamic_axes)
        except Exception as e:  # the exporter raises many types; each becomes a finding
            result.findings.append(export_findings.export_error(e, opset))
            return result
        result.findings += export_findings.resize_modes(module, examples, result.model_path)
        try:
            session = InferenceSession(result.model_path, mode=mode)
        except _twinrt.TwinrtError as e:
            result.findings.append(export_findings.Finding("twinrt-load", f"twinrt cannot load the export: {e}"))
            return result
        declared = {i.name: i.shape for i in session.get_inputs()}
        others = _engines([n for n in (engines or DEFAULT_ENGINES)], result)
        for shapes_now in shape_sets:
            result.findings += export_findings.baked_dimensions(declared, shapes_now)
            result.shapes.append(shapes_now)
            result.reports.append(_check_shapes(module, result, session, others, names, output_names, examples,
                                                shapes_now, policy, seed))
    finally:
        module.train(was_training)
    if card:
        from .model_card import write_card
        result.card_path = write_card(card, result, dynamic_axes, policy)
    return result
