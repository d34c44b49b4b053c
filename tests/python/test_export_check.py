"""twinrt.torch.export_check on real architectures (torchvision ResNet-18 and
MobileNetV3, a CRNN, a YOLO-style detector) and on the classic export mistakes."""

import os
import subprocess
import sys

import pytest
import torch
import torchvision

import models
from twinrt.torch import export_check

BATCH = {"images": {0: "batch"}, "output": {0: "batch"}}


def assert_passed(result):
    assert result.passed, str(result)
    assert len(result.reports) == len(result.shapes) >= 1
    for report in result.reports:
        assert report.engines[0]["name"] == "pytorch"
        assert {e["name"] for e in report.engines} >= {"pytorch", "twinrt"}
        assert all(e["ok"] for e in report.engines)


@pytest.fixture(autouse=True)
def seeded():
    torch.manual_seed(0)


def test_resnet18_at_two_batch_sizes_with_card(work_dir):
    card = work_dir / "resnet18" / "MODEL.md"
    card.parent.mkdir()
    net = torchvision.models.resnet18(weights=None).eval()
    result = export_check(net, torch.randn(1, 3, 64, 64), input_names=["images"], dynamic_axes=BATCH,
                          shapes=[(1, 3, 64, 64), (2, 3, 64, 64)], card=str(card))
    assert_passed(result)
    assert result.model_path == str(work_dir / "resnet18" / "MODEL.onnx")
    text = card.read_text()
    assert "## Measured parity" in text and "images=2x3x64x64" in text
    assert "| `images` | `tensor(float32)[batch,3,64,64]` | axis 0 `batch` |" in text
    assert "No export mistakes found" in text


def test_mobilenet_v3(work_dir):
    net = torchvision.models.mobilenet_v3_small(weights=None).eval()
    result = export_check(net, torch.randn(1, 3, 96, 96), input_names=["images"], dynamic_axes=BATCH,
                          shapes=[(1, 3, 96, 96), (3, 3, 96, 96)], path=str(work_dir / "mbv3.onnx"))
    assert_passed(result)


def test_crnn_with_dynamic_width(work_dir):
    axes = {"image": {0: "batch", 3: "width"}, "output": {0: "batch", 1: "steps"}}
    result = export_check(models.crnn(), torch.randn(1, 1, 16, 64), dynamic_axes=axes,
                          shapes=[(1, 1, 16, 64), (2, 1, 16, 96)], path=str(work_dir / "crnn.onnx"))
    assert_passed(result)
    assert result.reports[1].metrics("output")["shape"] == [2, 48, 11]


def test_yolo_style_detector(work_dir):
    result = export_check(models.tiny_yolo(), torch.rand(1, 3, 64, 64), input_names=["images"],
                          dynamic_axes=BATCH, shapes=[(1, 3, 64, 64), (2, 3, 64, 64)],
                          path=str(work_dir / "yolo.onnx"))
    assert_passed(result)
    assert not result.findings  # nearest upsampling exports as Resize(asymmetric, floor)


def test_export_without_dynamic_axes_fails_naming_the_dimension(work_dir):
    net = torchvision.models.resnet18(weights=None).eval()
    result = export_check(net, torch.randn(1, 3, 32, 32), input_names=["images"],
                          shapes=[(1, 3, 32, 32), (2, 3, 32, 32)], path=str(work_dir / "fixed.onnx"))
    assert not result.passed
    baked = [f for f in result.findings if f.kind == "baked-in-dimension"]
    assert baked and "input 'images' axis 0 is fixed to 1" in baked[0].message
    assert "dynamic_axes" in baked[0].message
    assert result.reports[0].passed and not result.reports[1].passed


def test_batch_traced_as_constant_inside_the_graph(work_dir):
    result = export_check(models.BatchAsPythonInt().eval(), torch.randn(1, 8, 4, 4),
                          dynamic_axes={"x": {0: "batch"}}, shapes=[(1, 8, 4, 4), (2, 8, 4, 4)],
                          path=str(work_dir / "flatten.onnx"))
    assert not result.passed
    kinds = {f.kind for f in result.findings}
    assert "baked-in-dimension" in kinds, str(result)


def test_train_mode_layers_are_named(work_dir):
    net = models.CRNN()
    net.features[1].running_var.fill_(4.0)  # so eval and training batch norm differ visibly
    result = export_check(net.train(), torch.randn(2, 1, 16, 32), path=str(work_dir / "train.onnx"))
    assert net.training  # the caller's module is left as it was
    (finding,) = [f for f in result.findings if f.kind == "train-mode"]
    assert "features.1" in finding.message and "module.eval()" in finding.message
    assert not result.passed


def test_opset_too_low_names_the_op_and_the_opset(work_dir):
    result = export_check(models.GridSampler(), (torch.randn(1, 1, 4, 4), torch.rand(1, 2, 2, 2) * 2 - 1),
                          opset=11, path=str(work_dir / "grid.onnx"))
    assert not result.passed
    (finding,) = result.findings
    assert finding.kind == "opset-too-low"
    assert "grid_sampler" in finding.message and "opset=16" in finding.message


def test_resize_mode_changed_at_opset_9(work_dir):
    result = export_check(models.BilinearUp().eval(), torch.randn(1, 3, 8, 8), opset=9,
                          path=str(work_dir / "upsample9.onnx"))
    changed = [f for f in result.findings if f.kind == "resize-mode-changed"]
    assert changed and "align_corners=False" in changed[0].message and "asymmetric" in changed[0].message
    assert not result.passed
    good = export_check(models.BilinearUp().eval(), torch.randn(1, 3, 8, 8), opset=17,
                        path=str(work_dir / "upsample17.onnx"))
    assert_passed(good)


def test_command_line(work_dir):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(__file__), os.environ.get("PYTHONPATH", "")]))
    card = work_dir / "cli" / "CRNN.md"
    card.parent.mkdir()
    run = subprocess.run([sys.executable, "-m", "twinrt.export_check", "models:crnn", "--input", "image=1x1x16x32",
                          "--dynamic", "image=0:batch", "--shape", "image=1x1x16x32", "--shape", "image=2x1x16x32",
                          "--card", str(card)], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS" in run.stdout and card.exists()
    fixed = subprocess.run([sys.executable, "-m", "twinrt.export_check", "models:crnn", "--input", "image=1x1x16x32",
                            "--shape", "image=2x1x16x32", "--output", str(work_dir / "cli" / "fixed.onnx")],
                           capture_output=True, text=True, env=env)
    assert fixed.returncode == 1 and "baked-in-dimension" in fixed.stdout
    bad = subprocess.run([sys.executable, "-m", "twinrt.export_check", "models:nope", "--input", "x=1x2"],
                         capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "no attribute 'nope'" in bad.stderr
