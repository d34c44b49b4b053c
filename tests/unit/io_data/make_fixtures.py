#!/usr/bin/python3
"""Writes the .npy/.npz fixtures read by tests/unit/io_npy_test.cc and io_npz_test.cc.

NumPy is the oracle: twinrt's reader must accept what np.save / np.savez write.
Run from this folder with Debian's /usr/bin/python3 (python3-numpy).
"""
import numpy as np

np.save("f32_2x3.npy", (np.arange(6, dtype="<f4") / 4).reshape(2, 3))
np.save("i64_scalar.npy", np.array(-7, dtype="<i8"))
np.save("bool_4.npy", np.array([True, False, False, True]))
np.save("f16_3.npy", np.array([1, -2, 0.5], dtype="<f2"))
np.save("u8_0x3.npy", np.zeros((0, 3), dtype="u1"))
np.save("u16_2.npy", np.array([1, 65535], dtype="<u2"))
np.save("c64_2.npy", np.array([1 + 2j, -3.5j], dtype="<c8"))
np.save("fortran_2x3.npy", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
np.save("bigendian_f4.npy", np.array([1, 2], dtype=">f4"))
np.save("structured.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
with open("v2_i32_3.npy", "wb") as f:
    np.lib.format.write_array(f, np.array([5, -6, 7], dtype="<i4"), version=(2, 0))
np.savez("stored.npz", x=np.array([1.5, 2.5], dtype="<f4"), y=np.array([[1, 2]], dtype="<i8"))
np.savez_compressed("deflated.npz", x=np.arange(100, dtype="<f4"), flag=np.array(True))

# Raw DEFLATE streams (no zlib header) of known data, one per block type zlib chooses.
import zlib


def raw_deflate(data, level):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


text = b"".join(b"line %d: the quick brown fox jumps over the lazy dog %d\n" % (i, i * i) for i in range(120))
for name, data, level in [("fixed", b"hello hello hello twinrt", 9),
                          ("dynamic", text, 9),
                          ("stored", bytes(range(256)) * 4, 0)]:
    with open(name + ".raw", "wb") as f:
        f.write(data)
    with open(name + ".deflate", "wb") as f:
        f.write(raw_deflate(data, level))
