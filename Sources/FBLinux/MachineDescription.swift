import Glibc

/// One line naming the machine: kernel, architecture, CPU model and count
/// (`uname`, the first model line of `/proc/cpuinfo`, `sysconf`), for the
/// benchmarks' figures.
package func machineDescription(system: SystemCalls = LinuxSystemCalls.shared) -> String {
    var names = utsname()
    _ = uname(&names)
    var model = "unknown CPU"
    let cpuinfo = (try? readFile("/proc/cpuinfo", limit: 1 << 22, system: system)) ?? []
    for line in String(decoding: cpuinfo, as: UTF8.self).split(separator: "\n")
    where line.hasPrefix("model name") || line.hasPrefix("Model") {
        if let colon = line.firstIndex(of: ":") {
            model = line[line.index(after: colon)...].trimmedSpaces
            break
        }
    }
    let cpus = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return
        "\(cString(names.sysname)) \(cString(names.release)) \(cString(names.machine)), \(model), \(cpus) CPUs"
}
