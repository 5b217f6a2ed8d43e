# `make run` builds the example site into public/; `make test` runs every test.
# Both first install the Debian packages the build links against, when they are missing.

# Build: pkg-config and the -dev libraries. Tests: the cmark-gfm reference command, xmllint, nginx, linkchecker, curl.
APT_PACKAGES := pkg-config libyaml-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libssl-dev \
	cmark-gfm libxml2-utils nginx-light linkchecker curl
# The tests validate every JSON file against its published JSON Schema with Python's jsonschema.
PIP_PACKAGES := jsonschema
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup build run test check clean

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

clean:
	rm -rf .build public
