"""The parity toolkit from Python: ``compare`` and ``localize`` run exactly what
``twinrt compare`` and ``twinrt localize`` run (same engines, input sets, policies) and
return a Report."""

import json
import os
import tempfile

import numpy as np

from . import _twinrt


class Report:
    """A compare or localize report: ``passed``, ``verdict``, ``outputs`` (one dict per
    output and engine, with ``metrics`` and ``verdict`` as in docs/parity-report-schema.md),
    ``to_json()``, ``to_dict()``, ``to_html(path)``; ``str(report)`` is the CLI's table."""

    def __init__(self, native):
        self._native = native
        self._dict = json.loads(native.json())

    @property
    def passed(self):
        return self._dict["passed"]

    @property
    def verdict(self):
        return "pass" if self.passed else "fail"

    @property
    def outputs(self):
        return self._dict["outputs"]

    @property
    def engines(self):
        return self._dict["engines"]

    @property
    def layers(self):
        return self._dict["layers"]

    @property
    def first_divergence(self):
        return self._dict["first_divergence"]

    def metrics(self, output, engine=None):
        """The metrics of one output (against the first non-baseline engine unless named)."""
        for o in self.outputs:
            if o["output"] == output and (engine is None or o["engine"] == engine):
                return o["metrics"]
        raise KeyError(f"no comparison of output {output!r}" + (f" on {engine!r}" if engine else ""))

    def to_dict(self):
        return json.loads(json.dumps(self._dict))

    def to_json(self):
        return self._native.json()

    def to_html(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._native.html())
        return path

    def __str__(self):
        return self._native.terminal()

    def __repr__(self):
        return f"<twinrt.Report {self._dict['command']} {self.verdict}: {len(self.outputs)} comparison(s)>"


def _write_feeds(folder, feeds):
    """Arrays as NAME.npy files in ``folder`` (what the CLI's case folders hold)."""
    os.makedirs(folder, exist_ok=True)
    for name, value in feeds.items():
        if "/" in name or name in ("", ".", ".."):
            raise _twinrt.InvalidArgument(f"input name {name!r} cannot be a file name; pass .npy paths instead")
        np.save(os.path.join(folder, name + ".npy"), np.asarray(value), allow_pickle=False)


def _input_args(inputs, cases, work_dir):
    """``inputs``: {name: array or .npy/.pb path} or an .npz path; ``cases``: a folder of case
    folders or a list of {name: array} dicts. Returns the CLI flags' values."""
    args = {}
    if isinstance(inputs, (str, os.PathLike)):
        args["inputs"] = [os.fspath(inputs)]
    elif inputs:
        files = []
        for name, value in inputs.items():
            if isinstance(value, (str, os.PathLike)):
                files.append(f"{name}={os.fspath(value)}")
            else:
                path = os.path.join(work_dir, "inputs", name + ".npy")
                _write_feeds(os.path.dirname(path), {name: value})
                files.append(f"{name}={path}")
        args["inputs"] = files
    if isinstance(cases, (str, os.PathLike)):
        args["cases"] = os.fspath(cases)
    elif cases is not None:
        root = os.path.join(work_dir, "cases")
        for i, case in enumerate(cases):
            _write_feeds(os.path.join(root, f"case_{i:06d}"), case)
        args["cases"] = root
    return args


def _assignments(mapping, what):
    if mapping is None:
        return None
    if isinstance(mapping, dict):
        if what == "range":
            return [f"{k}={lo}:{hi}" for k, (lo, hi) in mapping.items()]
        return [f"{k}={v}" for k, v in mapping.items()]
    return list(mapping)


def _models(model, model_b):
    return [os.fspath(model)] + ([os.fspath(model_b)] if model_b is not None else [])


def _common_args(engines, engine, threads, graph_optimization, inputs, cases, test_data, images, preprocess,
                 ranges, dims, seed, work_dir):
    args = _input_args(inputs, cases, work_dir)
    if isinstance(engines, (list, tuple)):
        engines = ",".join(engines)
    args.update(engines=engines, engine=engine, threads=threads, graph_optimization=graph_optimization,
                test_data=None if test_data is None else os.fspath(test_data),
                images=None if images is None else [os.fspath(i) for i in images],
                preprocess=preprocess, ranges=_assignments(ranges, "range"), dims=_assignments(dims, "dim"),
                seed=seed)
    return args


def compare(model, model_b=None, *, engines=None, engine=None, baseline=None, policy="fp32", inputs=None,
            cases=None, test_data=None, images=None, preprocess=None, ranges=None, dims=None, seed=0, threads=1,
            graph_optimization=None, box_format=None, preprocess_check=False):
    """``twinrt compare``: one model on two or more ``engines`` (e.g. ["twinrt", "ort"]), or
    ``model`` against ``model_b`` on one ``engine`` (default twinrt). ``policy``: a built-in
    name (fp32, fp16, int8, classification, detection, segmentation, regression) or a policy
    .json file. Inputs not given are seeded random data. Raises EngineUnavailable when an
    engine is not installed (the CLI exits 2 then); other engine failures are in the report."""
    with tempfile.TemporaryDirectory(prefix="twinrt-compare-") as work_dir:
        args = _common_args(engines, engine, threads, graph_optimization, inputs, cases, test_data, images,
                            preprocess, ranges, dims, seed, work_dir)
        args.update(baseline=baseline, policy=os.fspath(policy), box_format=box_format,
                    preprocess_check=preprocess_check)
        native = _twinrt.compare(_models(model, model_b), args)
    report = Report(native)
    if native.engine_unavailable:
        errors = "; ".join(f"{e['name']}: {e['error']}" for e in report.engines if not e["ok"])
        raise _twinrt.EngineUnavailable(errors)
    return report


def localize(model, model_b=None, *, engines=None, engine=None, inputs=None, cases=None, test_data=None,
             images=None, preprocess=None, ranges=None, dims=None, seed=0, threads=1, graph_optimization=None):
    """``twinrt localize``: the node where two engines (or two models) first diverge, each
    node's own and inherited error in ``report.layers``."""
    with tempfile.TemporaryDirectory(prefix="twinrt-localize-") as work_dir:
        args = _common_args(engines, engine, threads, graph_optimization, inputs, cases, test_data, images,
                            preprocess, ranges, dims, seed, work_dir)
        return Report(_twinrt.localize(_models(model, model_b), args))


from .sweep import SweepReport, sweep  # noqa: E402  (sweep builds on Report above)
