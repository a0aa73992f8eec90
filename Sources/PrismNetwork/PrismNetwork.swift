// The networking half of Prism in one import: the HTTP client, its transports, retry and
// uploads, the response cache, and GraphQL over HTTP.
@_exported import PrismCache
@_exported import PrismGraphQL
@_exported import PrismHTTP
