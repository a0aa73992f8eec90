# Prism: every command a contributor and CI need. `make help` lists them.
SWIFT ?= swift
# Packages under Packages/, in the order of Tools/Modules.toml (`make lint` checks both lists against it).
PACKAGES := PrismSupport PrismEffects PrismStore PrismPersistence PrismRouting PrismTesting PrismInspector PrismCache PrismHTTP PrismWebSocket PrismGraphQL PrismHTTPTesting PrismTelemetry PrismOpenAPI PrismGraphQLCodegen
# The packages `make test-tsan` runs under ThreadSanitizer, each on its own: everything but the
# SwiftNIO-based ones (PrismInspector, PrismHTTP, PrismGraphQL), whose TSan build alone takes
# about ten minutes on two cores
# (`make test-tsan-all` runs the whole root package under TSan).
TSAN_PACKAGES := PrismSupport PrismEffects PrismStore PrismPersistence PrismRouting PrismTesting PrismCache
# Where each nested package builds when tested on its own: one folder shared by all of them,
# so that a package's dependencies are not rebuilt for every package.
PACKAGES_SCRATCH := $(CURDIR)/.build-packages
TSAN_SCRATCH := $(CURDIR)/.build-tsan
# The sanitizer builds (TSan here, the fuzzer's through Tools/scripts/swift-root.sh) carry line
# tables only, not full debug information: a report still names the file and line of every
# frame, and the build takes about a fifth less CPU (PrismStore's TSan build: 119 s of user time
# with full debug information, 98 s with line tables). The root's builds too, unless
# PRISM_DEBUG_INFO=full (swift-root.sh).
SANITIZER_DEBUG_INFO := -Xswiftc -gline-tables-only -Xcc -gline-tables-only
SOURCE_DIRS := Package.swift Packages Sources Tests Tools Apps Snippets
# The Swift files swift-format checks and formats: all but generated code, which is committed as
# its generator writes it (GraphQLGenerated: make graphql-generate; OpenAPIGenerated: make
# openapi-generate) and checked against the generator instead.
FORMATTED_SWIFT = $(shell find $(SOURCE_DIRS) -name '*.swift' -not -path '*/.*' -not -path '*/GraphQLGenerated/*' -not -path '*/OpenAPIGenerated/*')
# Every test run happens inside a private D-Bus session with an unlocked gnome-keyring, so
# that the keychain tests talk to a real Secret Service (Tools/scripts/with-keyring.sh).
WITH_KEYRING := Tools/scripts/with-keyring.sh

# Prism's own targets build with warnings as errors under make (see the end of Package.swift).
export PRISM_WARNINGS_AS_ERRORS ?= 1
# Line tables (lines) or full debug information (full) in every root build: Tools/scripts/swift-root.sh.
export PRISM_DEBUG_INFO ?= lines
# SwiftPM writes the -D flags of a package's enabled traits in the order a Set iterates, which
# Swift's per-process random hashing seed changes from one run to the next. A command line that
# changed recompiles its target and everything above it: every `swift build`, `swift test` or
# `swift package` after another recompiled all of Prism's targets (two traits) and swift-dependencies'
# (two), minutes each time. A fixed seed gives SwiftPM the same order every run, and an
# incremental build that compiles only what changed. The scripts give test processes the random
# seed back (`env -u SWIFT_DETERMINISTIC_HASHING`), so that no test comes to rely on one order.
export SWIFT_DETERMINISTIC_HASHING := 1

.DEFAULT_GOAL := help

.PHONY: help deps build build-tests build-tsan build-fuzz check manifests test test-under-load slowest-tests test-packages test-stress test-stress-short test-tsan test-tsan-all test-consumer test-written test-browser inspector-screenshot fuzz fuzz-smoke test-leaks soak test-all lint availability-check typecheck-swiftui format bench run docs api-check api-baseline graphql-generate openapi-generate clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-14s %s\n", $$1, $$2}'

# Every build of the root goes through Tools/scripts/swift-root.sh: one environment, the same
# traits and the same debug information for all of them, so that no build compiles again what
# the one before it built.
SWIFT_ROOT := Tools/scripts/swift-root.sh $(SWIFT)

build: deps ## Build every module and the sample app (debug)
	$(SWIFT_ROOT) build

deps: ## Install what the tests need: libsecret, gnome-keyring, dbus, shellcheck (apt); Chromium and selenium for the browser test; Python's websockets for PrismWebSocket's tests
	Tools/scripts/install-system-deps.sh
	Tools/scripts/install-browser-deps.sh
	Tools/scripts/install-python-deps.sh

build-tests: deps ## Build every module, test, tool and the sample app (debug): what the test phases run
	$(SWIFT_ROOT) build --build-tests

test: build-tests ## Run every package's tests from one root build, in a few groups; list the slowest (Tools/scripts/test-in-groups.sh)
	$(WITH_KEYRING) Tools/scripts/test-in-groups.sh $(SWIFT)

test-under-load: build-tests ## Run the tests of make test LOAD_RUNS times (10) beside four busy loops and a compiler; fails on any failure (Tools/scripts/test-under-load.sh)
	$(WITH_KEYRING) env PRISM_LOAD_RUNS=$(or $(LOAD_RUNS),10) Tools/scripts/test-under-load.sh $(SWIFT)

slowest-tests: build-tests ## Run the tests one at a time and list the 20 slowest; fails if one but a soak or stress test takes over 20 s
	$(WITH_KEYRING) env PRISM_TEST_SERIAL=1 PRISM_TEST_LOGS=.build/test-logs/serial Tools/scripts/test-in-groups.sh $(SWIFT)

check: deps ## The inner loop: build, lint what changed since main, run the tests of the packages that changed (Tools/scripts/check.sh)
	Tools/scripts/check.sh $(SWIFT)

test-written: build-tests ## Compile and run the test PrismInspector writes from the sample app's session (Tools/scripts/test-written.sh)
	$(WITH_KEYRING) Tools/scripts/test-written.sh $(SWIFT)

test-packages: deps ## Build and test each package under Packages/ on its own
	@set -e; for package in $(PACKAGES); do \
		echo "== $$package"; \
		$(SWIFT) build --package-path Packages/$$package --scratch-path $(PACKAGES_SCRATCH) --build-tests; \
		$(WITH_KEYRING) $(SWIFT) test --package-path Packages/$$package --scratch-path $(PACKAGES_SCRATCH) --skip-build; \
	done

test-tsan: deps ## Run the architecture packages and PrismCache under ThreadSanitizer
	@set -e; for package in $(TSAN_PACKAGES); do \
		echo "== TSan $$package"; \
		$(WITH_KEYRING) $(SWIFT) test --package-path Packages/$$package --sanitize=thread --scratch-path $(TSAN_SCRATCH) $(SANITIZER_DEBUG_INFO); \
	done

build-tsan: ## Build what make test-tsan runs, without running it (test-all starts it early, in the background)
	@set -e; for package in $(TSAN_PACKAGES); do \
		echo "== TSan build $$package"; \
		$(SWIFT) build --package-path Packages/$$package --sanitize=thread --scratch-path $(TSAN_SCRATCH) --build-tests $(SANITIZER_DEBUG_INFO); \
	done

test-tsan-all: deps ## Run every root test under ThreadSanitizer (slow: builds SwiftNIO with TSan)
	$(WITH_KEYRING) $(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH)-all $(SANITIZER_DEBUG_INFO)

test-stress: deps ## Run the documentation's tests (Getting started, the testing article, README) 300 times beside busy loops on every core (PRISM_STRESS_REPETITIONS=N)
	SWIFT="$(SWIFT)" Tools/scripts/test-stress.sh

test-stress-short: deps ## The short stress run test-all does right after make test: 40 repetitions, on the tests make test built
	PRISM_STRESS_REPETITIONS=40 PRISM_STRESS_SKIP_BUILD=1 SWIFT="$(SWIFT)" Tools/scripts/test-stress.sh

test-consumer: deps ## Build throwaway packages that depend on a tagged clone by URL and version; check what a traits-off PrismStore user fetches
	Tools/scripts/test-consumer.sh

test-browser: deps ## Drive PrismInspector's page in headless Chromium (selenium) against a running app
	Tools/scripts/test-inspector-browser.sh

inspector-screenshot: deps ## Run the browser test and save its screenshot where PrismInspector's README shows it
	PRISM_INSPECTOR_SCREENSHOT=Packages/PrismInspector/Documentation/inspector.png Tools/scripts/test-inspector-browser.sh

fuzz: ## Fuzz every parser of strangers' bytes with libFuzzer and ASan, FUZZ_SECONDS each (default 600); FUZZ_TARGETS="a b" for some (Tools/scripts/fuzz.sh)
	SWIFT="$(SWIFT)" Tools/scripts/fuzz.sh

build-fuzz: ## Build prism-fuzz with libFuzzer and AddressSanitizer, without fuzzing (test-all starts it early, in the background)
	FUZZ_BUILD_ONLY=1 SWIFT="$(SWIFT)" Tools/scripts/fuzz.sh

# fuzz-smoke runs last in test-all, after everything else has ended: 5 s a target (17 targets, two
# at a time) runs every seed and some 10,000 to 40,000 mutations of each, and ends about 45 s
# sooner than 10 s did. make fuzz is the search; this is the check that every target still runs.
fuzz-smoke: ## make fuzz for 5 seconds a target, one target per core at a time: what test-all runs
	FUZZ_SECONDS=5 SWIFT="$(SWIFT)" Tools/scripts/fuzz.sh

test-leaks: deps ## Run each package's tests alone under AddressSanitizer and LeakSanitizer; fails on a leak (Tools/scripts/test-leaks.sh)
	$(WITH_KEYRING) Tools/scripts/test-leaks.sh $(SWIFT) $(PACKAGES)

soak: deps ## Run the sample app's live features for SOAK_SECONDS (1800) at SOAK_RATE (50) actions/s with the inspector page open; fails if memory, descriptors or threads grow (Tools/scripts/soak.sh)
	$(WITH_KEYRING) env SWIFT="$(SWIFT)" Tools/scripts/soak.sh

# test-packages is not a phase of test-all: it builds SwiftNIO and AsyncHTTPClient a second time
# (about ten minutes on two cores) to run the tests `make test` already ran. What it would catch is
# checked without a build: every manifest is generated from one table (Tools/Modules.toml, checked
# by `make lint`), and `make test-tsan` builds and tests seven nested packages alone.
#
# test-all's phases, each with its budget in seconds: what it took on a fresh clone on two idle
# cores (CONTRIBUTING.md, "What each target costs"), rounded up. The phases that use the root's
# build come first. test-written adds a file to a test target and removes it: after it only
# api-check and docs, which build no test target. Every build of the root after build-tests
# (test's, the browser test's, the docs') finds nothing to do, and the written test's compiles
# only the file it adds, because each runs in the same environment (Tools/scripts/swift-root.sh).
#
# From the start (after lint), the ThreadSanitizer and fuzzer builds, which have folders of
# their own, and the consumers (throwaway packages with builds of their own) run in the
# background (`PHASE@bg`, Tools/scripts/timed.sh), niced to 19; a failed phase stops them, and
# `wait:PHASE` waits for one before the phase that runs what it built. Measured on fresh
# clones, nice 19 did not hold them to build-tests' idle cycles: the three took about half the
# cores and ended by the end of build-tests (1,034-1,092 s, where it takes 571 s alone), so
# build-tests' budget counts them. The run is CPU-bound throughout (95-98 % busy): what the
# order saves is the idle of single phases (swift-syntax, which the @CasePathable consumer
# builds, is a chain of modules compiled one after another, and left a core idle alone). After
# build-tests the TSan tests run in the background beside make test, and the fuzzing beside the
# browser test, the written test and the docs: alone, those left the cores 12 to 60 % idle.
# fuzz-smoke fuzzes what build-fuzz built (FUZZ_BUILT=1, Tools/scripts/fuzz.sh): a build of
# prism-fuzz takes 25 s with nothing to do.
TEST_ALL_PHASES := lint=30 build-tsan@bg build-fuzz@bg test-consumer@bg build-tests=1100 availability-check=15 typecheck-swiftui=15 \
	wait:build-tsan=60 test-tsan@bg test=150 test-stress-short=15 wait:build-fuzz=60 fuzz-smoke@bg \
	test-browser=90 test-written=60 api-check=15 docs=60 wait:test-tsan=60 wait:fuzz-smoke=90 \
	wait:test-consumer=60
test-all: deps ## Everything CI runs, each phase timed against its budget: lint, build, the availability check, tests, a short stress run of the documented tests, the browser test, docs, API check, the written test, TSan (seven packages alone), 5 s of fuzzing per parser, consumers by URL
	FUZZ_BUILT=1 TIMED_TOTAL_BUDGET=1200 Tools/scripts/timed.sh $(TEST_ALL_PHASES)

api-check: ## Compare the public API with the last release's (Tools/API); fails on a breaking change CHANGELOG.md does not name
	Tools/scripts/api-check.sh

api-baseline: ## A release step: write the current public API to Tools/API as the next checks' baseline
	Tools/scripts/api-check.sh --update

lint: deps ## Check formatting (swift format lint --strict), that every manifest is what Tools/Modules.toml generates and every import is declared, that every Swift block of the READMEs and articles is compiled code, that documentation examples name existing Prism types, that no Linux-only module, call or path is outside its #if, that the availability and portability checks catch every slip of Tools/AvailabilityChecks, that tests start children with ChildProcess, that the committed OpenAPI client is what its generator made of the files there (Tools/scripts/check-generated.py), and the shell scripts (shellcheck)
	@echo "swift format lint --strict: $(words $(FORMATTED_SWIFT)) files of $(SOURCE_DIRS)"
	@$(SWIFT) format lint --strict --parallel $(FORMATTED_SWIFT)
	Tools/scripts/check-generated.py
	Tools/scripts/generate-manifests.py --check
	Tools/scripts/check-imports.py
	Tools/scripts/check-doc-code.py
	Tools/scripts/check-doc-symbols.py
	Tools/scripts/check-portability.py
	Tools/scripts/check-portability.py --test Tools/AvailabilityChecks/portability
	@# A test starts children with PrismTestSupport's ChildProcess, never Foundation's Process
	@# (its run() crashes now and then on Linux; see ChildProcess.swift), and waits for them off
	@# the cooperative pool, which the test servers' handlers need.
	@if grep -rnE '(^|[^A-Za-z])Process\(\)' --include='*.swift' Packages/*/Tests Tests Tools/*/Tests Apps/*/Tests; then \
		echo "lint: a test starts a child with Foundation's Process: use ChildProcess (PrismTestSupport) and offTheCooperativePool"; \
		exit 1; \
	fi
	Tools/scripts/check-availability.py --test Tools/AvailabilityChecks/availability
	shellcheck Tools/scripts/*.sh .ci/run

# The availability check reads what the compiler resolved each name to in the build's index
# store, so it runs after a build (test-all: right after build-tests); make lint checks the
# check itself against the slips of Tools/AvailabilityChecks.
availability-check: ## After make build-tests: fail on a use of a declaration newer than Package.swift's Apple platforms (or unavailable on one) outside an #available, @available or #if that covers every platform it needs, through the build's index store (Tools/scripts/check-availability.py)
	Tools/scripts/check-availability.py --build-dir .build/debug

typecheck-swiftui: ## After make build-tests: type-check the SwiftUI code Linux never compiles (PrismStore's glue, the notes app) against the stand-ins of Tools/AppleInterfaces, as iOS and as macOS see it
	Tools/scripts/typecheck-swiftui.sh

# The repository's own targets commit the code generators make rather than apply the generators'
# build plugins: a build plugin's tool (GraphQLSwift and the generator; OpenAPIKit, Yams and
# swift-openapi-generator) was built, for the host, before anything else of every fresh clone's
# build, and the GraphQL one linked again and regenerated after every change of environment.
# Apps use the plugins as the documentation says; make test-consumer builds one that does.
graphql-generate: deps ## Write the GraphQL types of the root's targets with .graphql files into each one's GraphQLGenerated (the command plugin, swift package generate-graphql); PrismGraphQLCodegenTests fails while they are stale
	$(SWIFT_ROOT) package --allow-writing-to-package-directory generate-graphql \
		--target PrismGraphQLGeneratedTests --target PrismGraphQLLargeSchemaTests --target prism-sample

openapi-generate: ## Write PrismOpenAPITests' client (swift-openapi-generator, built under .build-openapi) into its OpenAPIGenerated; make lint fails while it is stale
	Tools/scripts/generate-openapi.sh

manifests: ## Write every Package.swift from Tools/Modules.toml, the one table of modules (edit the table, never a manifest)
	Tools/scripts/generate-manifests.py

format: ## Format the tree in place with the root .swift-format
	@echo "swift format format --in-place: $(words $(FORMATTED_SWIFT)) files of $(SOURCE_DIRS)"
	@$(SWIFT) format format --in-place --parallel $(FORMATTED_SWIFT)

bench: ## Run the benchmarks (release build); pass ARGS="--filter NAME" or ARGS=--check
	@# Touch the benchmark sources: SwiftPM does not always recompile a client when only the
	@# @inlinable code of a dependency changed, and a stale build measures old code.
	@touch Tools/Benchmarks/Sources/PrismBenchmarks/*.swift
	$(SWIFT) run -c release --traits default,Telemetry,OpenAPI PrismBenchmarks $(ARGS)

run: deps ## Build and run the sample app (prism-sample), inside the private keyring session
	$(SWIFT_ROOT) build --product prism-sample
	$(WITH_KEYRING) $(SWIFT) run --skip-build prism-sample $(ARGS)

docs: deps ## Build the DocC documentation of every module, its articles and snippets (and the test server) into .build/docs
	Tools/scripts/build-docs.sh Prism $(PACKAGES) PrismTestServer

clean: ## Remove every build folder
	rm -rf .build .build-packages .build-tsan .build-tsan-all .build-api .build-browser .build-python .build-fuzz .build-leaks .build-soak Tools/Benchmarks/.build Tools/PrismTestServer/.build
