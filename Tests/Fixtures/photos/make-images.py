#!/usr/bin/env python3
"""Writes the small images of the photos fixture (Tests/Fixtures/photos/content/media/things/).

Needs Pillow (python3 -m pip install Pillow) and exiftool. The files are committed; run this only to change them.
"""
import os
import subprocess

from PIL import Image, ImageDraw

folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "content", "media", "things")


def scene(size, mode="RGB"):
    """Stripes and a disc, so every variant has something to encode."""
    image = Image.new("RGB", size, (200, 220, 240))
    draw = ImageDraw.Draw(image)
    for x in range(0, size[0], 40):
        draw.rectangle([x, 0, x + 19, size[1]], fill=(60, 120, 200))
    draw.ellipse([size[0] // 4, size[1] // 4, size[0] * 3 // 4, size[1] * 3 // 4], fill=(220, 80, 40))
    return image.convert(mode)


# A JPEG narrower than the widest default variant (1280), with a camera's tags.
scene((1000, 750)).save(os.path.join(folder, "lamp.jpg"), quality=85)
subprocess.run(["exiftool", "-q", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS 80D",
                os.path.join(folder, "lamp.jpg")], check=True)
# CMYK, as print workflows and some scanners write JPEG: published as sRGB.
scene((400, 300), "CMYK").save(os.path.join(folder, "print.jpg"), quality=90)
# A PNG with transparency: PNG and WebP variants, alpha kept.
logo = scene((500, 400), "RGBA")
logo.putalpha(Image.new("L", logo.size, 128))
logo.save(os.path.join(folder, "logo.png"))
# 16-bit grey PNG: published as 8-bit.
Image.new("I;16", (360, 240), 30000).save(os.path.join(folder, "scan.png"))
# A WebP source: WebP variants only.
scene((700, 500)).save(os.path.join(folder, "poster.webp"), quality=80)
# A GIF: a format the site does not publish.
scene((60, 40)).convert("P").save(os.path.join(folder, "spinner.gif"))
for name in sorted(os.listdir(folder)):
    print(name, os.path.getsize(os.path.join(folder, name)))
