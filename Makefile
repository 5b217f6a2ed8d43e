# `make run` builds the example site into public/; `make test` runs every test.
# Both first install the Debian packages the build links against, when they are missing.

APT_PACKAGES := pkg-config libyaml-dev libcmark-gfm-dev libcmark-gfm-extensions-dev cmark-gfm libssl-dev
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
