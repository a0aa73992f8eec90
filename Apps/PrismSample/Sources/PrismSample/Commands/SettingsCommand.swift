import ArgumentParser

extension Theme: ExpressibleByArgument {}
extension SortOrder: ExpressibleByArgument {}

/// `prism-sample settings --sort title`: shows the settings, changing them first if asked.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the settings (theme, sort order, who is signed in); change the theme or the sort order."
    )

    @OptionGroup var options: SessionOptions

    @Option(help: "Draw tasks \(Theme.allCases.map(\.rawValue).joined(separator: " or ")).")
    var theme: Theme?

    @Option(help: "List tasks by \(SortOrder.allCases.map(\.rawValue).joined(separator: ", ")).")
    var sort: SortOrder?

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            if let theme { session.settings.send(.setTheme(theme)) }
            if let sort { session.settings.send(.setSortOrder(sort)) }
            Console.lines(Render.settings(of: session))
        }
    }
}

/// `prism-sample signin Ada`: signs in (the name is kept in `user.json`).
struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signin", abstract: "Sign in.")

    @OptionGroup var options: SessionOptions

    @Argument(help: "Your name (the words are joined).")
    var name: [String]

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            try session.signIn(name.joined(separator: " "))
            Console.line("Signed in as \(session.settings.state.user?.name ?? "nobody").")
        }
    }
}

/// `prism-sample signout`: signs out.
struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signout", abstract: "Sign out.")

    @OptionGroup var options: SessionOptions

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            session.settings.send(.signOut)
            Console.line("Signed out.")
        }
    }
}
