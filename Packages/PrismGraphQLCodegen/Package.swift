// swift-tools-version: 6.1
// Generated from Tools/Modules.toml by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`.
// PrismGraphQL's code generator: typed Swift from a schema and .graphql files, as a build tool plugin and a
// command plugin. GraphQLSwift parses and validates, in the generator only: nothing of it is linked into an
// app.
import PackageDescription

let package = Package(
    name: "PrismGraphQLCodegen",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .plugin(name: "PrismGraphQLCodegenPlugin", targets: ["PrismGraphQLCodegenPlugin"]),
        .plugin(name: "PrismGraphQLGenerate", targets: ["PrismGraphQLGenerate"]),
    ],
    dependencies: [
        .package(path: "../PrismHTTP"),
        .package(path: "../PrismGraphQL"),
        // Prism's local HTTP test server.
        .package(path: "../../Tools/PrismTestServer"),
        // What Prism's own tests share.
        .package(path: "../../Tools/PrismTestSupport"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        // GraphQL's parser, schema builder and validation: the test server's endpoint (POST /graphql), and
        // PrismGraphQL's code generator.
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
    ],
    targets: [
        .target(
            name: "PrismGraphQLCodegen",
            dependencies: [
                // The GraphQL parser, the schema builder and the specification's validation rules.
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "prism-graphql-codegen",
            dependencies: ["PrismGraphQLCodegen"]
        ),
        .plugin(
            name: "PrismGraphQLCodegenPlugin",
            capability: .buildTool(),
            dependencies: ["prism-graphql-codegen"]
        ),
        .plugin(
            name: "PrismGraphQLGenerate",
            capability: .command(
                intent: .custom(
                    verb: "generate-graphql",
                    description:
                        "Generate Swift from the schema and .graphql files of targets, into each target (for code that is committed)."
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the generated Swift and operations.json into each target.")
                ]),
            dependencies: ["prism-graphql-codegen"]
        ),
        .testTarget(
            name: "PrismGraphQLCodegenTests",
            dependencies: [
                "PrismGraphQLCodegen",
                // Runs the tool as a child process, without Foundation's Process, off the cooperative pool.
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
            ],
            exclude: ["Expected"]
        ),
        // Code the generator writes from a 1 MB schema and 21 operations (committed in GraphQLGenerated:
        // `make graphql-generate`), decoding what the test server's /graphql/mock executes.
        .testTarget(
            name: "PrismGraphQLLargeSchemaTests",
            dependencies: [
                .product(name: "PrismGraphQL", package: "PrismGraphQL"),
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismTestServer", package: "PrismTestServer"),
            ],
            exclude: [
                "schema.graphqls", "Catalog.graphql", "Customers.graphql", "Fragments.graphql", "Nodes.graphql",
                "Orders.graphql", "Search.graphql", "GraphQLGenerated/operations.json",
            ]
        ),
        // Code the generator writes from the .graphql files here (committed in GraphQLGenerated: `make
        // graphql-generate`), run against the test server.
        .testTarget(
            name: "PrismGraphQLGeneratedTests",
            dependencies: [
                .product(name: "PrismGraphQL", package: "PrismGraphQL"),
                .product(name: "PrismHTTP", package: "PrismHTTP"),
                .product(name: "PrismTestServer", package: "PrismTestServer"),
                .product(name: "PrismTestSupport", package: "PrismTestSupport"),
            ],
            exclude: [
                "schema.graphqls", "prism-graphql.json", "Counter.graphql", "Issues.graphql", "Names.graphql",
                "Shapes.graphql", "Tasks.graphql", "Uploads.graphql", "Users.graphql",
                "GraphQLGenerated/operations.json",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
