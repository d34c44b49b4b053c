#!/usr/bin/env python3
"""Synthesizes a speech clip for the VAD example with Debian's espeak-ng.

Writes a 16 kHz mono 16-bit WAV: silence, phrase, silence, phrase, silence, and a JSON file
with where the speech is (seconds, measured on the samples: espeak-ng pads its output with
a little silence of its own). Usage: make_vad_audio.py OUT.wav [--gap 1.5] [--spans OUT.json]
"""
import argparse
import json
import subprocess
import sys
import wave

import numpy as np

RATE = 16000
PHRASES = ["The quick brown fox jumps over the lazy dog.", "Voice activity detection finds the speech."]


def speak(text):
    """espeak-ng's samples for `text` as floats in [-1, 1] at RATE Hz."""
    raw = subprocess.run(["espeak-ng", "-v", "en", "-s", "150", "--stdout", text], check=True,
                         capture_output=True).stdout
    # espeak-ng writes a RIFF header with unknown sizes (it streams), so find "data" by hand.
    rate = int.from_bytes(raw[24:28], "little")
    data = raw[raw.index(b"data") + 8:]
    x = np.frombuffer(data[:len(data) // 2 * 2], dtype="<i2").astype(np.float64) / 32768
    # Band-limited resampling in the frequency domain (espeak-ng speaks at 22050 Hz).
    n_out = int(round(len(x) * RATE / rate))
    spectrum = np.fft.rfft(x)[: n_out // 2 + 1]
    return np.fft.irfft(spectrum, n_out) * n_out / len(x)


def trim(x, level=0.01):
    """x without its leading and trailing near-silence."""
    loud = np.nonzero(np.abs(x) > level)[0]
    return x[loud[0]: loud[-1] + 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--gap", type=float, default=1.5, help="seconds of silence between the phrases")
    ap.add_argument("--lead", type=float, default=0.5, help="seconds of silence before and after")
    ap.add_argument("--spans", help="write the speech spans [[start, end], ...] in seconds here")
    args = ap.parse_args()
    parts, spans, t = [np.zeros(int(args.lead * RATE))], [], args.lead
    for i, phrase in enumerate(PHRASES):
        if i:
            parts.append(np.zeros(int(args.gap * RATE)))
            t += args.gap
        speech = trim(speak(phrase))
        parts.append(speech)
        spans.append([round(t, 4), round(t + len(speech) / RATE, 4)])
        t += len(speech) / RATE
    parts.append(np.zeros(int(args.lead * RATE)))
    pcm = np.clip(np.round(np.concatenate(parts) * 32767), -32768, 32767).astype("<i2")
    with wave.open(args.out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    if args.spans:
        with open(args.spans, "w") as f:
            json.dump({"sample_rate": RATE, "samples": len(pcm), "speech": spans}, f)
    print(f"{args.out}: {len(pcm) / RATE:.2f} s, speech at {spans}", file=sys.stderr)


if __name__ == "__main__":
    main()
