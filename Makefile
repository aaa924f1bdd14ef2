# Hearth: run `make help` for the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# mattn/go-sqlite3 needs the sqlite_fts5 tag for full-text search; the store
# refuses to compile without it (see store/buildtag_fts5.go). The codec
# libraries are optional: each one pkg-config finds is linked (lc3: liblc3,
# libavcodec: AAC, libavformat: uploads in MP3, M4A and other containers;
# these two are compiled against and loaded on first use, not linked,
# pocketsphinx: the English speech route that works out of the box,
# libopus: the Opus encoder of `hearth listen --codec opus`),
# and a build without one says what is unavailable.
# Recursive (=) so that it is evaluated per command, after `make deps` may
# have installed them.
CODEC_TAGS = $(shell pkg-config --exists lc3 2>/dev/null && printf ,lc3)$(shell pkg-config --exists libavcodec libavutil 2>/dev/null && printf ,libavcodec)$(shell pkg-config --exists libavformat libavcodec libavutil 2>/dev/null && printf ,libavformat)$(shell pkg-config --exists pocketsphinx sphinxbase 2>/dev/null && printf ,pocketsphinx)$(shell pkg-config --exists opus 2>/dev/null && printf ,libopus$(comma)nolibopusfile)
# whisper.cpp: a system libwhisper, WHISPER_CPP_DIR, or one scripts/whisper.sh
# builds from pinned source into the build cache (several minutes on 2 cores,
# once; HEARTH_BUILD_CACHE names a cache outside the clone, default .cache).
comma := ,
WHISPER_DIR = $(shell scripts/whisper-env.sh)
WHISPER_PREFIX = $(filter-out system,$(WHISPER_DIR))
export GOFLAGS = -tags=sqlite_fts5$(CODEC_TAGS)$(if $(WHISPER_DIR),$(comma)whisper)
# libav* is loaded at run time (appliance/audio/avload.c): only its headers'
# folder is needed at build time.
AV_CFLAGS = $(shell pkg-config --cflags-only-I libavformat libavcodec libavutil 2>/dev/null)
export CGO_CFLAGS = -g -O2$(if $(WHISPER_PREFIX), -I$(WHISPER_PREFIX)/include)$(if $(AV_CFLAGS), $(AV_CFLAGS))
export CGO_LDFLAGS = -g -O2$(if $(WHISPER_PREFIX), -L$(WHISPER_PREFIX)/lib)
# bin/hearth links whisper.cpp's C++ runtime statically (only the final link:
# Go's cache of the cgo packages is kept), so that each start does not load it.
EXTLDFLAGS = $(if $(WHISPER_PREFIX),$(shell scripts/static-cxx.sh))
export CGO_ENABLED := 1

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null)
BIN     := bin/hearth
DATA    ?= ./data
ADDR    ?= 0.0.0.0:8080
PKG     ?= ./...

##@ Run

.PHONY: run
run: deps build ## Serve ./data on 0.0.0.0:8080 (installs system packages first when needed)
	@echo "Hearth: serving $(DATA) on http://$(ADDR)  (Ctrl-C stops)"
	@echo "  create a user: $(BIN) users add --data $(DATA) --name 'Your Name'"
	@echo "  create a key:  $(BIN) keys create --data $(DATA) --user USER_ID --kind dev --scopes conversations:read,conversations:write"
	@$(BIN) serve --data $(DATA) --addr $(ADDR)

HEARTH_URL ?= http://127.0.0.1:8080
.PHONY: smoke
smoke: ## After make run (in another terminal): check it end to end in under a minute (HEARTH_URL, DATA to point elsewhere)
	@HEARTH_URL='$(HEARTH_URL)' HEARTH_DATA='$(DATA)' HEARTH_BIN='$(BIN)' scripts/smoke.sh

.PHONY: deps
deps: ## Install the system packages the build needs (as root), or print the command
	@scripts/deps.sh run

.PHONY: test-deps
test-deps: ## Install what the end-to-end tests also need (curl, Node.js), or print the command
	@scripts/deps.sh test

##@ Build

.PHONY: whisper
whisper: ## Build whisper.cpp into .cache/ when no libwhisper is installed (once; several minutes on 2 cores)
	@scripts/whisper-env.sh --build >/dev/null

.PHONY: build
build: whisper ## Build bin/hearth (says which optional features it lacks)
	@scripts/features.sh
	@echo "building $(BIN) (the first build compiles SQLite and sqlite-vec in C: several minutes on 2 cores; later ones seconds)"
	@echo "go build -trimpath -ldflags \"-s -w -X main.version=$(VERSION) -X main.commitDate=$(COMMIT_DATE)$(if $(EXTLDFLAGS), -extldflags '$(EXTLDFLAGS)')\" -o $(BIN) ./cmd/hearth"
	@scripts/go-build.sh -trimpath -ldflags "-s -w -X main.version=$(VERSION) -X main.commitDate=$(COMMIT_DATE)$(if $(EXTLDFLAGS), -extldflags '$(EXTLDFLAGS)')" -o $(BIN) ./cmd/hearth

.PHONY: release
release: ## Cross-compile dist/hearth-windows-amd64.exe and dist/hearth-linux-arm64 (and linux-amd64)
	scripts/deps.sh release
	scripts/release.sh

##@ Test

MCP_CLIENT := cmd/hearth/testdata/mcp-client
CONSOLE_E2E := cmd/hearth/testdata/console-e2e
MCP_REMOTE := cmd/hearth/testdata/mcp-remote
# The Node.js the end-to-end tools run on, first on PATH where npm and the
# tests run: the system's when it is new enough, else one scripts/node.sh
# fetched (Debian 12's is 18; playwright-core and the Inspector need 20).
WITH_NODE = PATH="$$($(CURDIR)/scripts/node.sh):$$PATH"
# That Node, and the Chromium the console's test drives (scripts/chromium.sh:
# the distribution's, or where it has none that runs, as on Ubuntu, one
# from the npm registry; HEARTH_CHROMIUM=npm forces that one).
WITH_BROWSER = PATH="$$($(CURDIR)/scripts/chromium.sh):$$($(CURDIR)/scripts/node.sh):$$PATH"

.PHONY: test
test: mcp-client mcp-remote console-e2e whisper onnxruntime ## Run every test (PKG=./store, RUN=TestName to narrow)
	$(WITH_BROWSER) HEARTH_REQUIRE_E2E_TOOLS=1 go test -count=1 -timeout 30m $(if $(RUN),-run '$(RUN)') $(PKG)

.PHONY: onnxruntime
onnxruntime: ## Fetch the onnxruntime library (ONNX speaker models) into .cache/ (once)
	@bash scripts/onnxruntime.sh >/dev/null

.PHONY: node
node: test-deps ## Fetch a Node.js 22 into .cache/ when the system's is older than 20 (once)
	@scripts/node.sh >/dev/null

.PHONY: mcp-client
mcp-client: test-deps node $(MCP_CLIENT)/node_modules/.package-lock.json

# The official TypeScript MCP client, pinned in package-lock.json.
$(MCP_CLIENT)/node_modules/.package-lock.json: $(MCP_CLIENT)/package-lock.json
	cd $(MCP_CLIENT) && $(WITH_NODE) npm ci --no-audit --no-fund --loglevel=error

.PHONY: mcp-remote
mcp-remote: test-deps node $(MCP_REMOTE)/node_modules/.package-lock.json

# mcp-remote (its OAuth flow with dynamic client registration), pinned in
# package-lock.json.
$(MCP_REMOTE)/node_modules/.package-lock.json: $(MCP_REMOTE)/package-lock.json
	cd $(MCP_REMOTE) && $(WITH_NODE) npm ci --no-audit --no-fund --loglevel=error

.PHONY: console-e2e
console-e2e: test-deps node chromium $(CONSOLE_E2E)/node_modules/.package-lock.json

.PHONY: chromium
chromium: test-deps node ## Find the Chromium the console test drives, or fetch one from npm where the system has none (once)
	@$(WITH_NODE) scripts/chromium.sh >/dev/null

# playwright-core drives the chromium scripts/chromium.sh finds; it
# downloads no browser.
$(CONSOLE_E2E)/node_modules/.package-lock.json: $(CONSOLE_E2E)/package-lock.json
	cd $(CONSOLE_E2E) && $(WITH_NODE) PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error

.PHONY: console-shots
console-shots: console-e2e ## Screenshot every console page, light and dark, into docs/console/
	$(WITH_BROWSER) HEARTH_REQUIRE_E2E_TOOLS=1 HEARTH_CONSOLE_SHOTS=$(CURDIR)/docs/console go test -count=1 -run TestConsoleInChromium ./cmd/hearth

.PHONY: test-release
test-release: release ## Build the release binaries and run them: the .exe under wine64, arm64 under qemu-user (a few minutes)
	@$(MAKE) --no-print-directory release-tests

# cmd/hearth's tests compiled (into Go's build cache), not run.
.PHONY: test-compile
test-compile:
	go test -c -o /dev/null ./cmd/hearth

# The release tests on the binaries already in dist/ (.ci/run builds them
# while other work runs).
.PHONY: release-tests
release-tests:
	HEARTH_REQUIRE_E2E_TOOLS=1 HEARTH_RELEASE_DIR=$(CURDIR)/dist go test -count=1 -run 'TestRelease' ./cmd/hearth

.PHONY: test-race
test-race: mcp-client mcp-remote console-e2e whisper onnxruntime ## Run the tests under the race detector, shuffled
	$(WITH_BROWSER) HEARTH_REQUIRE_E2E_TOOLS=1 go test -count=1 -race -shuffle=on $(PKG)

.PHONY: fuzz
fuzz: ## Fuzz the request parsers for FUZZTIME each (default 30s)
	go test ./appliance/api -run XXX -fuzz FuzzParseFromSegments -fuzztime $(or $(FUZZTIME),30s)
	go test ./appliance/api -run XXX -fuzz FuzzDecodeJSONObject -fuzztime $(or $(FUZZTIME),30s)
	go test ./appliance/audio -run XXX -fuzz FuzzDecode -fuzztime $(or $(FUZZTIME),30s)
	go test ./appliance/audio -run XXX -fuzz FuzzOpenFile -fuzztime $(or $(FUZZTIME),30s)
	go test ./appliance/listen -run XXX -fuzz FuzzClientMessage -fuzztime $(or $(FUZZTIME),30s)
	go test ./appliance -run XXX -fuzz FuzzLoopbackRedirect -fuzztime $(or $(FUZZTIME),30s)
	go test ./appliance/wyoming -run XXX -fuzz FuzzReadEvent -fuzztime $(or $(FUZZTIME),30s)

.PHONY: bench
bench: build ## Go benchmarks, the load driver against a real bin/hearth, then the scale scenario
	go test -run XXX -bench . -benchmem $(PKG)
	go run ./cmd/hearth-bench -hearth $(BIN) -duration $(or $(DURATION),10s) -concurrency $(or $(CONCURRENCY),16)
	$(MAKE) bench-scale

.PHONY: bench-scale
bench-scale: build ## Cost as the database grows: SIZES (1k,10k,100k) conversations and memories seeded, then creates, GET and search over HTTP
	go run ./cmd/hearth-bench -hearth $(BIN) -scale $(or $(SIZES),1k,10k,100k) -duration $(or $(DURATION),5s) -concurrency $(or $(CONCURRENCY),4)

.PHONY: bench-listen
bench-listen: build ## The /v4/listen socket load: SESSIONS (500) wearables streaming opus_fs320; MODE custom, scripted or speech (PocketSphinx); waits up to QUIET_WAIT (2m) for load average < 1
	go run ./cmd/hearth-bench -hearth $(BIN) -scenarios listen -duration $(or $(DURATION),30s) \
		-listen-sessions $(or $(SESSIONS),500) -listen-mode $(or $(MODE),custom) -quiet-wait $(or $(QUIET_WAIT),2m)

.PHONY: bench-startup
bench-startup: build ## Start to healthy and idle memory against an echo floor, interleaved: ROUNDS (15) of floor, empty data folder, restart
	go run ./cmd/hearth-bench -hearth $(BIN) -scenarios startup -startup-rounds $(or $(ROUNDS),15) -quiet-wait $(or $(QUIET_WAIT),2m)

.PHONY: bench-speech
bench-speech: whisper ## The speech routes against their CLIs (whisper-cli from the same source, pocketsphinx_continuous), cold and warm, interleaved; whisper with 2 threads and OpenMP pinned alike: COUNT (5) iterations
	OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 go test -run XXX -bench WhisperAgainstCLI -benchtime $(or $(COUNT),5)x -v ./localstt
	go test -run XXX -bench PocketSphinxAgainstCLI -benchtime $(or $(COUNT),5)x -v ./localstt/pocketsphinx

.PHONY: bench-words-lost
bench-words-lost: build ## Words lost when a live recording ends the hard way (close, 5 s stall, owner ends it, SIGTERM): SENTENCES (100) Festival sentences, PocketSphinx
	go run ./cmd/hearth-bench -hearth $(BIN) -scenarios words-lost -words-sentences $(or $(SENTENCES),100)

.PHONY: check
check: fmt-check vet staticcheck test ## What CI runs: formatting, vet, staticcheck, tests

# Pinned; go run fetches it from the Go proxy on first use. The build tags
# come from GOFLAGS above, so the cgo-only files are checked too.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: staticcheck
staticcheck: ## staticcheck over every package
	go run $(STATICCHECK) ./...

.PHONY: vet
vet: ## go vet
	go vet ./...

##@ Maintain

.PHONY: fmt
fmt: ## Format the code
	gofmt -w $$(git ls-files '*.go')

.PHONY: fmt-check
fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

.PHONY: tidy
tidy: ## go mod tidy
	go mod tidy

.PHONY: migration
migration: ## Create the next numbered migration: make migration NAME=add_things
	@test -n "$(NAME)" || { echo "usage: make migration NAME=what_it_does"; exit 2; }
	@n=$$(ls store/migrations/*.sql | sed -E 's|.*/([0-9]+)_.*|\1|' | sort -n | tail -1); \
	 f=$$(printf "store/migrations/%04d_%s.sql" $$((10#$$n + 1)) "$(NAME)"); \
	 echo "-- $$(basename $$f): describe the change" > $$f; echo "created $$f"

.PHONY: clean
clean: ## Remove build output
	rm -rf bin

.PHONY: help
help: ## Show this help (coloured on a terminal only)
	@if [ -t 1 ]; then c=$$'\033[36m' b=$$'\033[1m' r=$$'\033[0m'; else c= b= r=; fi; \
	awk -v c="$$c" -v b="$$b" -v r="$$r" 'BEGIN {FS = ":.*##"; printf "Usage: make %s<target>%s\n", c, r} \
	  /^[a-zA-Z_-]+:.*?##/ { printf "  %s%-12s%s %s\n", c, $$1, r, $$2 } \
	  /^##@/ { printf "\n%s%s%s\n", b, substr($$0, 5), r }' $(MAKEFILE_LIST)
