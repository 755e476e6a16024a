# WristCore: two commands on a fresh Debian 12 / Raspberry Pi OS machine with Swift:
#   make demo    installs the -dev packages when missing, builds, runs the demo
#   make test    builds and runs the unit and end-to-end tests (swift test), the layer and docs checks
# More: make build [ARCH=] | embedded-check | bench | fuzz | deps | clean | deb [ARCH=] | package-test

SWIFT      ?= swift
APT_PKGS   := libgpiod-dev libi2c-dev libbluetooth-dev pkg-config python3
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FUZZ_TIME  ?= 600

.PHONY: demo test build bench fuzz deps clean help screenshots

help:
	@echo "make demo   - run WristCore on simulated hardware (installs $(APT_PKGS) if missing)"
	@echo "make demo SCENARIO=android - the same with an Android phone (Gadgetbridge); SCENARIO=NAME|FILE plays any scenario (docs/demo.md)"
	@echo "make test   - build and run all tests"
	@echo "make build [ARCH=amd64|arm64|armhf] - the shipped daemon: an Embedded Swift build, in .build-embedded/ARCH/wristcore"
	@echo "             (cross-built with Debian's gcc; EMBEDDED=0: the full-Swift release build, STATIC=1 fully static)"
	@echo "make embedded-check - compile every daemon module in Embedded mode (nothing host-only creeps in)"
	@echo "make float-abi-check [ARCH=armhf] - Swift <-> C float/double calls on the target, under qemu-user"
	@echo "make bench  - run the benchmarks in Benchmarks/ (mallocs per event, time per event)"
	@echo "make fuzz   - run each libFuzzer target for FUZZ_TIME seconds (default $(FUZZ_TIME))"
	@echo "make screenshots - regenerate the README's and docs/android.md's screenshots (docs/screenshots/) from the demo's two scenarios"
	@echo "make deb [ARCH=amd64|arm64|armhf] [VERSION=x.y.z] - the Debian package, in out/ (docs/packaging.md)"
	@echo "make package-test - build the amd64 package, install it in a Debian 12 root, test it (root)"

# Installs the three C libraries' development packages with apt when any is missing.
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing$$missing (apt)"; \
		{ $(SUDO) apt-get update -qq || echo "apt-get update reported errors; installing from what it has"; } && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
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
# make build: the Embedded Swift daemon for ARCH (default: this machine's),
# cross-built from any Debian 12 PC (Scripts/build-embedded.sh installs the
# cross gcc and fetches the target's libraries). EMBEDDED=0 (or STATIC=1):
# the full-Swift build with SwiftPM, the fallback for a toolchain that breaks
# Embedded mode.
EMBEDDED ?= $(if $(STATIC),0,1)
ARCH     ?= $(shell dpkg --print-architecture)
build: deps
ifeq ($(EMBEDDED),1)
	Scripts/build-embedded.sh --arch $(ARCH)
else
	@# SwiftPM does not relink when only the order file changed: drop the old link.
	$(if $(STATIC),@for f in .build/static/*/release/wristcore; do [ ! -e "$$f" ] || [ Scripts/wristcore.order -ot "$$f" ] || rm -f "$$f"; done)
	$(SWIFT) build -c release --product wristcore $(if $(STATIC),$(STATIC_FLAGS))
endif

# Every module the daemon (and the VM's simulated iPhone) links, compiled in
# Embedded mode: run by .ci/run so nothing host-only (Foundation, Glibc,
# swift-log, weak, key paths, untyped throws, non-class existentials) creeps back.
.PHONY: embedded-check float-abi-check
embedded-check: deps
	Scripts/build-embedded.sh --arch $(ARCH) --product modules

# The hard-float ABI proven on the target: Embedded Swift calling libm's
# float and double functions (Tests/Embedded/FloatABI), run under qemu-user.
float-abi-check:
	Scripts/build-embedded.sh --arch $(ARCH) --product float-abi-check >/dev/null
	Scripts/run-target.sh $(ARCH) .build-embedded/$(ARCH)/float-abi-check

# SCENARIO=android (or any name in Scenarios/, or a file): the phone that
# plays it and what it does; without it, the default iPhone scenario.
demo: deps
	$(SWIFT) run wristcore demo$(if $(SCENARIO), --scenario $(SCENARIO))

# The build must print no compiler warning: its output is shown as it comes
# and kept in .build/test-build.log; a "warning:" in it fails make test (after
# the build, before the tests). An incremental build only recompiles what
# changed, so only a clean one (rm -rf .build, as CI does) sees every file.
test: deps
	@mkdir -p .build
	@{ $(SWIFT) build --build-tests 2>&1; echo $$? >.build/test-build.rc; } | tee .build/test-build.log
	@[ "$$(cat .build/test-build.rc)" = 0 ] || exit 1
	@if grep -q "warning:" .build/test-build.log; then \
		echo "make test: the build printed $$(grep -c 'warning:' .build/test-build.log) line(s) with 'warning:' (above; all in .build/test-build.log): fix them, make test allows none"; \
		exit 1; fi
	python3 Scripts/check-layers.py
	$(SWIFT) test --skip-build
	python3 Tests/Docs/check_docs.py .build/debug/wristcore

bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

# Every Fuzz/*/ with a Fuzz.swift, in turn (Fuzz/run.sh finds them).
fuzz: deps
	Fuzz/run.sh all $(FUZZ_TIME)

# The README's screenshots: frames of the default demo scenario, rendered by
# the display emulator from the driver's own I2C bytes (the same frames the
# demo's golden tests check); ANDROID_SHOTS: docs/android.md's, from the
# Android scenario (DemoAndroidTests checks those).
SHOTS := 15:demo-important 50:demo-chinese 110:demo-incoming-call 199:demo-list 239:demo-now-playing
ANDROID_SHOTS := 15:android-notification 115:android-call 300:android-find 385:android-reply 440:android-weather
screenshots: deps
	rm -rf .build/screenshot-frames .build/screenshot-frames-android
	$(SWIFT) run wristcore demo --frames 300 --png .build/screenshot-frames --log-level warning
	$(SWIFT) run wristcore demo --scenario android --frames 441 --png .build/screenshot-frames-android --log-level warning
	@mkdir -p docs/screenshots
	@for s in $(SHOTS); do n=$${s%%:*}; name=$${s#*:}; \
		cp .build/screenshot-frames/frame-$$(printf %04d $$n).png docs/screenshots/$$name.png; \
		echo "docs/screenshots/$$name.png"; done
	@for s in $(ANDROID_SHOTS); do n=$${s%%:*}; name=$${s#*:}; \
		cp .build/screenshot-frames-android/frame-$$(printf %04d $$n).png docs/screenshots/$$name.png; \
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
.PHONY: vm-test vm-test-arm64
vm-test:
	.ci/vm-test

# The same real-kernel tests in a qemu-system-aarch64 VM with Debian's arm64
# kernel and userland, against the Embedded arm64 daemon (Tests/VM/arm64).
vm-test-arm64:
	Scripts/build-embedded.sh --arch arm64
	Scripts/build-embedded.sh --arch arm64 --product wristcore-vm-phone
	Tests/VM/arm64/run-arm64.sh $(CURDIR)/.build-embedded/arm64/wristcore $(CURDIR)/.build-embedded/arm64/wristcore-vm-phone

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
		{ $(SUDO) apt-get update -qq || echo "apt-get update reported errors; installing from what it has"; } && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# The package ships the Embedded daemon (EMBEDDED=0: the full-Swift release
# build, which a cross build takes from a Swift SDK). Its man page comes from
# --help of this machine's Embedded build (same sources, same text).
HOST_ARCH := $(shell dpkg --print-architecture)
deb: deb-deps
ifeq ($(EMBEDDED),1)
	Scripts/build-embedded.sh --arch $(ARCH)
	$(if $(filter $(HOST_ARCH),$(ARCH)),,Scripts/build-embedded.sh --arch $(HOST_ARCH))
	SWIFT="$(SWIFT)" ARCH="$(ARCH)" VERSION="$(VERSION)" WRISTCORE_BIN=.build-embedded/$(ARCH)/wristcore \
		HELP_BIN=.build-embedded/$(HOST_ARCH)/wristcore \
		$(if $(filter $(HOST_ARCH),$(ARCH)),,WRISTCORE_SYSROOT=$(CURDIR)/.build-embedded/sysroot-$(ARCH)) packaging/build-deb.sh
else
	SWIFT="$(SWIFT)" ARCH="$(ARCH)" VERSION="$(VERSION)" SWIFT_SDK="$(SWIFT_SDK)" packaging/build-deb.sh
endif

# Installs the amd64 package into a fresh Debian 12 root (debootstrap, cached in
# .build-deb/roots/) and checks it there; needs root.
package-test: deb-deps
	@command -v debootstrap >/dev/null || { $(SUDO) apt-get install -y -qq debootstrap; }
	$(SUDO) Tests/Package/install-test.sh
