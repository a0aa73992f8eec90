import Synchronization

// A call with a trailing closure and no parentheses, and free functions.

func callsWithoutParentheses() {
    Task.immediate { print("started") }  // slip
    atomicMemoryFence(ordering: .sequentiallyConsistent)  // slip
}

func taskExecutorPreference() async {
    await withTaskExecutorPreference(nil) { print("preferred") }  // slip
}

func olderCalls() {
    Task { print("started") }
    Task.detached { print("detached") }
}
