"""twinrt.parity.sweep on a dask LocalCluster, of a model and of a pipeline file, and the
CLI's `compare --shard` and `report merge`: sharded runs merge into the metrics, worst
cases and verdict counts of one run; a killed worker loses no case."""

import json
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import twinrt
from twinrt.parity import sweep

CASES = 1000
ENGINES = ["twinrt-ref", "twinrt"]
# Merged exactly as cases are within one run, except float64 sums added in another grouping.
EXACT = ["count", "max_abs", "max_rel", "max_ulp", "p99_ulp", "nan_mismatches", "inf_mismatches", "histogram",
         "shape", "dtype", "exact_mismatches"]
FROM_SUMS = ["mean_abs", "mean_rel", "mse", "rmse_relative", "cosine", "sqnr_db", "fraction_out_of_tolerance"]


def cases(n, seed=0):
    rng = np.random.default_rng(seed)
    return [{"x": (rng.standard_normal((2, 4)) * 10).astype(np.float32)} for _ in range(n)]


def assert_same_metrics(a, b):
    assert [(o["output"], o["engine"]) for o in a.outputs] == [(o["output"], o["engine"]) for o in b.outputs]
    for x, y in zip(a.outputs, b.outputs):
        mx, my = x["metrics"], y["metrics"]
        for key in EXACT:
            assert mx[key] == my[key], key
        for key in FROM_SUMS:
            assert float(mx[key]) == pytest.approx(float(my[key]), rel=1e-12, abs=1e-300), key
        assert x["verdict"]["passed"] == y["verdict"]["passed"]


@pytest.fixture(scope="module")
def case_list():
    return cases(CASES)


@pytest.fixture(scope="module")
def single(mlp_path, case_list):
    report = sweep(mlp_path, case_list, engines=ENGINES, client=False)
    assert report.shards == 1 and report.to_dict()["cases"] == CASES
    return report


def test_local_cluster_matches_single_process(mlp_path, case_list, single):
    report = sweep(mlp_path, case_list, engines=ENGINES, workers=2, shards=8)
    assert report.shards == 8 and report.to_dict()["cases"] == CASES
    assert_same_metrics(report, single)
    assert report.verdict_counts == single.verdict_counts
    assert sum(report.verdict_counts.values()) == CASES
    assert [c["case"] for c in report.worst_cases] == [c["case"] for c in single.worst_cases]
    worst = report.worst_cases[0]
    assert worst["max_abs"] == max(float(o["metrics"]["max_abs"]) for o in report.outputs)
    assert np.array_equal(worst["inputs"]["x"], case_list[worst["case"]]["x"])


def test_killed_worker_loses_no_case(mlp_path, case_list, single):
    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pids = client.run(os.getpid)
        killed = {}

        def kill_a_busy_worker():
            deadline = time.time() + 60
            while time.time() < deadline and not killed:
                busy = [w for w, tasks in client.processing().items() if tasks and w in pids]
                if busy:
                    killed[busy[0]] = pids[busy[0]]
                    os.kill(pids[busy[0]], signal.SIGKILL)
                time.sleep(0.01)

        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        report = sweep(mlp_path, case_list, engines=ENGINES, client=client, shards=40)
        killer.join()
    assert killed, "no worker was seen running a shard"
    assert report.to_dict()["cases"] == CASES
    assert sum(report.verdict_counts.values()) == CASES
    assert_same_metrics(report, single)


def test_sweep_of_case_folders_names_their_files(mlp_path, work_dir):
    root = work_dir / "model_case_folders"
    for i, case in enumerate(cases(5, seed=2)):
        (root / f"c{i}").mkdir(parents=True)
        np.save(root / f"c{i}" / "x.npy", case["x"])
        (root / f"c{i}" / "notes.txt").write_text("not an input")  # a model reads NAME.npy only
    report = sweep(mlp_path, str(root), engines=ENGINES, client=False, shards=2)
    assert report.verdict_counts == {"passed": 5, "failed": 0} and len(report.worst_cases) == 5
    worst = report.worst_cases[0]
    assert worst["files"] == {"x": str(root / worst["name"] / "x.npy")} and worst["inputs"] == str(root / worst["name"])


def test_sweep_arguments_are_checked(mlp_path):
    with pytest.raises(twinrt.InvalidArgument, match="at least two engines"):
        sweep(mlp_path, cases(2), engines=["twinrt"], client=False)
    with pytest.raises(twinrt.InvalidArgument, match="at least one case"):
        sweep(mlp_path, [], engines=ENGINES, client=False)


def compare_in_shards(mlp_path, twinrt_bin, work_dir, name, count, seed, shards):
    """`twinrt compare` over `count` case folders, whole and as `shards` parts merged by `report merge`:
    returns (case folder root, whole report, merged report, part paths)."""
    root = work_dir / name
    for i, case in enumerate(cases(count, seed=seed)):
        (root / f"case_{i:03d}").mkdir(parents=True)
        np.save(root / f"case_{i:03d}" / "x.npy", case["x"])
    compare = [twinrt_bin, "compare", mlp_path, "--engines", ",".join(ENGINES), "--cases", str(root)]
    subprocess.run(compare + ["--json", str(work_dir / f"{name}_whole.json")], check=True, capture_output=True)
    parts = [str(work_dir / f"{name}_part{i}.json") for i in range(shards)]
    for i, part in enumerate(parts):
        subprocess.run(compare + ["--shard", f"{i}/{shards}", "--json", part], check=True, capture_output=True)
    merged = subprocess.run([twinrt_bin, "report", "merge", *parts, "--json", str(work_dir / f"{name}_merged.json"),
                             "--html", str(work_dir / f"{name}_merged.html")], capture_output=True, text=True)
    assert merged.returncode == 0, merged.stderr
    return (root, json.loads((work_dir / f"{name}_whole.json").read_text()),
            json.loads((work_dir / f"{name}_merged.json").read_text()), parts)


def test_cli_shards_merge_into_the_whole_run(mlp_path, twinrt_bin, work_dir):
    _, whole, merged, parts = compare_in_shards(mlp_path, twinrt_bin, work_dir, "cli_cases", 30, 5, 3)
    assert merged["cases"] == whole["cases"] == 30
    assert json.loads(open(parts[1]).read())["cases"] == 10

    class Wrapped:
        def __init__(self, d):
            self.outputs = d["outputs"]

    assert_same_metrics(Wrapped(merged), Wrapped(whole))
    assert "<html" in (work_dir / "cli_cases_merged.html").read_text().lower()


def test_cli_merge_keeps_the_worst_cases(mlp_path, twinrt_bin, work_dir):
    root, whole, merged, parts = compare_in_shards(mlp_path, twinrt_bin, work_dir, "worst_cases", 25, 11, 2)
    assert len(whole["worst_cases"]) == 10
    assert merged["worst_cases"] == whole["worst_cases"]
    assert merged["case_verdicts"] == whole["case_verdicts"]
    assert sum(whole["case_verdicts"].values()) == 25
    # Ranked by error; each case named with its index, folder and input file.
    errors = [float(c["max_abs"]) for c in whole["worst_cases"]]
    assert errors == sorted(errors, reverse=True)
    worst = whole["worst_cases"][0]
    assert worst["name"] == f"case_{worst['case']:03d}"
    assert worst["inputs"] == {"x": str(root / worst["name"] / "x.npy")}
    # Shard 1 numbers its cases from 12 (25 * 1 // 2), as in the whole set.
    part1 = json.loads(open(parts[1]).read())
    assert all(c["case"] >= 12 and c["name"] == f"case_{c['case']:03d}" for c in part1["worst_cases"])
    page = (work_dir / "worst_cases_merged.html").read_text()
    assert "Worst cases" in page and worst["name"] in page and "x.npy" in page


def write_pipeline(folder, mlp_path):
    """A tiny pipeline: the MLP, then a second model (Softmax), then the top-2 labels."""
    import onnx
    from onnx import TensorProto, helper
    folder.mkdir(parents=True, exist_ok=True)
    graph = helper.make_graph([helper.make_node("Softmax", ["y"], ["p"], axis=-1)], "softmax",
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])],
                              [helper.make_tensor_value_info("p", TensorProto.FLOAT, [1, 3])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), folder / "softmax.onnx")
    (folder / "labels.txt").write_text("cat\ndog\nbird\n")
    spec = {
        "name": "tiny", "inputs": ["x"], "outputs": ["labels", "probs"],
        "stages": [
            {"name": "mlp", "model": os.path.relpath(mlp_path, folder), "inputs": {"x": "x"}, "outputs": {"y": "y"}},
            {"name": "softmax", "model": "softmax.onnx", "inputs": {"y": "y"}, "outputs": {"p": "p"}},
            {"name": "top", "step": "top_k", "params": {"labels": "labels.txt", "k": 2},
             "inputs": {"scores": "p"}, "outputs": {"labels": "labels", "probs": "probs"}},
        ],
    }
    path = folder / "tiny.json"
    path.write_text(json.dumps(spec))
    return str(path)


def test_pipeline_sweep_on_a_cluster_matches_single_process(mlp_path, work_dir):
    pipe = write_pipeline(work_dir / "pipeline", mlp_path)
    rng = np.random.default_rng(3)
    case_list = [{"x": (rng.standard_normal((1, 4)) * 10).astype(np.float32)} for _ in range(40)]
    single = sweep(pipe, case_list, engines=ENGINES, client=False)
    report = sweep(pipe, case_list, engines=ENGINES, workers=2, shards=4)
    assert report.shards == 4 and report.to_dict()["cases"] == 40
    assert report.to_dict()["inputs"] == "pipeline inputs per case (merged from 4 parts)"
    # Every stage's values, the pipeline's outputs under their own names.
    assert [o["output"] for o in report.outputs] == ["mlp/y", "softmax/p", "labels", "probs"]
    assert report.metrics("labels")["dtype"] == "string"
    assert_same_metrics(report, single)
    assert report.verdict_counts == single.verdict_counts == {"passed": 40, "failed": 0}
    assert [c["case"] for c in report.worst_cases] == [c["case"] for c in single.worst_cases]
    assert [c["max_abs"] for c in report.worst_cases] == [c["max_abs"] for c in single.worst_cases]
    worst = report.worst_cases[0]
    assert worst["max_abs"] == max(float(o["metrics"]["max_abs"]) for o in report.outputs)
    assert np.array_equal(worst["inputs"]["x"], case_list[worst["case"]]["x"])
    assert report.passed, str(report)


def test_pipeline_sweep_of_case_folders(mlp_path, work_dir):
    pipe = write_pipeline(work_dir / "pipeline_folders", mlp_path)
    root = work_dir / "pipeline_cases"
    for i, case in enumerate(cases(6, seed=4)):
        (root / f"c{i}").mkdir(parents=True)
        np.save(root / f"c{i}" / "x.npy", case["x"][:1])
    report = sweep(pipe, str(root), engines=ENGINES, client=False, shards=2, worst=3)
    assert sum(report.verdict_counts.values()) == 6 and len(report.worst_cases) == 3
    worst = report.worst_cases[0]
    assert worst["name"] == f"c{worst['case']}" and worst["files"] == {"x": str(root / worst["name"] / "x.npy")}
    html = report.to_html(str(work_dir / "pipeline_sweep.html"))
    assert "Worst cases" in open(html).read()


def test_cli_shard_and_merge_errors(mlp_path, twinrt_bin, work_dir):
    bad = subprocess.run([twinrt_bin, "compare", mlp_path, "--engines", "twinrt,twinrt-ref", "--shard", "3/3"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--shard 3/3" in bad.stderr
    empty = subprocess.run([twinrt_bin, "compare", mlp_path, "--engines", "twinrt,twinrt-ref", "--shard", "0/2"],
                           capture_output=True, text=True)
    assert empty.returncode == 2 and "has no cases" in empty.stderr
    (work_dir / "not_a_report.json").write_text('{"schema_version": 1, "command": "compare"}')
    merge = subprocess.run([twinrt_bin, "report", "merge", str(work_dir / "not_a_report.json")],
                           capture_output=True, text=True)
    assert merge.returncode == 2 and "not a twinrt compare report" in merge.stderr


def test_sweep_against_onnx_runtime(mlp_path, ort):
    report = sweep(mlp_path, cases(20, seed=9), engines=["ort", "twinrt"], client=False, shards=2)
    assert report.passed, str(report)
    assert [e["name"] for e in report.engines] == ["ort", "twinrt"]
    assert report.to_dict()["cases"] == 20 and report.verdict_counts == {"passed": 20, "failed": 0}
