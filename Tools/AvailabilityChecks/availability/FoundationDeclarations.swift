import Foundation

// Foundation's Linux modules carry availability too (approximately Apple's).

func dailyRule() -> Calendar.RecurrenceRule {  // slip
    Calendar.RecurrenceRule.daily(calendar: .current)  // slip
}

// Unavailable on iOS, tvOS, watchOS (and so visionOS): only macOS has a home folder.
func homeFolder() -> URL {
    FileManager.default.homeDirectoryForCurrentUser  // slip: iOS tvOS watchOS visionOS
}

#if os(macOS)
func homeFolderOnMac() -> URL {
    FileManager.default.homeDirectoryForCurrentUser
}
#endif

func olderFoundation() -> URL {
    URL(filePath: "/tmp").appending(path: "file")
}
