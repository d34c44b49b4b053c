"""Parity sweeps: ``sweep`` compares engines over thousands of input cases, sharded over
a dask.distributed cluster (a LocalCluster by default, or any scheduler), and merges the
shards into one report, as if one run had seen every case, with the worst cases and the
per-case verdict counts."""

import os

from . import _twinrt
from .parity import Report


class SweepReport(Report):
    """A merged compare report (``passed``, ``outputs`` with merged metrics and error
    histograms, ``to_json``, ``to_html``) plus ``worst_cases`` (largest max_abs first:
    case index, engine, output, max_abs, passed, and the case's inputs),
    ``verdict_counts`` (cases passing / failing on every output) and ``shards``."""

    def __init__(self, native, worst_cases, verdict_counts, shards):
        super().__init__(native)
        self.worst_cases, self.verdict_counts, self.shards = worst_cases, verdict_counts, shards


def _case_feeds(case):
    """A case: {name: array}, or a folder of NAME.npy files."""
    if isinstance(case, dict):
        return case
    import numpy as np
    folder = os.fspath(case)
    return {f[:-4]: np.load(os.path.join(folder, f)) for f in sorted(os.listdir(folder)) if f.endswith(".npy")}


def run_shard(model, engine_names, policy, threads, first_index, cases):
    """Runs one shard in this process (what a dask worker runs): every case on every
    engine, the shard's report and its per-case results. Returns plain data (picklable)."""
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
        feeds = _case_feeds(case)
        for e, engine in enumerate(engines):
            if engine is None or isinstance(runs[e], str):
                continue
            try:
                runs[e].append(engine.run(feeds))
            except _twinrt.TwinrtError as error:
                runs[e] = f"case {first_index + offset}: {error}"
    baseline = runs[0]
    if isinstance(baseline, str):
        raise _twinrt.TwinrtError(f"baseline {engine_names[0]}: {baseline}")
    outputs = list(baseline[0]) if baseline else []
    described = f"{len(cases)} cases from {first_index}"
    labelled = list(zip(engine_names, runs))
    shard = _twinrt.compare_outputs(model, labelled, outputs, policy, described).json()
    per_case = []
    for offset in range(len(cases)):
        single = [(name, run if isinstance(run, str) else [run[offset]]) for name, run in labelled]
        report = Report(_twinrt.compare_outputs(model, single, outputs, policy, described))
        worst_output = max(report.outputs, key=lambda o: _number(o["metrics"]["max_abs"]), default=None)
        per_case.append({"case": first_index + offset, "passed": report.passed,
                         "engine": worst_output and worst_output["engine"],
                         "output": worst_output and worst_output["output"],
                         "max_abs": _number(worst_output["metrics"]["max_abs"]) if worst_output else float("nan")})
    return shard, per_case


def _number(value):
    """A report number: JSON numbers, or "nan", "inf", "-inf" for non-finite ones."""
    return float(value)


def _slices(count, shards):
    return [(count * i // shards, count * (i + 1) // shards) for i in range(shards) if count * i // shards <
            count * (i + 1) // shards]


def sweep(model, cases, engines=("twinrt", "ort"), policy="fp32", client=None, shards=None, workers=2, threads=1,
          worst=10):
    """Compares ``engines`` (the first is the baseline) on ``model`` over ``cases`` (a list of
    {name: array} dicts, or of folders of NAME.npy files; or one folder holding such
    folders), judged by ``policy``. ``client``: a dask.distributed Client, a scheduler
    address, None (a LocalCluster of ``workers`` processes, closed afterwards), or False
    (everything in this process). ``shards``: how many tasks (default 4 per worker).
    A worker that dies loses no case: dask runs its tasks again elsewhere."""
    model = os.fspath(model)
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
    args = [(model, engines, policy, threads, lo, cases[lo:hi]) for lo, hi in slices]
    if client is False:
        results = [run_shard(*a) for a in args]
    else:
        results = _run_on_dask(client, workers, args)
    merged = _twinrt.merge_reports([shard for shard, _ in results], policy)
    per_case = [c for _, part in results for c in part]
    ranked = sorted(per_case, key=lambda c: -c["max_abs"] if c["max_abs"] == c["max_abs"] else float("-inf"))
    worst_cases = [dict(c, inputs=cases[c["case"]]) for c in ranked[:worst]]
    counts = {"passed": sum(c["passed"] for c in per_case), "failed": sum(not c["passed"] for c in per_case)}
    return SweepReport(merged, worst_cases, counts, len(slices))


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
