// What an Apple platform has but refuses to an ordinary app: a socket on watchOS (TN3135).

#if os(iOS) || os(watchOS)
import NIOTransportServices  // slip
#endif

#if os(iOS) || os(tvOS) || os(visionOS)
import NIOTransportServices
#endif

#if canImport(Darwin) && !os(watchOS)
func connect() {
    _ = NIOTSConnectionBootstrap.self
}
#endif

#if canImport(Darwin)
func open(_ session: URLSession, _ url: URL) {
    _ = session.webSocketTask(with: url)  // slip
}
#endif
