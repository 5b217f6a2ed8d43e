#!/usr/bin/env python3
"""Draws the example site's photos and writes them as phone cameras do: big JPEGs with EXIF.

Usage: scripts/make-example-photos.py [CONTENT_DIR]     (default: content/)

Needs Pillow (python3 -m pip install Pillow) and exiftool (Debian's libimage-exiftool-perl). The output is
the same on every run (seeded noise, fixed tags), so the committed files only change when this script does.

What the photos show about the image pipeline:
- rentals/kayak.jpg: 4032 x 3024 (12 MP) with the camera's EXIF and the GPS position where it was taken,
  the owner's home: no published file may carry it;
- rentals/lawn-mower.jpg: stored 3024 x 2268 on its side with EXIF Orientation 6, as a phone held upright
  writes it: published upright, 2268 x 3024;
- rentals/gazebo.jpg: 2048 x 1536;
- rentals/camping-stove.jpg: 960 x 720, narrower than the widest variant, which is never scaled up;
- cleaners/aoife-byrne.jpg: a 1200 x 1500 portrait.
"""
import math
import os
import random
import subprocess
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter

content = sys.argv[1] if len(sys.argv) > 1 else "content"


def gradient(size, top, bottom, box=None):
    """A vertical gradient from `top` to `bottom` filling `box` (default: the whole image)."""
    width, height = size
    left, upper, right, lower = box or (0, 0, width, height)
    strip = Image.new("RGB", (1, lower - upper))
    for y in range(lower - upper):
        t = y / max(1, lower - upper - 1)
        strip.putpixel((0, y), tuple(round(a + (b - a) * t) for a, b in zip(top, bottom)))
    return strip.resize((right - left, lower - upper))


def grain(image, seed, strength):
    """Sensor noise of about `strength` levels, seeded so the file is the same on every run, then the slight
    softness of a phone's lens and processing."""
    rng = random.Random(seed)
    noise = Image.frombytes("L", image.size, rng.randbytes(image.size[0] * image.size[1])).filter(ImageFilter.GaussianBlur(0.6))
    noise = noise.point(lambda v: round(128 + (v - 128) * strength / 32))
    return ImageChops.add(image, Image.merge("RGB", (noise, noise, noise)), offset=-128).filter(ImageFilter.GaussianBlur(0.7))


def kayak():
    size = (4032, 3024)
    image = gradient(size, (96, 146, 204), (196, 214, 228))
    draw = ImageDraw.Draw(image)
    horizon = 1250
    draw.polygon([(0, horizon), (700, 930), (1500, 1130), (2300, 880), (3200, 1100), (4032, 960), (4032, horizon)], fill=(64, 92, 70))
    draw.polygon([(0, horizon), (1100, 1100), (2000, 1200), (4032, 1150), (4032, horizon)], fill=(46, 74, 58))
    image.paste(gradient(size, (70, 104, 128), (120, 150, 160), (0, horizon, 4032, 2300)), (0, horizon))
    for y in range(horizon + 20, 2300, 37):
        draw.line([(0, y), (4032, y + 6)], fill=(140, 170, 182), width=3)
    image.paste(gradient(size, (170, 150, 112), (120, 100, 70), (0, 2300, 4032, 3024)), (0, 2300))
    draw.ellipse([2700, 420, 2960, 680], fill=(252, 240, 200))
    # The kayak, pulled up on the shingle, and its paddle.
    draw.polygon([(700, 2450), (1400, 2330), (2900, 2310), (3500, 2420), (2900, 2560), (1300, 2580)], fill=(214, 74, 40))
    draw.polygon([(1300, 2580), (2900, 2560), (3500, 2420), (3400, 2500), (2850, 2620), (1350, 2640)], fill=(150, 46, 28))
    draw.ellipse([1900, 2380, 2400, 2470], fill=(40, 36, 34))
    draw.line([(1200, 2750), (3300, 2250)], fill=(30, 30, 30), width=28)
    draw.polygon([(1100, 2700), (1260, 2740), (1230, 2830), (1050, 2800)], fill=(240, 200, 40))
    return grain(image, 1, 6)


def lawn_mower():
    """Drawn upright (portrait), returned on its side as the phone's sensor stored it."""
    size = (3024, 4032)
    image = gradient(size, (150, 190, 230), (210, 225, 235))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 900, 3024, 1700], fill=(40, 84, 44))
    for x in range(0, 3024, 90):
        draw.ellipse([x - 60, 820, x + 90, 1000], fill=(46, 96, 50))
    image.paste(gradient(size, (86, 150, 70), (60, 120, 50), (0, 1700, 3024, 4032)), (0, 1700))
    for y in range(1750, 4032, 160):
        draw.rectangle([0, y, 3024, y + 70], fill=(96, 162, 78))
    draw.rounded_rectangle([700, 2500, 2300, 3300], radius=120, fill=(196, 34, 30))
    draw.rectangle([900, 2380, 2100, 2520], fill=(60, 60, 60))
    for x in (820, 2180):
        draw.ellipse([x - 230, 3150, x + 230, 3610], fill=(28, 28, 28))
        draw.ellipse([x - 90, 3290, x + 90, 3470], fill=(150, 150, 150))
    draw.line([(1000, 2500), (700, 1300)], fill=(50, 50, 50), width=45)
    draw.line([(2000, 2500), (2300, 1300)], fill=(50, 50, 50), width=45)
    draw.line([(650, 1300), (2350, 1300)], fill=(50, 50, 50), width=60)
    image = image.resize((2268, 3024), Image.Resampling.LANCZOS)
    return grain(image, 2, 6).transpose(Image.Transpose.ROTATE_90)


def gazebo():
    size = (2048, 1536)
    image = gradient(size, (120, 170, 220), (220, 230, 238))
    draw = ImageDraw.Draw(image)
    image.paste(gradient(size, (90, 150, 80), (70, 120, 60), (0, 950, 2048, 1536)), (0, 950))
    for x in range(-100, 2148, 260):
        draw.ellipse([x, 700, x + 360, 1020], fill=(52, 100, 56))
    draw.polygon([(520, 620), (1024, 300), (1528, 620)], fill=(245, 245, 240))
    draw.polygon([(520, 620), (1528, 620), (1500, 660), (548, 660)], fill=(200, 200, 196))
    for x in (560, 880, 1170, 1470):
        draw.rectangle([x, 660, x + 24, 1180], fill=(235, 235, 230))
    draw.rectangle([700, 1000, 1350, 1040], fill=(140, 100, 60))
    for x in (730, 1300):
        draw.rectangle([x, 1040, x + 18, 1180], fill=(120, 84, 50))
    return grain(image, 3, 6)


def camping_stove():
    size = (960, 720)
    image = gradient(size, (150, 104, 64), (110, 72, 40))
    draw = ImageDraw.Draw(image)
    for y in range(0, 720, 23):
        draw.line([(0, y), (960, y + 9)], fill=(126, 86, 50), width=4)
    draw.rounded_rectangle([150, 230, 810, 560], radius=30, fill=(70, 74, 80))
    draw.rectangle([150, 200, 810, 240], fill=(120, 124, 130))
    for x in (330, 630):
        draw.ellipse([x - 110, 300, x + 110, 470], fill=(40, 40, 44))
        for angle in range(0, 360, 30):
            r = math.radians(angle)
            draw.ellipse([x + 70 * math.cos(r) - 12, 385 + 50 * math.sin(r) - 10, x + 70 * math.cos(r) + 12, 385 + 50 * math.sin(r) + 10], fill=(70, 130, 240))
    return grain(image, 4, 7)


def portrait():
    size = (1200, 1500)
    image = gradient(size, (236, 232, 222), (200, 196, 186))
    draw = ImageDraw.Draw(image)
    draw.rectangle([80, 120, 520, 700], fill=(190, 214, 232))
    draw.rectangle([290, 120, 310, 700], fill=(236, 232, 222))
    draw.rectangle([0, 1000, 1200, 1500], fill=(170, 160, 150))
    draw.ellipse([230, 1050, 970, 1700], fill=(46, 125, 91))
    draw.rectangle([540, 880, 660, 1080], fill=(232, 190, 160))
    draw.ellipse([400, 420, 800, 940], fill=(180, 70, 42))
    draw.ellipse([440, 500, 760, 930], fill=(236, 196, 166))
    draw.ellipse([530, 660, 560, 690], fill=(50, 40, 36))
    draw.ellipse([640, 660, 670, 690], fill=(50, 40, 36))
    draw.arc([550, 740, 650, 820], 20, 160, fill=(150, 70, 60), width=8)
    return grain(image, 5, 6).filter(ImageFilter.GaussianBlur(1.2))


camera = ["-Make=Google", "-Model=Pixel 7", "-Software=HDR+ 1.0.540104767zd", "-ExposureTime=1/500", "-FNumber=1.9",
          "-ISO=50", "-FocalLength=6.8", "-LensModel=Pixel 7 back camera 6.81mm f/1.85"]
photos = [
    ("rentals/kayak.jpg", kayak, camera + [
        "-DateTimeOriginal=2026:04:20 18:42:10", "-GPSLatitude=53.279410", "-GPSLatitudeRef=N",
        "-GPSLongitude=9.065280", "-GPSLongitudeRef=W", "-GPSAltitude=18", "-GPSAltitudeRef=0"]),
    ("rentals/lawn-mower.jpg", lawn_mower, ["-Make=Apple", "-Model=iPhone 12", "-DateTimeOriginal=2026:05:02 11:05:31", "-Orientation#=6"]),
    ("rentals/gazebo.jpg", gazebo, camera + ["-DateTimeOriginal=2026:06:14 15:20:00"]),
    ("rentals/camping-stove.jpg", camping_stove, ["-Make=Samsung", "-Model=SM-A536B"]),
    ("cleaners/aoife-byrne.jpg", portrait, ["-Make=Apple", "-Model=iPhone 13 mini", "-Artist=Aoife Byrne"]),
]
for path, draw, tags in photos:
    target = os.path.join(content, "media", path)
    draw().save(target, quality=85, subsampling="4:2:0")
    subprocess.run(["exiftool", "-q", "-overwrite_original", *tags, target], check=True)
    print(f"{target}: {os.path.getsize(target)} bytes")
