#!/usr/bin/python3
"""Writes the .npz fixtures of inputs_test.cc (run from this folder)."""
import numpy as np

x = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
np.savez("inputs_xy.npz", x=x, y=np.array([7, 8], dtype=np.int64))
np.savez_compressed("inputs_one_member.npz", whatever=x * 0.5)
np.savez("inputs_stray_member.npz", x=x, nope=np.array([1], dtype=np.int64))
