// Linux's /proc and /sys, however the path is built.

func residentPages() -> String {
    "/proc/self/statm"  // slip
}

func residentPagesBuilt() -> String {
    "/proc" + "/self/statm"  // slip
}

func processStatus(_ pid: Int32) -> String {
    "/proc/\(pid)/status"  // slip
}

func cpuFrequency() -> String {
    "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"  // slip
}

#if os(Linux)
func linuxResidentPages() -> String {
    "/proc/self/statm"
}
#endif

func notAPath() -> [String] {
    ["/process", "/system/library", "procedures"]
}
