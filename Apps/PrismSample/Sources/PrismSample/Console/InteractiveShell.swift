import Foundation

/// The interactive mode: reads commands a line at a time and runs them on a session, until
/// `quit` or the end of the input.
///
/// Works the same typed at a terminal (with a prompt) or piped in (each command is echoed, so
/// the output reads like a transcript). A command that fails prints why, and the shell goes on.
/// The session is saved after every command.
@MainActor
struct InteractiveShell {
    /// The session the commands run on.
    let session: TaskSession

    /// The commands, for `help`.
    static let help = [
        "  add <title>      add a task",
        "  list             show the tasks",
        "  done <id>        mark a task done",
        "  remove <id>      remove a task",
        "  undo, redo       undo the last change, redo it",
        "  history          every change of the session (time travel)",
        "  travel <n>       put the list back as it was at moment n of the history",
        "  go <screen>      show a screen: \(ScreenLinks.help)",
        "  back             leave the screen in front",
        "  sync             sync with the server",
        "  theme <name>     draw tasks \(Theme.allCases.map(\.rawValue).joined(separator: " or "))",
        "  sort <order>     list tasks by \(SortOrder.allCases.map(\.rawValue).joined(separator: ", "))",
        "  signin <name>    sign in; signout: sign out",
        "  help             this list",
        "  quit             save and leave (also: exit, or the end of the input)",
    ]

    /// Runs commands until `quit` or the end of the input.
    func run() async {
        let isTerminal = LineReader.isInteractive
        Console.line("Prism sample, interactive. Tasks are saved in \(session.directory.path)")
        Console.line("Type help for the commands.")
        Console.lines(Render.screen(of: session))
        while true {
            if isTerminal {
                print("prism> ", terminator: "")
                Console.flush()
            }
            guard let line = await LineReader.next() else {
                if isTerminal { Console.line() }
                break
            }
            let command = line.trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty, !command.hasPrefix("#") else { continue }
            if !isTerminal { Console.line("> " + command) }
            do {
                let goOn = try await perform(command)
                try await session.save()
                if !goOn { break }
            } catch {
                Console.error("Error: \(error)")
            }
            Console.flush()
        }
        Console.line("Bye.")
    }

    /// Runs one command line; false when it asks to leave.
    func perform(_ line: String) async throws -> Bool {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        let name = words[0].lowercased()
        let arguments = Array(words.dropFirst())
        switch name {
        case "help", "?":
            Console.lines(Self.help)
        case "add":
            let title = line.dropFirst(words[0].count).trimmingCharacters(in: .whitespaces)
            let item = try session.add(title.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")))
            Console.line("Added #\(item.id): \(item.title)")
        case "list", "ls":
            Console.lines(Render.taskList(of: session))
        case "done":
            let item = try session.complete(id: try Self.id(arguments, for: name))
            Console.line("Done #\(item.id): \(item.title)")
        case "remove", "rm":
            let item = try session.remove(id: try Self.id(arguments, for: name))
            Console.line("Removed #\(item.id): \(item.title)")
        case "undo":
            Console.line("Undid: \(try session.undo())")
        case "redo":
            Console.line("Redid: \(try session.redo())")
        case "history":
            Console.lines(Render.history(session.history.debugger))
        case "travel":
            let snapshot = try session.travel(to: try Self.id(arguments, for: name))
            Console.line("Traveled to moment \(snapshot.index) (after \(snapshot.action)).")
            Console.lines(Render.taskList(of: session))
        case "go":
            try session.go(to: arguments)
            Console.lines(Render.screen(of: session))
        case "back":
            if !session.back() { Console.line("Already at the task list.") }
            Console.lines(Render.screen(of: session))
        case "sync":
            Console.line("Syncing \(session.tasks.state.items.count) task(s)...")
            Console.line(await session.syncNow().summary)
        case "theme":
            session.settings.send(.setTheme(try Self.choice(arguments, for: name)))
            Console.lines(Render.taskList(of: session))
        case "sort":
            session.settings.send(.setSortOrder(try Self.choice(arguments, for: name)))
            Console.lines(Render.taskList(of: session))
        case "signin":
            try session.signIn(arguments.joined(separator: " "))
            Console.line("Signed in as \(session.settings.state.user?.name ?? "nobody").")
        case "signout":
            session.settings.send(.signOut)
            Console.line("Signed out.")
        case "quit", "exit", "q":
            return false
        default:
            throw SampleError("Unknown command \"\(words[0])\". Type help to see the commands.")
        }
        return true
    }

    /// The one choice of `Choice` that `arguments` holds, or an error that lists them.
    private static func choice<Choice: RawRepresentable<String> & CaseIterable>(
        _ arguments: [String],
        for command: String
    ) throws(SampleError) -> Choice {
        guard arguments.count == 1, let choice = Choice(rawValue: arguments[0].lowercased()) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw SampleError("\(command) needs one of: \(names).")
        }
        return choice
    }

    /// The one number `arguments` holds, or an error that shows how to write the command.
    private static func id(_ arguments: [String], for command: String) throws(SampleError) -> Int {
        guard arguments.count == 1, let id = Int(arguments[0]) else {
            throw SampleError("\(command) needs one number, as in: \(command) 2")
        }
        return id
    }
}
