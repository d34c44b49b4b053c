#!/usr/bin/python3
"""Renders text images with random words for OCR tests: single lines and pages.

Writes OUT/<set>_line_<i>.png, OUT/<set>_page.png and OUT/<set>.json (the image -> expected
text lines). Sets are seeded: "dev" (seed 1) for tuning, "heldout" (seed 2) for measuring, "sample"
(seed 3) for the bundled examples/ocr/sample_page.png.
Fonts are Debian's fonts-dejavu-core and fonts-liberation; needs python3-pil.
  /usr/bin/python3 examples/ocr/render_text.py OUT [--lines N] [--page-lines N] [--set dev|heldout]
"""
import argparse
import json
import os
import random

from PIL import Image, ImageDraw, ImageFont

FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
]
WORDS = """time year people way day man thing woman life child world school state family student
group country problem hand part place case week company system program question work government
number night point home water room mother area money story fact month lot right study book eye job
word business issue side kind head house service friend father power hour game line end member law
car city community name president team minute idea kid body information back parent face others
level office door health person art war history party result change morning reason research girl
guy moment air teacher force education foot boy age policy process music market sense nation plan
college interest death experience effect class control care field development role effort rate
heart drug show leader light voice wife police mind price report decision son view relationship town
road arm difference value building action model season society tax director position player record
paper space ground form event official matter center couple site project activity star table need
court oil situation cost industry figure street image phone data picture practice piece land product
doctor wall patient worker news test movie north love support technology step baby computer type
garden river window summer winter garden yellow green silver orange purple quick brown lazy jumps
""".split()


def random_line(rng, min_words=2, max_words=6):
    words = []
    for _ in range(rng.randint(min_words, max_words)):
        w = rng.choice(WORDS)
        r = rng.random()
        if r < 0.15:
            w = w.capitalize()
        elif r < 0.2:
            w = str(rng.randint(1, 9999))
        words.append(w)
    return " ".join(words)


def render_line(rng, text):
    font = ImageFont.truetype(rng.choice(FONTS), rng.randint(22, 34))
    left, top, right, bottom = font.getbbox(text)
    pad = rng.randint(8, 20)
    image = Image.new("RGB", (right - left + 2 * pad, bottom - top + 2 * pad), (255, 255, 255))
    ImageDraw.Draw(image).text((pad - left, pad - top), text, font=font, fill=(rng.randint(0, 60),) * 3)
    return image


def render_page(rng, lines):
    font = ImageFont.truetype(FONTS[0], 24)
    height = 40 + 38 * len(lines)
    image = Image.new("RGB", (900, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for i, text in enumerate(lines):
        draw.text((40, 30 + 38 * i), text, font=font, fill=(0, 0, 0))
    return image


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--set", choices=["dev", "heldout", "sample"], default="heldout")
    parser.add_argument("--lines", type=int, default=10)
    parser.add_argument("--page-lines", type=int, default=24)
    args = parser.parse_args()
    rng = random.Random({"dev": 1, "heldout": 2, "sample": 3}[args.set])
    os.makedirs(args.out, exist_ok=True)
    truth = {}
    for i in range(args.lines):
        text = random_line(rng)
        name = f"{args.set}_line_{i}.png"
        render_line(rng, text).save(os.path.join(args.out, name))
        truth[name] = [text]
    if args.page_lines > 0:
        lines = [random_line(rng, 3, 7) for _ in range(args.page_lines)]
        name = f"{args.set}_page.png"
        render_page(rng, lines).save(os.path.join(args.out, name))
        truth[name] = lines
    with open(os.path.join(args.out, f"{args.set}.json"), "w") as f:
        json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
