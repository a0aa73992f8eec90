#!/usr/bin/env bash
# Proves that Prism can be used the way users add it: by URL and version. Clones the committed
# repository into a temporary folder, tags the clone with a version, and builds a throwaway
# consumer package that depends on it with `.package(url:from:)`:
#   - its manifest is README.md's "Adding Prism" block, pasted as a user would, and that block's
#     App target builds README.md's counter example;
#   - one target uses single products (PrismEffects, PrismStore, PrismRouting) and runs;
#   - one target uses the PrismArchitecture umbrella and runs;
#   - one target adds swift-case-paths' CasePaths and scopes child features with `@CasePathable`
#     case key paths (`action: \.detail`), and runs (it builds swift-syntax for the macro);
#   - one target builds the Scoping and Composing article's `@CasePathable` example, and runs;
#   - one target makes the common mistake (a case key path on an enum without `@CasePathable`)
#     and must fail to build with an error that names the missing conformance;
#   - one target uses the Prism umbrella (everything); the package graph that needs it is resolved
#     and checked in every run, and the target is built too when PRISM_CONSUMER_FULL=1 (it
#     compiles SwiftNIO and the rest of the networking half: several minutes on two cores);
#   - a third consumer (traits off too) uses PrismGraphQL's code generator as the Generating Types
#     article shows: the build tool plugin on the article's schema and operation, the command
#     plugin into a target that commits its code, and a misspelled field failing the build at its
#     .graphql file's line and column; the app links nothing of GraphQLSwift (which every
#     consumer fetches: SwiftPM resolves what a dependency's plugins need);
#   - a second consumer adds Prism with README.md's `traits: []` line and uses PrismStore: its checkouts are
#     listed, and the check fails when it holds a package that only the test server, the sample
#     app or the benchmarks use, or AsyncHTTPClient, SwiftNIO SSL, NIOTransportServices, swift-websocket or the
#     OpenAPI generator and its runtime, swift-metrics or swift-distributed-tracing (behind the OpenAPI and
#     Telemetry traits); its second target builds
#     PrismNetwork without the traits and checks the URLSession default and that a subscription
#     ends with subscriptionsUnavailable.
set -euo pipefail
# Build Prism as a user does: without the warnings-as-errors flag the Makefile sets for Prism's
# own builds (SwiftPM refuses unsafe flags in a dependency).
unset PRISM_WARNINGS_AS_ERRORS
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
version="99.0.0"

# Every build of a consumer: without debug information, which nothing here reads (a consumer
# passes when it resolves, compiles, prints what it should, or fails to compile as it should),
# and without an index store (swift-root.sh says why). On a fresh clone these builds took 460
# CPU-seconds with debug information and 374 without: the largest cost of make test-all after
# the root's own build. `-debug-info-format none` is what keeps SwiftPM's own `-g` off the C
# targets (-Xcc -g0 alone did not: SwiftPM put its -g after it).
# (`swift package`, which builds the command plugin's tool, gets the same flags, or it would
# build the tool and GraphQLSwift again.)
# Each program built is run from the build folder itself: `swift run --skip-build` loads and plans
# the package graph again first (seconds of CPU each, on a busy machine more).
# Both consumers build into one folder, one after the other: what they share (swift-collections,
# swift-dependencies and the rest of the architecture half's dependencies, the same command
# lines in both) is compiled once. Prism's own modules are compiled for each (the traits differ).
# The traits-off consumer goes first, so that the folder's checkouts are its own when listed.
build_folder="$work/build"
consumer_flags=(--scratch-path "$build_folder" --disable-index-store -debug-info-format none)
consumer_build() { swift build "$@" "${consumer_flags[@]}"; }
consumer_package() { swift package --scratch-path "$build_folder" "$@"; }
built="$build_folder/debug"

git clone --quiet "$root" "$work/prism"
git -C "$work/prism" tag --force "$version" >/dev/null

# A code block of the documentation that Snippets/ cannot compile, as a user pastes it, with this
# clone's URL and version in place of README.md's placeholders (doc-code-block.py finds the block
# by the name of its marker; check-doc-code.py checks that every marked block is built here).
doc_block() {
    "$root/Tools/scripts/doc-code-block.py" "$root/$1" "$2" |
        sed -e "s|https://github.com/<owner>/prism.git|file://$work/prism|" -e "s|from: \"0.1.0\"|from: \"$version\"|"
}

consumer="$work/consumer"
mkdir -p "$consumer/Sources/App" "$consumer/Sources/UsesModules" "$consumer/Sources/UsesArchitecture" \
    "$consumer/Sources/UsesEverything" "$consumer/Sources/UsesCasePathable" "$consumer/Sources/ForgetsCasePathable" \
    "$consumer/Sources/ScopingArticle"
# The manifest starts as README.md's "Adding Prism" block (its App target builds README.md's
# counter example); the other targets are added to it.
cat >"$consumer/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription

var package = Package(
    name: "Consumer",
    platforms: [.macOS(.v14)],
$(doc_block README.md manifest)
)
package.dependencies.append(.package(url: "https://github.com/pointfreeco/swift-case-paths.git", from: "1.10.0"))
package.targets += [
    .executableTarget(name: "UsesModules", dependencies: [
        .product(name: "PrismEffects", package: "prism"),
        .product(name: "PrismStore", package: "prism"),
        .product(name: "PrismRouting", package: "prism"),
    ]),
    .executableTarget(name: "UsesArchitecture", dependencies: [
        .product(name: "PrismArchitecture", package: "prism"),
    ]),
    .executableTarget(name: "UsesCasePathable", dependencies: [
        .product(name: "PrismStore", package: "prism"),
        .product(name: "CasePaths", package: "swift-case-paths"),
    ]),
    .executableTarget(name: "ScopingArticle", dependencies: [
        .product(name: "PrismStore", package: "prism"),
        .product(name: "CasePaths", package: "swift-case-paths"),
    ]),
    .executableTarget(name: "ForgetsCasePathable", dependencies: [
        .product(name: "PrismStore", package: "prism"),
    ]),
    .executableTarget(name: "UsesEverything", dependencies: [
        .product(name: "Prism", package: "prism"),
    ]),
]
package.swiftLanguageModes = [.v6]
MANIFEST
# README.md's counter example (the block that starts with `import PrismArchitecture`).
python3 - "$root/README.md" >"$consumer/Sources/App/Counter.swift" <<'PYTHON'
import re, sys
text = open(sys.argv[1]).read()
print(next(b for b in re.findall(r"```swift\n(.*?)```", text, re.S) if b.startswith("import PrismArchitecture")), end="")
PYTHON

cat >"$consumer/Sources/UsesModules/main.swift" <<'SWIFT'
import PrismEffects
import PrismRouting
import PrismStore

struct Counter: PrismReducer {
    func reduce(into state: inout Int, action: Int) -> PrismEffect<Int> {
        state += action
        return .none
    }
}

enum Route: PrismRoutable { case detail }

@MainActor func main() {
    let store = PrismStore(initialState: 0, reducer: Counter())
    store.send(2)
    store.send(3)
    let router = PrismRouter<Route>()
    router.push(.detail)
    print("modules: count \(store.state), path \(router.stack.count)")
}
MainActor.assumeIsolated { main() }
SWIFT

cat >"$consumer/Sources/UsesArchitecture/main.swift" <<'SWIFT'
import Foundation
import PrismArchitecture

struct Counter: PrismReducer {
    func reduce(into state: inout Int, action: Int) -> PrismEffect<Int> {
        state += action
        return .none
    }
}

MainActor.assumeIsolated {
    let store = PrismStore(initialState: 40, reducer: Counter())
    store.send(2)
    let disk = PrismDiskPersistence(directory: FileManager.default.temporaryDirectory)
    print("architecture: count \(store.state), disk strategy \(type(of: disk))")
}
SWIFT

cat >"$consumer/Sources/UsesCasePathable/main.swift" <<'SWIFT'
import CasePaths
import PrismStore

struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
}

@CasePathable
enum RowAction: Sendable { case increment }

struct RowFeature: PrismReducer {
    func reduce(into state: inout Row, action: RowAction) -> PrismEffect<RowAction> {
        state.count += 1
        return .none
    }
}

struct Detail: Equatable, Sendable { var text = "" }

@CasePathable
enum DetailAction: Sendable { case set(String) }

struct DetailFeature: PrismReducer {
    func reduce(into state: inout Detail, action: DetailAction) -> PrismEffect<DetailAction> {
        if case .set(let text) = action { state.text = text }
        return .none
    }
}

struct AppState: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    var detail: Detail? = Detail()
    var settings = Detail()
}

@CasePathable
enum AppAction: Sendable {
    case row(id: Int, action: RowAction)
    case detail(DetailAction)
    case settings(DetailAction)
}

struct AppFeature: PrismFeature {
    var body: some PrismReducer<AppState, AppAction> {
        PrismScope(state: \.settings, action: \.settings) { DetailFeature() }
        PrismReduce<AppState, AppAction> { _, _ in .none }
            .ifLet(\.detail, action: \.detail) { DetailFeature() }
            .forEach(\.rows, action: \.row) { RowFeature() }
    }
}

MainActor.assumeIsolated {
    let store = PrismStore(initialState: AppState(), reducer: AppFeature())
    store.send(.row(id: 2, action: .increment))
    store.send(.detail(.set("shown")))
    store.send(.settings(.set("dark")))
    let counts = store.state.rows.map { "\($0.count)" }.joined(separator: ",")
    print("case paths: rows \(counts), detail \(store.state.detail?.text ?? "-"), settings \(store.state.settings.text)")
}
SWIFT

# The Scoping and Composing article's @CasePathable block, and the types it names.
doc_block Packages/PrismStore/Sources/PrismStore/PrismStore.docc/ScopingAndComposing.md case-pathable \
    >"$consumer/Sources/ScopingArticle/Article.swift"
cat >"$consumer/Sources/ScopingArticle/main.swift" <<'SWIFT'
import CasePaths
import PrismStore

struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var done = false
}

enum RowAction: Sendable { case toggle }

struct RowFeature: PrismReducer {
    func reduce(into state: inout Row, action: RowAction) -> PrismEffect<RowAction> {
        state.done.toggle()
        return .none
    }
}

enum DetailAction: Sendable { case rename(String) }

struct DetailFeature: PrismReducer {
    func reduce(into state: inout String, action: DetailAction) -> PrismEffect<DetailAction> {
        if case .rename(let title) = action { state = title }
        return .none
    }
}

struct ListState: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    var detail: String? = ""
}

struct ListCoreReducer: PrismReducer {
    func reduce(into state: inout ListState, action: ListAction) -> PrismEffect<ListAction> { .none }
}

MainActor.assumeIsolated {
    let store = PrismStore(initialState: ListState(), reducer: ListFeature())
    store.send(.row(id: 2, action: .toggle))
    store.send(.detail(.rename("Groceries")))
    let done = store.state.rows.filter(\.done).map { "\($0.id)" }.joined(separator: ",")
    print("article: done \(done), detail \(store.state.detail ?? "-")")
}
SWIFT

cat >"$consumer/Sources/ForgetsCasePathable/main.swift" <<'SWIFT'
import PrismStore

struct Row: Equatable, Identifiable, Sendable { let id: Int }
enum RowAction: Sendable { case tap }
struct RowFeature: PrismReducer {
    func reduce(into state: inout Row, action: RowAction) -> PrismEffect<RowAction> { .none }
}
struct ListState: Equatable, Sendable { var rows: IdentifiedArrayOf<Row> = [] }
// No @CasePathable: `action: \.row` below cannot work.
enum ListAction: Sendable { case row(id: Int, action: RowAction) }

struct ListFeature: PrismFeature {
    var body: some PrismReducer<ListState, ListAction> {
        PrismReduce<ListState, ListAction> { _, _ in .none }
            .forEach(\.rows, action: \.row) { RowFeature() }
    }
}
SWIFT

cat >"$consumer/Sources/UsesEverything/main.swift" <<'SWIFT'
import Prism

struct Ping: PrismNetworkEndpoint {
    var host: String { "127.0.0.1" }
    var path: String { "/ping" }
}

print("everything: \(Ping().url)")
SWIFT

# The two consumers build one after the other into one folder (above): the traits-off one first.
# (The functions' bodies are not indented: they hold here-documents.)
check_readme_consumer() {
cd "$consumer"
echo "== resolving a consumer of prism $version (file://$work/prism)"
consumer_package resolve
# Loads the whole graph, the Prism umbrella's product included: a missing product fails here.
consumer_package describe >/dev/null

echo "== single products"
consumer_build --product UsesModules
output="$("$built/UsesModules")"
echo "$output"
[[ "$output" == "modules: count 5, path 1" ]] || { echo "unexpected output from UsesModules" >&2; exit 1; }

echo "== @CasePathable case key paths (builds swift-syntax for the macro)"
consumer_build --product UsesCasePathable
output="$("$built/UsesCasePathable")"
echo "$output"
[[ "$output" == "case paths: rows 0,1, detail shown, settings dark" ]] || {
    echo "unexpected output from UsesCasePathable" >&2
    exit 1
}

echo "== the Scoping and Composing article's @CasePathable example"
consumer_build --product ScopingArticle
output="$("$built/ScopingArticle")"
echo "$output"
[[ "$output" == "article: done 2, detail Groceries" ]] || { echo "unexpected output from ScopingArticle" >&2; exit 1; }

echo "== a case key path without @CasePathable: the error names the missing conformance"
if consumer_build --product ForgetsCasePathable >"$work/forgets.log" 2>&1; then
    echo "ForgetsCasePathable built, but it should not have" >&2
    exit 1
fi
grep -m1 "error:" "$work/forgets.log" || true
if ! grep -q "error: .*requires that 'ListAction' conform to 'CasePathable'" "$work/forgets.log" ||
    grep -q "non-Sendable function value" "$work/forgets.log"; then
    echo "the error for a missing @CasePathable does not name the conformance:" >&2
    grep "error:" "$work/forgets.log" >&2 || cat "$work/forgets.log" >&2
    exit 1
fi

echo "== the PrismArchitecture umbrella, and README.md's manifest and counter example"
consumer_build --target App
consumer_build --product UsesArchitecture
output="$("$built/UsesArchitecture")"
echo "$output"
[[ "$output" == "architecture: count 42, disk strategy PrismDiskPersistence" ]] || {
    echo "unexpected output from UsesArchitecture" >&2
    exit 1
}

if [[ "${PRISM_CONSUMER_FULL:-0}" == "1" ]]; then
    echo "== the Prism umbrella"
    consumer_build --product UsesEverything
    output="$("$built/UsesEverything")"
    echo "$output"
    [[ "$output" == "everything: https://127.0.0.1/ping" ]] || { echo "unexpected output from UsesEverything" >&2; exit 1; }
fi
}

check_traits_off_consumer() {
echo "== what a user fetches with Prism's traits off"
# A second consumer adds Prism with `traits: []`, as README.md shows. SwiftPM fetches the
# packages that Prism's library products need, never those that only Prism's own tools use (the
# test server, the sample app, the benchmarks: targets without a product of the root), and with
# the traits off none of AsyncHTTPClient, SwiftNIO SSL and swift-websocket. Its targets: one
# that uses PrismStore; one that checks that the networking half builds and works without the
# traits; and PrismGraphQL's code generator as the Generating Types article uses it (the build
# tool plugin on the article's target, schema and operation, with public types so that an
# executable beside it decodes a response through them; the command plugin writing committed
# code into a target that excludes its GraphQL files; and an operation with a misspelled field,
# which must fail the build at its line and column). One package, so that the networking half
# is built once for all of them.
traits_off="$work/traits-off"
codegen="$traits_off"
mkdir -p "$traits_off/Sources/StoreOnly" "$traits_off/Sources/NetworkWithoutTraits" "$codegen/Sources/App" \
    "$codegen/Sources/Typed" "$codegen/Sources/Committed" "$codegen/Sources/Invalid"
cat >"$traits_off/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TraitsOff",
    platforms: [.macOS(.v14)],
    dependencies: [
$(doc_block README.md traits-off)
    ],
    targets: [
        .executableTarget(name: "StoreOnly", dependencies: [.product(name: "PrismStore", package: "prism")]),
        .executableTarget(
            name: "NetworkWithoutTraits", dependencies: [.product(name: "PrismNetwork", package: "prism")]),
$(doc_block Packages/PrismGraphQL/Sources/PrismGraphQL/PrismGraphQL.docc/GeneratingTypes.md codegen-target)
        .executableTarget(name: "Typed", dependencies: ["App"]),
        .target(
            name: "Committed", dependencies: [.product(name: "PrismGraphQL", package: "prism")],
            exclude: ["schema.graphqls", "Committed.graphql", "GraphQLGenerated/operations.json"]),
        .target(
            name: "Invalid", dependencies: [.product(name: "PrismGraphQL", package: "prism")],
            plugins: [.plugin(name: "PrismGraphQLCodegenPlugin", package: "prism")]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
echo 'import PrismStore' >"$traits_off/Sources/StoreOnly/main.swift"
cat >"$traits_off/Sources/NetworkWithoutTraits/main.swift" <<'SWIFT'
import Foundation
import PrismNetwork

// Without the AsyncHTTPClient trait the default transport is URLSession's; without
// WebSocketSubscriptions a subscription ends at once with subscriptionsUnavailable.
let transport = String(describing: type(of: PrismNetworkAdapter.defaultTransport))
let client = PrismGraphQLClient(endpointURL: URL(string: "http://127.0.0.1:9/graphql")!)
struct Tick: Decodable, Sendable { var tick: Int }
var outcome = "no error"
do {
    for try await _ in client.subscribe(PrismGraphQLSubscription(query: "subscription { tick }"), as: Tick.self) {}
} catch let error as PrismGraphQLError {
    outcome = error.code.description
}
print("without traits: \(transport), subscription \(outcome)")
SWIFT
# The code generator's targets: the Generating Types article's schema, operation and Swift.
doc_block Packages/PrismGraphQL/Sources/PrismGraphQL/PrismGraphQL.docc/GeneratingTypes.md codegen-schema >"$codegen/Sources/App/schema.graphqls"
doc_block Packages/PrismGraphQL/Sources/PrismGraphQL/PrismGraphQL.docc/GeneratingTypes.md codegen-operation >"$codegen/Sources/App/GetUser.graphql"
doc_block Packages/PrismGraphQL/Sources/PrismGraphQL/PrismGraphQL.docc/GeneratingTypes.md codegen-use >"$codegen/Sources/App/Greeting.swift"
echo '{ "scalars": { "URL": "Foundation.URL" }, "accessLevel": "public" }' >"$codegen/Sources/App/prism-graphql.json"
cat >"$codegen/Sources/App/Check.swift" <<'SWIFT'
import Foundation
import PrismGraphQL

/// Decodes a response through the generated types and encodes the variables.
public func check() throws -> String {
    let json = #"{"user":{"__typename":"User","id":"7","login":"octocat","name":null,"status":"SUSPENDED","avatar":"https://example.com/a.png"}}"#
    let response = try JSONDecoder().decode(GetUserQuery.Data.self, from: Data(json.utf8))
    guard let user = response.user else { return "no user" }
    let variables = try JSONEncoder().encode(GetUserQuery(login: "octocat").variables)
    let later = try JSONDecoder().decode(GraphQLSchema.Status.self, from: Data(#""BANNED""#.utf8))
    let sent = GetUserQuery.document.contains("user(login: $login) { __typename id\n")
    return "\(GetUserQuery.operationName) \(user.id) \(user.login) \(user.status) \(user.avatar?.host ?? "-") "
        + "\(later) \(String(decoding: variables, as: UTF8.self)) typename and id added: \(sent)"
}
SWIFT
echo 'import App
print(try check())' >"$codegen/Sources/Typed/main.swift"
doc_block Packages/PrismGraphQL/Sources/PrismGraphQL/PrismGraphQL.docc/GeneratingTypes.md codegen-schema >"$codegen/Sources/Committed/schema.graphqls"
printf 'query Committed {\n  user(login: "octocat") {\n    login\n    status\n  }\n}\n' >"$codegen/Sources/Committed/Committed.graphql"
echo 'func committedStatus(_ data: CommittedQuery.Data) -> GraphQLSchema.Status? { data.user?.status }' \
    >"$codegen/Sources/Committed/Use.swift"
# A project that commits its generated code has the manifest from an earlier run (excluded above).
mkdir -p "$codegen/Sources/Committed/GraphQLGenerated"
echo '{}' >"$codegen/Sources/Committed/GraphQLGenerated/operations.json"
# The invalid target's schema is named schema.graphql, as GitHub's is published: the plugin reads
# it as the schema by what it holds (read as operations, the build would fail on it instead of
# at Bad.graphql:3:5).
doc_block Packages/PrismGraphQL/Sources/PrismGraphQL/PrismGraphQL.docc/GeneratingTypes.md codegen-schema >"$codegen/Sources/Invalid/schema.graphql"
echo 'func badUser() -> BadQuery { BadQuery() }' >"$codegen/Sources/Invalid/Use.swift"
printf 'query Bad {\n  user(login: "octocat") {\n    nme\n  }\n}\n' >"$codegen/Sources/Invalid/Bad.graphql"

(cd "$traits_off" && consumer_package resolve >/dev/null)
ls "$build_folder/checkouts" >"$work/checkouts.txt"
echo "$(wc -l <"$work/checkouts.txt") packages in .build/checkouts: $(tr '\n' ' ' <"$work/checkouts.txt")"
(cd "$work/prism" && swift package dump-package) >"$work/prism.json"
(cd "$traits_off" && consumer_package show-dependencies --format json) >"$work/dependencies.json"
echo "used only by Prism's tools, never to be fetched by users:" \
    "$(python3 "$root/Tools/scripts/tools-only-packages.py" "$work/prism.json" | tr '\n' ' ')"
for package in async-http-client swift-nio-ssl swift-nio-transport-services swift-websocket swift-crypto \
    swift-openapi-runtime swift-openapi-generator OpenAPIKit Yams swift-metrics swift-distributed-tracing; do
    if grep -qx "$package" "$work/checkouts.txt"; then
        echo "a consumer with Prism's traits off fetched $package" >&2
        exit 1
    fi
done
if ! leaked="$(python3 "$root/Tools/scripts/tools-only-packages.py" "$work/prism.json" "$work/dependencies.json" "$work/checkouts.txt")"; then
    echo "a user with Prism's traits off fetched what only the test server or the sample app needs: $(tr '\n' ' ' <<<"$leaked")" >&2
    exit 1
fi

echo "== the networking half without the traits"
(cd "$traits_off" && consumer_build --product NetworkWithoutTraits)
output="$("$built/NetworkWithoutTraits")"
echo "$output"
[[ "$output" == "without traits: PrismURLSessionTransport, subscription subscriptionsUnavailable" ]] || {
    echo "unexpected output from NetworkWithoutTraits" >&2
    exit 1
}

echo "== GraphQL types generated by the plugins (the Generating Types article)"
echo "-- the build tool plugin"
(cd "$codegen" && consumer_build --product Typed)
output="$("$built/Typed")"
echo "$output"
expected='GetUser 7 octocat suspended example.com unknown("BANNED") {"login":"octocat"} typename and id added: true'
[[ "$output" == "$expected" ]] || { echo "unexpected output from Typed" >&2; exit 1; }
# Nothing of the generator is linked into the app: no GraphQLSwift symbol in the executable.
if nm "$built/Typed" 2>/dev/null | grep -qF "\$s7GraphQL"; then
    echo "the app links GraphQLSwift, which only the generator may use" >&2
    exit 1
fi
echo "-- the command plugin"
(cd "$codegen" && swift package "${consumer_flags[@]}" --allow-writing-to-package-directory generate-graphql --target Committed)
for file in Committed.graphql.swift GraphQLSchemaTypes.swift operations.json; do
    [[ -f "$codegen/Sources/Committed/GraphQLGenerated/$file" ]] || {
        echo "generate-graphql did not write GraphQLGenerated/$file" >&2
        exit 1
    }
done
grep -q '"name": "Committed"' "$codegen/Sources/Committed/GraphQLGenerated/operations.json"
(cd "$codegen" && consumer_build --target Committed 2>&1 | tee "$work/committed.log")
if grep -q "unhandled" "$work/committed.log"; then
    echo "the committed target's GraphQL files were not excluded" >&2
    exit 1
fi
echo "-- an invalid operation fails the build at its line and column"
if (cd "$codegen" && consumer_build --target Invalid >"$work/invalid.log" 2>&1); then
    echo "Invalid built, but its operation queries a field the schema does not have" >&2
    exit 1
fi
if ! grep -q 'Bad.graphql:3:5: error: Cannot query field "nme" on type "User". Did you mean "name"?' "$work/invalid.log"; then
    echo "the build failed without the validation error at Bad.graphql:3:5:" >&2
    cat "$work/invalid.log" >&2
    exit 1
fi
grep -m1 "Bad.graphql:3:5" "$work/invalid.log"
if grep -q "holds type definitions" "$work/invalid.log"; then
    echo "the plugin read the invalid target's schema.graphql as operations" >&2
    exit 1
fi

}

# Called plainly, not in a condition, so that `set -e` stops at the first failing command.
(check_traits_off_consumer)
(check_readme_consumer)
echo "== a consumer package resolved prism by URL and version and used its products"
