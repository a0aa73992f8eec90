extension PrismTestServer {
    /// How many responses of the hostile body route at `path` (`/hostile/stall`, `/hostile/drip`,
    /// `/hostile/oversized/<bytes>`; the query is ignored) the client abandoned: it closed the
    /// connection before the body ended. A client that gives up on a body that stalls, drips or
    /// grows past its limit shows up here; one that reads on does not.
    public func abandonedResponses(_ path: String) -> Int {
        let path = RequestTarget(path).path
        return self.state.withValues { $0.abandonedResponses[path, default: 0] }
    }

    /// How many body bytes the hostile body route at `path` has handed to its connections (the
    /// query is ignored), in all its responses so far.
    public func bodyBytesSent(_ path: String) -> Int {
        let path = RequestTarget(path).path
        return self.state.withValues { $0.bodyBytesSent[path, default: 0] }
    }
}
