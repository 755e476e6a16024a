# WristCore: two commands on a fresh Debian 12 / Raspberry Pi OS machine with Swift:
#   make demo    installs the -dev packages when missing, builds, runs the demo
#   make test    builds and runs every test
# More: make build | bench | fuzz | deps | clean | deb | package-test

SWIFT      ?= swift
APT_PKGS   := libgpiod-dev libi2c-dev libbluetooth-dev pkg-config python3
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FUZZ_TIME  ?= 600

.PHONY: demo test build bench fuzz deps clean help screenshots

help:
	@echo "make demo   - run WristCore on simulated hardware (installs $(APT_PKGS) if missing)"
	@echo "make test   - build and run all tests"
	@echo "make build  - build the wristcore binary (release; STATIC=1: one static executable in .build/static/release)"
	@echo "make bench  - run the benchmarks in Benchmarks/ (mallocs per event, time per event)"
	@echo "make fuzz   - run each libFuzzer target for FUZZ_TIME seconds (default $(FUZZ_TIME))"
	@echo "make screenshots - regenerate the README's screenshots (docs/screenshots/) from the demo"
	@echo "make deb [ARCH=amd64|arm64|armhf] [VERSION=x.y.z] - the Debian package, in out/ (docs/packaging.md)"
	@echo "make package-test - build the amd64 package, install it in a Debian 12 root, test it (root)"

# Installs the three C libraries' development packages with apt when any is missing.
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing (apt)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# make build STATIC=1: one static executable, .build/static/release/wristcore
# (its own build directory: the flags differ, so switching does not rebuild
# the other). The Swift runtime, libstdc++, glibc, libgpiod, libi2c and
# libbluetooth are linked in, so a board needs no shared library and no
# /usr/lib/swift. Linked with lld; every function in its own section, and the
# functions the daemon runs (Scripts/wristcore.order, made by
# Scripts/hot_text_order.py) placed side by side first, so only their pages
# are resident: under 8 MiB RSS (docs/performance.md, "Footprint").
STATIC_FLAGS := --scratch-path .build/static --static-swift-stdlib \
	-Xswiftc -static-executable -Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/Scripts/wristcore.order -Xlinker --no-warn-symbol-ordering
build: deps
	@# SwiftPM does not relink when only the order file changed: drop the old link.
	$(if $(STATIC),@for f in .build/static/*/release/wristcore; do [ ! -e "$$f" ] || [ Scripts/wristcore.order -ot "$$f" ] || rm -f "$$f"; done)
	$(SWIFT) build -c release --product wristcore $(if $(STATIC),$(STATIC_FLAGS))

demo: deps
	$(SWIFT) run wristcore demo

test: deps
	$(SWIFT) build --build-tests
	python3 Scripts/check-layers.py
	$(SWIFT) test --skip-build

bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

# Every Fuzz/*/ with a Fuzz.swift, in turn (Fuzz/run.sh finds them).
fuzz: deps
	Fuzz/run.sh all $(FUZZ_TIME)

# The README's screenshots: frames of the default demo scenario, rendered by
# the display emulator from the driver's own I2C bytes (the same frames the
# demo's golden tests check).
SHOTS := 15:demo-important 50:demo-chinese 110:demo-incoming-call 199:demo-list 239:demo-now-playing
screenshots: deps
	rm -rf .build/screenshot-frames
	$(SWIFT) run wristcore demo --frames 300 --png .build/screenshot-frames --log-level warning
	@mkdir -p docs/screenshots
	@for s in $(SHOTS); do n=$${s%%:*}; name=$${s#*:}; \
		cp .build/screenshot-frames/frame-$$(printf %04d $$n).png docs/screenshots/$$name.png; \
		echo "docs/screenshots/$$name.png"; done

clean:
	rm -rf .build Benchmarks/.build

# The libgpiod v2 branch of Sources/CGPIOD/shim.h, unit-tested through its seam:
# compiled against a fake v2 <gpiod.h> and a simulated chip (Tests/CGPIOD-v2),
# since Debian 12 ships libgpiod 1.6 and the package build only uses v1 there.
.PHONY: gpiod-v2-check
GPIOD_V2_CC ?= gcc
gpiod-v2-check:
	@mkdir -p .build
	$(GPIOD_V2_CC) -std=gnu11 -Wall -Wextra -Werror -I Tests/CGPIOD-v2/fake -I Sources/CGPIOD \
		-o .build/gpiod-v2-check Tests/CGPIOD-v2/shim_v2_test.c Tests/CGPIOD-v2/fake/fake_gpiod.c
	./.build/gpiod-v2-check

# The real-kernel tests: one VM (qemu + Debian's 6.1 kernel via virtme-ng) with
# btvirt Bluetooth controllers, i2c-stub and gpio-sim; see docs/testing-vm.md.
.PHONY: vm-test
vm-test:
	.ci/vm-test

# The Debian package: out/wristcore_<version>_<arch>.deb, built with debhelper
# from packaging/debian/ and checked with lintian (docs/packaging.md). ARCH is
# this machine's by default; another one needs a Swift SDK for it
# (docs/cross-compiling.md). VERSION defaults to wristcore --version's.
DEB_TOOLS := dpkg-dev debhelper lintian python3
.PHONY: deb deb-deps package-test
deb-deps:
	@missing=""; for p in $(APT_PKGS) $(DEB_TOOLS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing (apt)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

deb: deb-deps
	SWIFT="$(SWIFT)" ARCH="$(ARCH)" VERSION="$(VERSION)" SWIFT_SDK="$(SWIFT_SDK)" packaging/build-deb.sh

# Installs the amd64 package into a fresh Debian 12 root (debootstrap, cached in
# .build-deb/roots/) and checks it there; needs root.
package-test: deb-deps
	@command -v debootstrap >/dev/null || { $(SUDO) apt-get install -y -qq debootstrap; }
	$(SUDO) Tests/Package/install-test.sh
