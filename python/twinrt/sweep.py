"""Parity sweeps: ``sweep`` compares engines over thousands of input cases, sharded over
a dask.distributed cluster (a LocalCluster by default, or any scheduler), and merges the
shards into one report, as if one run had seen every case, with the worst cases and the
per-case verdict counts."""

import json
import os

from . import _twinrt
from .parity import Report


class SweepReport(Report):
    """A merged compare report (``passed``, ``outputs`` with merged metrics and error
    histograms, ``to_json``, ``to_html``) plus ``worst_cases`` (largest max_abs first:
    case index, name, engine, output, max_abs, passed, the case's ``inputs`` as given and
    its input ``files``),
    ``verdict_counts`` (cases passing / failing on every output) and ``shards``."""

    def __init__(self, native, worst_cases, verdict_counts, shards):
        super().__init__(native)
        self.worst_cases, self.verdict_counts, self.shards = worst_cases, verdict_counts, shards


def _is_pipeline(path):
    return path.endswith(".json")


def _case_files(case, pipeline):
    """A case given as a folder, or as {name: array, bytes or file}: {input: file} for the
    inputs that come from files (what reports name). A model reads only NAME.npy files; a
    pipeline reads any file, as `twinrt pipeline run --input NAME=FILE` does."""
    if isinstance(case, dict):
        return {k: os.fspath(v) for k, v in case.items() if isinstance(v, (str, os.PathLike))}
    folder = os.fspath(case)
    return {os.path.splitext(f)[0]: os.path.join(folder, f) for f in sorted(os.listdir(folder))
            if not f.startswith(".") and (pipeline or f.endswith(".npy"))}


def _case_feeds(case, pipeline):
    """{input: array}: a .npy file is an array, another file its bytes (uint8[n])."""
    import numpy as np
    files = _case_files(case, pipeline)
    feeds = {k: v for k, v in case.items() if k not in files} if isinstance(case, dict) else {}
    for name, path in files.items():
        feeds[name] = np.load(path) if path.endswith(".npy") else np.fromfile(path, dtype=np.uint8)
    return {k: np.frombuffer(v, dtype=np.uint8) if isinstance(v, (bytes, bytearray)) else v for k, v in feeds.items()}


def _case_name(case, index):
    return f"case_{index:06d}" if isinstance(case, dict) else os.path.basename(os.path.normpath(os.fspath(case)))


def _run_models(model, engine_names, threads, first_index, cases):
    """Every case on every engine: per engine a list of {output: array}, or its error text."""
    engines, runs = [], []
    for name in engine_names:
        try:
            engine = _twinrt.Engine(name, threads=threads)
            engine.load(model)
            engines.append(engine)
            runs.append([])
        except _twinrt.TwinrtError as e:
            engines.append(None)
            runs.append(str(e))
    for offset, case in enumerate(cases):
        feeds = _case_feeds(case, pipeline=False)
        for e, engine in enumerate(engines):
            if engine is None or isinstance(runs[e], str):
                continue
            try:
                runs[e].append(engine.run(feeds))
            except _twinrt.TwinrtError as error:
                runs[e] = f"case {first_index + offset}: {error}"
    return runs


def run_shard(model, engine_names, policy, threads, first_index, cases, worst=10):
    """Runs one shard in this process (what a dask worker runs): every case on every engine
    (a pipeline file: every model stage on each engine), compared with the first. Returns
    the shard's compare report as JSON, with its ``worst`` cases ranked."""
    pipeline = _is_pipeline(model)
    named = [(_case_name(c, first_index + i), _case_files(c, pipeline)) for i, c in enumerate(cases)]
    # Named like a `compare --shard` part, so merge_reports names the merged whole.
    described = f"sweep cases (shard of cases {first_index + 1}-{first_index + len(cases)})"
    if pipeline:
        feeds = [_case_feeds(c, pipeline=True) for c in cases]
        return _twinrt.compare_pipeline(model, engine_names, feeds, named, policy, first_index, worst).json()
    runs = _run_models(model, engine_names, threads, first_index, cases)
    baseline = runs[0]
    if isinstance(baseline, str):
        raise _twinrt.TwinrtError(f"baseline {engine_names[0]}: {baseline}")
    outputs = list(baseline[0]) if baseline else []
    return _twinrt.compare_outputs(model, list(zip(engine_names, runs)), outputs, policy, described, named,
                                   first_index, worst).json()


def _slices(count, shards):
    return [(count * i // shards, count * (i + 1) // shards) for i in range(shards) if count * i // shards <
            count * (i + 1) // shards]


def sweep(model_or_pipeline, cases, engines=("twinrt", "ort"), policy="fp32", client=None, shards=None, workers=2,
          threads=1, worst=10):
    """Compares ``engines`` (the first is the baseline) on a model, or on a pipeline file
    (``.json``: every model stage on each engine, every stage's values compared), over
    ``cases`` (a list of {name: array} dicts, or of folders of input files; or one folder
    holding such folders), judged by ``policy``. ``client``: a dask.distributed Client, a
    scheduler address, None (a LocalCluster of ``workers`` processes, closed afterwards), or
    False (everything in this process). ``shards``: how many tasks (default 4 per worker).
    A worker that dies loses no case: dask runs its tasks again elsewhere."""
    model = os.fspath(model_or_pipeline)
    if isinstance(cases, (str, os.PathLike)):
        root = os.fspath(cases)
        cases = [os.path.join(root, d) for d in sorted(os.listdir(root)) if os.path.isdir(os.path.join(root, d))]
    cases = list(cases)
    if not cases:
        raise _twinrt.InvalidArgument("sweep needs at least one case")
    engines = list(engines.split(",") if isinstance(engines, str) else engines)
    if len(engines) < 2:
        raise _twinrt.InvalidArgument("sweep compares at least two engines, the first being the baseline")
    policy = os.fspath(policy)
    slices = _slices(len(cases), shards or (1 if client is False else 4 * workers))
    args = [(model, engines, policy, threads, lo, cases[lo:hi], worst) for lo, hi in slices]
    if client is False:
        parts = [run_shard(*a) for a in args]
    else:
        parts = _run_on_dask(client, workers, args)
    merged = _twinrt.merge_reports(parts, policy, worst)
    summary = json.loads(merged.json())
    # The JSON names each case's input files; here the case itself (arrays or folder) is handier.
    worst_cases = [dict(c, inputs=cases[c["case"]], files=c["inputs"]) for c in summary["worst_cases"]]
    for c in worst_cases:
        c["max_abs"] = float(c["max_abs"])  # "inf"/"nan" in JSON
    return SweepReport(merged, worst_cases, summary["case_verdicts"], len(slices))


def _run_on_dask(client, workers, args):
    from dask.distributed import Client, LocalCluster
    own_cluster = None
    if client is None:
        own_cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(own_cluster)
    elif isinstance(client, str):
        client = Client(client)
    try:
        # pure=False: every shard is its own task; retries: a task whose worker died while
        # running it is run again, so no case is lost.
        futures = [client.submit(run_shard, *a, pure=False, retries=3) for a in args]
        return client.gather(futures)
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()
