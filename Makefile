# Prism: every command a contributor and CI need. `make help` lists them.
SWIFT ?= swift
# Packages under Packages/, in the order of Tools/Modules.toml (`make lint` checks both lists against it).
PACKAGES := PrismSupport PrismEffects PrismStore PrismPersistence PrismRouting PrismTesting PrismInspector PrismCache PrismHTTP PrismGraphQL PrismHTTPTesting PrismGraphQLCodegen
# The packages `make test-tsan` runs under ThreadSanitizer, each on its own: everything but the
# SwiftNIO-based ones (PrismInspector, PrismHTTP, PrismGraphQL), whose TSan build alone takes
# about ten minutes on two cores
# (`make test-tsan-all` runs the whole root package under TSan).
TSAN_PACKAGES := PrismSupport PrismEffects PrismStore PrismPersistence PrismRouting PrismTesting PrismCache
# Where each nested package builds when tested on its own: one folder shared by all of them,
# so that a package's dependencies are not rebuilt for every package.
PACKAGES_SCRATCH := $(CURDIR)/.build-packages
TSAN_SCRATCH := $(CURDIR)/.build-tsan
SOURCE_DIRS := Package.swift Packages Sources Tests Tools Apps Snippets
# Every test run happens inside a private D-Bus session with an unlocked gnome-keyring, so
# that the keychain tests talk to a real Secret Service (Tools/scripts/with-keyring.sh).
WITH_KEYRING := Tools/scripts/with-keyring.sh

# Prism's own targets build with warnings as errors under make (see the end of Package.swift).
export PRISM_WARNINGS_AS_ERRORS ?= 1

.DEFAULT_GOAL := help

.PHONY: help deps build manifests test test-packages test-stress test-stress-short test-tsan test-tsan-all test-consumer test-written test-browser inspector-screenshot fuzz fuzz-smoke test-leaks soak test-all lint format bench run docs api-check clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-14s %s\n", $$1, $$2}'

build: deps ## Build every module and the sample app (debug)
	$(SWIFT) build

deps: ## Install what the tests need: libsecret, gnome-keyring, dbus, shellcheck (apt); Chromium and selenium for the browser test
	Tools/scripts/install-system-deps.sh
	Tools/scripts/install-browser-deps.sh

test: deps ## Run every package's tests from one root build, in a few groups (Tools/scripts/test-in-groups.sh)
	$(SWIFT) build --build-tests
	$(WITH_KEYRING) Tools/scripts/test-in-groups.sh $(SWIFT)

test-written: deps ## Compile and run the test PrismInspector writes from the sample app's session (Tools/scripts/test-written.sh)
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
		$(WITH_KEYRING) $(SWIFT) test --package-path Packages/$$package --sanitize=thread --scratch-path $(TSAN_SCRATCH); \
	done

test-tsan-all: deps ## Run every root test under ThreadSanitizer (slow: builds SwiftNIO with TSan)
	$(WITH_KEYRING) $(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH)-all

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

fuzz-smoke: ## make fuzz for 20 seconds a target: what test-all runs
	FUZZ_SECONDS=20 SWIFT="$(SWIFT)" Tools/scripts/fuzz.sh

test-leaks: deps ## Run each package's tests alone under AddressSanitizer and LeakSanitizer; fails on a leak (Tools/scripts/test-leaks.sh)
	$(WITH_KEYRING) Tools/scripts/test-leaks.sh $(SWIFT) $(PACKAGES)

soak: deps ## Run the sample app's live features for SOAK_SECONDS (1800) at SOAK_RATE (50) actions/s with the inspector page open; fails if memory, descriptors or threads grow (Tools/scripts/soak.sh)
	$(WITH_KEYRING) env SWIFT="$(SWIFT)" Tools/scripts/soak.sh

# test-packages is not a phase of test-all: it builds SwiftNIO and AsyncHTTPClient a second time
# (about ten minutes on two cores) to run the tests `make test` already ran. What it would catch is
# checked without a build: every manifest is generated from one table (Tools/Modules.toml, checked
# by `make lint`), and `make test-tsan` builds and tests six nested packages alone.
test-all: deps ## Everything CI runs: lint, tests, a short stress run of the documented tests, TSan (six packages alone), 20 s of fuzzing per parser, a consumer by URL, the browser test, docs, API check (timed)
	Tools/scripts/timed.sh lint test test-written test-stress-short test-tsan fuzz-smoke test-consumer test-browser docs api-check

api-check: ## Compare the public API with the latest tag (or BASELINE=<ref>); fails on a breaking change
	Tools/scripts/api-check.sh $(BASELINE)

lint: deps ## Check formatting (swift format lint --strict), that every manifest is what Tools/Modules.toml generates and every import is declared, that every Swift block of the READMEs and articles is compiled code, that documentation examples name existing Prism types, that nothing needs a newer Apple platform than Package.swift's or a Linux-only module outside its #if, and the shell scripts (shellcheck)
	$(SWIFT) format lint --strict --recursive --parallel $(SOURCE_DIRS)
	Tools/scripts/generate-manifests.py --check
	Tools/scripts/check-imports.py
	Tools/scripts/check-doc-code.py
	Tools/scripts/check-doc-symbols.py
	Tools/scripts/check-availability.py
	Tools/scripts/check-portability.py
	shellcheck Tools/scripts/*.sh .ci/run

manifests: ## Write every Package.swift from Tools/Modules.toml, the one table of modules (edit the table, never a manifest)
	Tools/scripts/generate-manifests.py

format: ## Format the tree in place with the root .swift-format
	$(SWIFT) format format --in-place --recursive --parallel $(SOURCE_DIRS)

bench: ## Run the benchmarks (release build); pass ARGS="--filter NAME" or ARGS=--check
	@# Touch the benchmark sources: SwiftPM does not always recompile a client when only the
	@# @inlinable code of a dependency changed, and a stale build measures old code.
	@touch Tools/Benchmarks/Sources/PrismBenchmarks/*.swift
	$(SWIFT) run -c release PrismBenchmarks $(ARGS)

run: deps ## Build and run the sample app (prism-sample), inside the private keyring session
	$(WITH_KEYRING) $(SWIFT) run prism-sample $(ARGS)

docs: deps ## Build the DocC documentation of every module, its articles and snippets (and the test server) into .build/docs
	Tools/scripts/build-docs.sh Prism $(PACKAGES) PrismTestServer

clean: ## Remove every build folder
	rm -rf .build .build-packages .build-tsan .build-tsan-all .build-api .build-browser .build-fuzz .build-leaks .build-soak Tools/Benchmarks/.build Tools/PrismTestServer/.build
