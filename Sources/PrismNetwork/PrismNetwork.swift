// The networking half of Prism in one import: the HTTP client, its transports, retry and
// uploads, and the response cache.
@_exported import PrismCache
@_exported import PrismHTTP
