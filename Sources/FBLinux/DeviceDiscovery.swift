import CFBLinux
import FBRaster
import Glibc

/// What one DRM card offers, read without becoming master (`fbanim devices`).
package struct DRMCardReport: Sendable {
    package var path: String
    /// `drmGetVersion`'s name and description, as in `bochs-drm`.
    package var driver: String
    package var driverDescription: String
    package var connectors: [ConnectorInfo]
    /// The primary plane's formats for the first CRTC, as fourcc strings (`XR24`).
    package var planeFormats: [String]
    /// `DRM_CAP_DUMB_PREFERRED_DEPTH` (16 on small panels), when the driver says.
    package var preferredDepth: UInt64?
    /// `DRM_CAP_DUMB_PREFER_SHADOW`.
    package var prefersShadow: Bool
    /// The format fbanim would draw in.
    package var format: PixelFormat
    /// Links to the card under `/dev/dri/by-path` (udev's stable names).
    package var links: [String] = []

    /// Whether fbanim can show something on it.
    package var hasConnectedOutput: Bool {
        connectors.contains { $0.status == .connected && !$0.modes.isEmpty }
    }
}

/// What one fbdev device is (`fbanim devices`).
package struct FramebufferReport: Sendable {
    package var path: String
    /// The geometry, or why fbanim cannot draw on it.
    package var geometry: Result<FramebufferGeometry, DeviceError>
}

/// Finds the display devices of this machine.
package enum DeviceDiscovery {
    /// `/dev/dri/card0`, `/dev/dri/card1`, ... in number order.
    package static func drmCards(system: SystemCalls = LinuxSystemCalls.shared) -> [String] {
        numbered(system.directoryEntries("/dev/dri"), prefix: "card").map { "/dev/dri/\($0)" }
    }

    /// `/dev/fb0`, `/dev/fb1`, ... in number order.
    package static func framebuffers(system: SystemCalls = LinuxSystemCalls.shared) -> [String] {
        numbered(system.directoryEntries("/dev"), prefix: "fb").map { "/dev/\($0)" }
    }

    /// Reads what the card at `path` has: driver, connectors with their
    /// status and modes, plane formats. Opens it, never becomes master.
    package static func probeCard(
        _ path: String, system: SystemCalls = LinuxSystemCalls.shared,
        kms: ModeSetting = LibDRM.shared
    ) -> Result<DRMCardReport, DeviceError> {
        let fd: FileDescriptor
        do throws(SystemError) {
            fd = try system.open(path, flags: O_RDWR)
        } catch {
            return .failure(DeviceError.opening(path, error))
        }
        let card = DRMCard(path: path, system: system, kms: kms, fd: fd)
        defer { card.teardown() }
        let probe: DRMDisplay.Probe
        do throws(DeviceError) {
            probe = try DRMDisplay.Probe(card)
        } catch {
            return .failure(error)
        }
        let formats = kms.primaryPlaneFormats(fd, crtcIndex: 0)
        let depth = kms.capability(fd, fbl_DRM_CAP_DUMB_PREFERRED_DEPTH)
        return .success(
            DRMCardReport(
                path: path, driver: probe.driver.name, driverDescription: probe.driver.description,
                connectors: probe.connectors, planeFormats: formats.map(fourccName),
                preferredDepth: depth,
                prefersShadow: kms.capability(fd, fbl_DRM_CAP_DUMB_PREFER_SHADOW) == 1,
                format: DRMOutput.chooseFormat(preferredDepth: depth, planeFormats: formats),
                links: links(to: path, system: system)))
    }

    /// The links in `directory` (udev's `/dev/dri/by-path`) that lead to the
    /// device at `path`, sorted; links are resolved on the real file system.
    package static func links(
        to path: String, in directory: String = "/dev/dri/by-path",
        system: SystemCalls = LinuxSystemCalls.shared
    ) -> [String] {
        guard let target = canonicalPath(path, system: system) else { return [] }
        return system.directoryEntries(directory).sorted().map { "\(directory)/\($0)" }
            .filter { canonicalPath($0, system: system) == target }
    }

    /// Reads the screen info of the fbdev at `path` (opens it, maps nothing).
    package static func probeFramebuffer(
        _ path: String, system: SystemCalls = LinuxSystemCalls.shared
    )
        -> FramebufferReport
    {
        let fd: FileDescriptor
        do throws(SystemError) {
            // Never blocks, even on a FIFO someone put at /dev/fb0.
            fd = try system.open(path, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            return FramebufferReport(
                path: path, geometry: .failure(DeviceError.opening(path, error)))
        }
        defer { system.close(fd) }
        var fixed = fb_fix_screeninfo()
        var variable = fb_var_screeninfo()
        do throws(SystemError) {
            try system.ioctl(fd, fbl_FBIOGET_FSCREENINFO, "FBIOGET_FSCREENINFO", &fixed)
            try system.ioctl(fd, fbl_FBIOGET_VSCREENINFO, "FBIOGET_VSCREENINFO", &variable)
        } catch {
            return FramebufferReport(
                path: path,
                geometry: .failure(
                    DeviceError(
                        .unusable, path: path, "not a framebuffer device", underlying: error)))
        }
        do throws(DeviceError) {
            return FramebufferReport(
                path: path,
                geometry: .success(
                    try FramebufferGeometry(path: path, variable: variable, fixed: fixed)))
        } catch {
            return FramebufferReport(path: path, geometry: .failure(error))
        }
    }

    /// `XR24` for `DRM_FORMAT_XRGB8888`: the fourcc's four characters.
    package static func fourccName(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return "0x" + String(code, radix: 16)
        }
        return String(decoding: bytes, as: UTF8.self).trimmedSpaces
    }

    /// The names `prefix` + a number, sorted by the number.
    static func numbered(_ names: [String], prefix: String) -> [String] {
        names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix(prefix) else { return nil }
            let digits = name.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let n = Int(digits)
            else { return nil }
            return (n, name)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

extension DeviceDiscovery {
    /// The DRM card whose driver is `driver` (its `drmGetVersion` name, as
    /// `vc4` or `panel-mipi-dbi`, or its kernel driver's name in sysfs) and,
    /// when `connector` is named, on which that connector has a screen
    /// connected. The first such card in number order, or `nil`.
    package static func drmCard(
        driver: String, connector: String?, system: SystemCalls = LinuxSystemCalls.shared,
        kms: ModeSetting = LibDRM.shared
    ) -> String? {
        for path in drmCards(system: system) {
            guard case .success(let report) = probeCard(path, system: system, kms: kms) else {
                continue
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let kernelDriver = driverName(
                ofSysfsDevice: "/sys/class/drm/\(name)/device", system: system)
            guard report.driver == driver || kernelDriver == driver else { continue }
            guard let connector else { return path }
            if report.connectors.contains(where: {
                $0.name == connector && $0.status == .connected && !$0.modes.isEmpty
            }) {
                return path
            }
        }
        return nil
    }

    /// The fbdev whose id (`fb_fix_screeninfo.id`, as `fb_ili9340` or
    /// `vc4drmfb`) is `id`: the first in number order, or `nil`.
    package static func framebuffer(id: String, system: SystemCalls = LinuxSystemCalls.shared)
        -> String?
    {
        framebuffers(system: system).first { path in
            if case .success(let geometry) = probeFramebuffer(path, system: system).geometry {
                return geometry.name == id
            }
            return false
        }
    }

    /// The name of the kernel driver bound to a sysfs device (the last part
    /// of its `driver` link), or `nil`.
    static func driverName(
        ofSysfsDevice path: String, system: SystemCalls = LinuxSystemCalls.shared
    ) -> String? {
        guard let target = linkTarget(path + "/driver", system: system) else { return nil }
        return target.split(separator: "/").last.map(String.init)
    }
}

extension DeviceDiscovery {
    /// Why the folder of DRM nodes cannot be listed (`EACCES` when another
    /// user owns a mode-700 `/dev/dri`), or `nil` when it can or does not exist.
    package static func unlistableDRMFolder(
        _ path: String = "/dev/dri", system: SystemCalls = LinuxSystemCalls.shared
    ) -> SystemError? {
        guard system.exists(path) else { return nil }
        do throws(SystemError) {
            _ = try system.listDirectory(path)
            return nil
        } catch {
            return error
        }
    }
}
