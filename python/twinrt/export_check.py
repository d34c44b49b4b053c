"""``python3 -m twinrt.export_check package.module:factory --input NAME=SHAPE ...``: the
export parity stand (twinrt.torch.export_check) from the shell. Exit 0 when the export
passes, 1 when it fails, 2 on bad arguments."""

import argparse
import importlib
import sys

EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT = 0, 1, 2

_DTYPES = {"float32": "float32", "float": "float32", "float16": "float16", "float64": "float64",
           "int64": "int64", "int32": "int32", "bool": "bool"}


class UsageError(Exception):
    pass


def _shape(text, flag):
    try:
        dims = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"{flag}: '{text}' is not a shape like 1x3x224x224")
    if any(d < 0 for d in dims):
        raise UsageError(f"{flag}: '{text}' has a negative dimension")
    return dims


def _input(text):
    """NAME=SHAPE[:DTYPE]"""
    name, sep, rest = text.partition("=")
    if not sep or not name:
        raise UsageError(f"--input: '{text}' is not NAME=SHAPE[:DTYPE]")
    shape_text, _, dtype = rest.partition(":")
    if dtype and dtype not in _DTYPES:
        raise UsageError(f"--input {name}: unknown dtype '{dtype}' (known: {', '.join(_DTYPES)})")
    return name, _shape(shape_text, f"--input {name}"), _DTYPES[dtype or "float32"]


def _shape_set(text, names):
    """NAME=SHAPE[,NAME=SHAPE...]"""
    shapes = {}
    for part in text.split(","):
        name, sep, shape_text = part.partition("=")
        if not sep or name not in names:
            raise UsageError(f"--shape: '{part}' is not NAME=SHAPE with NAME one of {', '.join(names)}")
        shapes[name] = _shape(shape_text, f"--shape {name}")
    return shapes


def _dynamic(texts, names):
    """NAME=AXIS:SYMBOL[,AXIS:SYMBOL...] -> torch.onnx.export's dynamic_axes."""
    axes = {}
    for text in texts:
        name, sep, rest = text.partition("=")
        if not sep or not rest:
            raise UsageError(f"--dynamic: '{text}' is not NAME=AXIS:SYMBOL[,AXIS:SYMBOL]")
        for item in rest.split(","):
            axis, _, symbol = item.partition(":")
            if not axis.isdigit():
                raise UsageError(f"--dynamic {name}: axis '{axis}' is not a number")
            axes.setdefault(name, {})[int(axis)] = symbol or f"{name}_{axis}"
    return axes


def _factory(target):
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise UsageError(f"'{target}' is not package.module:factory")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"cannot import {module_name}: {e}")
    factory = module
    for part in attr.split("."):
        if not hasattr(factory, part):
            raise UsageError(f"{module_name} has no attribute '{attr}'")
        factory = getattr(factory, part)
    if not callable(factory):
        raise UsageError(f"{target} is not callable")
    return factory


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m twinrt.export_check",
                                     description="Export a PyTorch module to ONNX and check it against PyTorch "
                                                 "on twinrt (and ONNX Runtime when installed).")
    parser.add_argument("factory", help="package.module:factory, a callable that returns the torch.nn.Module")
    parser.add_argument("--input", action="append", required=True, help="NAME=SHAPE[:DTYPE] example input (repeat per input)")
    parser.add_argument("--shape", action="append", help="NAME=SHAPE[,NAME=SHAPE] a shape set to check (repeatable; "
                                                         "default: the example shapes)")
    parser.add_argument("--dynamic", action="append", default=[], help="NAME=AXIS:SYMBOL[,...] dynamic axes")
    parser.add_argument("--opset", type=int, default=17)
    parser.add_argument("--policy", default="fp32")
    parser.add_argument("--card", help="write the model card (MODEL.md) here; the .onnx goes next to it")
    parser.add_argument("--output", help="where the exported .onnx goes")
    parser.add_argument("--engines", help="comma-separated engines besides PyTorch (default twinrt,ort,ort-web)")
    parser.add_argument("--mode", default="default", help="twinrt's mode: default, exact, reference")
    parser.add_argument("--seed", type=int, default=0)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return EXIT_OK if e.code == 0 else EXIT_BAD_INPUT
    try:
        import torch
        from . import TwinrtError
        from .torch import export_check
        inputs = [_input(t) for t in args.input]
        names = [n for n, _, _ in inputs]
        shapes = [_shape_set(t, names) for t in args.shape] if args.shape else None
        module = _factory(args.factory)()
        if not isinstance(module, torch.nn.Module):
            raise UsageError(f"{args.factory}() returned a {type(module).__name__}, not a torch.nn.Module")
        examples = tuple(torch.zeros(shape, dtype=getattr(torch, dtype)) if dtype != "float32" else
                         torch.randn(shape, generator=torch.Generator().manual_seed(args.seed))
                         for _, shape, dtype in inputs)
        result = export_check(module, examples, opset=args.opset, dynamic_axes=_dynamic(args.dynamic, names) or None,
                              shapes=shapes, policy=args.policy, card=args.card, input_names=names, path=args.output,
                              engines=args.engines.split(",") if args.engines else None, mode=args.mode,
                              seed=args.seed)
    except (UsageError, TwinrtError) as e:
        print(f"twinrt export_check: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(result)
    if result.card_path:
        print(f"model card: {result.card_path}")
    return EXIT_OK if result.passed else EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
