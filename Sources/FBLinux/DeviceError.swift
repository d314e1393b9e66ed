import Glibc

/// Why a display device could not be opened: one line for a person, and a
/// kind the command line maps to its exit status.
package struct DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, by what the user can do about it.
    package enum Kind: Sendable, Equatable {
        /// The device node does not exist (exit 66).
        case missing
        /// Opening it or becoming its master is not allowed for this user (exit 77).
        case permissionDenied
        /// It exists but cannot show fbanim's picture: not a display, no
        /// connected output, an unsupported pixel layout, another master (exit 69).
        case unusable
        /// Another program (a display server) is DRM master (exit 69).
        case busy
    }

    package let kind: Kind
    /// The device node, as in `/dev/fb0`.
    package let path: String
    /// The reason, without the path: `"not a framebuffer device"`.
    package let reason: String
    /// The failed call underneath, when there was one.
    package let underlying: SystemError?

    package init(_ kind: Kind, path: String, _ reason: String, underlying: SystemError? = nil) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.underlying = underlying
    }

    /// `"/dev/fb0: not a framebuffer device"` (the path once, also when the reason names it).
    package var description: String { reason.contains(path) ? reason : "\(path): \(reason)" }

    /// Classifies a failed `open(2)` of a device node (`SystemError.category`).
    package static func opening(_ path: String, _ error: SystemError) -> DeviceError {
        switch error.category {
        case .missing:
            return DeviceError(.missing, path: path, "no such device", underlying: error)
        case .permissionDenied:
            return DeviceError(
                .permissionDenied, path: path, "permission denied", underlying: error)
        case .noDevice:
            return DeviceError(
                .unusable, path: path, "no driver behind this device node (\(error.reason))",
                underlying: error)
        case .other:
            return DeviceError(
                .unusable, path: path, "cannot open: \(error.reason)", underlying: error)
        }
    }

    /// A failed call while setting the device up: permission problems stay
    /// permission problems, anything else makes the device unusable.
    package static func setting(_ path: String, _ what: String, _ error: SystemError) -> DeviceError
    {
        let kind: Kind = error.category == .permissionDenied ? .permissionDenied : .unusable
        return DeviceError(kind, path: path, "\(what): \(error.description)", underlying: error)
    }
}
