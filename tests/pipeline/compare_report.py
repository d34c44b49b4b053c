#!/usr/bin/env python3
"""`twinrt pipeline compare --json --html` on the OCR example: the JSON report names both
engines, compares every stage's values (the final outputs under their own names, the rest
as stage/value) under the fp32 policy with the recognized text identical, carries the final
outputs' verdicts (character error rate 0, boxes matched with IoU 1), and the HTML page is
written next to it.
"""
import json
import os
import subprocess
import sys


def main():
    twinrt, pipeline, image, out_dir = sys.argv[1:5]
    os.makedirs(out_dir, exist_ok=True)
    json_path, html_path = os.path.join(out_dir, "report.json"), os.path.join(out_dir, "report.html")
    for path in (json_path, html_path):
        if os.path.exists(path):
            os.remove(path)
    cmd = [twinrt, "pipeline", "compare", pipeline, "--engines", "twinrt,ort", "--input", "image_file=" + image,
           "--json", json_path, "--html", html_path]
    done = subprocess.run(cmd, capture_output=True, text=True)
    print(done.stdout, done.stderr)
    assert done.returncode == 0, "exit code %d" % done.returncode
    assert "report (policy fp32 on every value): every value within the policy" in done.stdout
    with open(json_path) as f:
        report = json.load(f)
    assert [e["name"] for e in report["engines"]] == ["twinrt", "ort"], report["engines"]
    assert all(e["ok"] for e in report["engines"])
    assert report["passed"] is True and report["baseline"] == "twinrt"
    assert report["inputs"] == image, report["inputs"]
    by_name = {o["output"]: o for o in report["outputs"]}
    for name in ("text", "boxes", "det/det_prob", "rec/rec_probs", "crop/crops"):
        assert name in by_name, "no comparison of %s in %s" % (name, sorted(by_name))
        assert by_name[name]["engine"] == "ort" and by_name[name]["policy"] == "fp32"
    assert by_name["text"]["metrics"]["exact_mismatches"] == 0
    assert by_name["det/det_prob"]["metrics"]["max_abs"] > 0  # float noise between engines is measured, not hidden
    finals = {(v["output"], v["engine"]): v for v in report["final_outputs"]}
    assert finals[("text", "ort")]["agrees"] and finals[("text", "ort")]["character_error_rate"] == 0, finals
    assert finals[("boxes", "ort")]["min_iou"] == 1 and finals[("boxes", "ort")]["character_error_rate"] is None
    with open(html_path) as f:
        page = f.read()
    assert page.startswith("<!DOCTYPE html>") and "rec/rec_probs" in page and "Final outputs" in page
    print("report: %d values compared, all within fp32" % len(by_name))


if __name__ == "__main__":
    main()
