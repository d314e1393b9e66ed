import CDRM
import FBBoot
import FBRaster

/// A DRM object id (connector, encoder, CRTC, framebuffer): never 0, which the
/// kernel uses for "none"; a missing id is `nil`.
public protocol KernelObjectID: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue == UInt32 {
    init(unchecked: UInt32)
}

extension KernelObjectID {
    /// The id, or `nil` for the kernel's 0 ("none").
    public init?(rawValue: UInt32) {
        guard rawValue != 0 else { return nil }
        self.init(unchecked: rawValue)
    }
    public var description: String { String(rawValue) }
}

/// A connector (`drmModeConnector.connector_id`): a plug or a panel.
public struct ConnectorID: KernelObjectID {
    public let rawValue: UInt32
    public init(unchecked: UInt32) { rawValue = unchecked }
}
/// An encoder (`drmModeEncoder.encoder_id`).
public struct EncoderID: KernelObjectID {
    public let rawValue: UInt32
    public init(unchecked: UInt32) { rawValue = unchecked }
}
/// A CRTC (`drmModeCrtc.crtc_id`): a scanout engine.
public struct CRTCID: KernelObjectID {
    public let rawValue: UInt32
    public init(unchecked: UInt32) { rawValue = unchecked }
}
/// A framebuffer object (`drmModeAddFB2`'s `buf_id`).
public struct FramebufferID: KernelObjectID {
    public let rawValue: UInt32
    public init(unchecked: UInt32) { rawValue = unchecked }
}
/// A GEM handle of a dumb buffer (`drm_mode_create_dumb.handle`).
public struct DumbHandle: KernelObjectID {
    public let rawValue: UInt32
    public init(unchecked: UInt32) { rawValue = unchecked }
}

/// A display mode (`drmModeModeInfo`), kept whole to give back to `SetCrtc`.
public struct DisplayMode: @unchecked Sendable {
    public var info: drmModeModeInfo
    public init(_ info: drmModeModeInfo) { self.info = info }

    /// Visible pixels.
    public var width: Int { Int(info.hdisplay) }
    public var height: Int { Int(info.vdisplay) }
    /// Vertical refresh in Hz (rounded by the kernel).
    public var refreshHz: Int { Int(info.vrefresh) }
    /// The connector's preferred mode (`DRM_MODE_TYPE_PREFERRED`): a panel's native one.
    public var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
    /// `480x320@60`.
    public var summary: String { "\(width)x\(height)@\(refreshHz)" }

    /// A mode of that size, for tests.
    public static func testMode(
        width: Int, height: Int, refreshHz: Int = 60, preferred: Bool = true
    )
        -> DisplayMode
    {
        var info = drmModeModeInfo()
        info.hdisplay = UInt16(width)
        info.vdisplay = UInt16(height)
        info.vrefresh = UInt32(refreshHz)
        info.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
        return DisplayMode(info)
    }
}

/// Whether something is plugged into a connector (`drmModeConnection`).
public enum ConnectionStatus: String, Sendable {
    case connected, disconnected, unknown
}

/// What `drmModeGetConnector` says about a connector.
public struct ConnectorInfo: Sendable {
    public var id: ConnectorID
    /// `HDMI-A-1`, `DSI-1`, `SPI-1`, `Virtual-1`: type name and number.
    public var name: String
    /// `DRM_MODE_CONNECTOR_*`.
    public var type: UInt32
    public var status: ConnectionStatus
    public var modes: [DisplayMode]
    public var encoders: [EncoderID]
    /// The encoder driving it now, if any.
    public var currentEncoder: EncoderID?
    /// Its "panel orientation" property: how the panel is mounted; `nil`
    /// when the connector has no such property (most plugs).
    public var panelOrientation: PanelOrientation?

    public init(
        id: ConnectorID, name: String, type: UInt32, status: ConnectionStatus, modes: [DisplayMode],
        encoders: [EncoderID], currentEncoder: EncoderID?, panelOrientation: PanelOrientation? = nil
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.status = status
        self.modes = modes
        self.encoders = encoders
        self.currentEncoder = currentEncoder
        self.panelOrientation = panelOrientation
    }

    /// The connector type's name (`HDMI-A`, `DSI`, `SPI`, `DPI`, `Virtual`),
    /// from libdrm's table (`drmModeGetConnectorTypeName`).
    public var typeName: String {
        drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? "type \(type)"
    }

    /// The preferred mode, else the first (the kernel lists the best first).
    public var preferredMode: DisplayMode? { modes.first(where: \.isPreferred) ?? modes.first }

    /// Built into the device (a panel), rather than a plug: shown first.
    public var isBuiltIn: Bool {
        [
            DRM_MODE_CONNECTOR_LVDS, DRM_MODE_CONNECTOR_eDP, DRM_MODE_CONNECTOR_DSI,
            DRM_MODE_CONNECTOR_DPI, DRM_MODE_CONNECTOR_SPI,
        ].map { UInt32($0) }.contains(type)
    }
}

/// What `drmModeGetEncoder` says: the CRTC it is on and the CRTCs it can use.
public struct EncoderInfo: Sendable {
    public var id: EncoderID
    public var crtc: CRTCID?
    /// Bit `i` set: the `i`-th CRTC of the card's resources can feed it.
    public var possibleCRTCs: UInt32

    public init(id: EncoderID, crtc: CRTCID?, possibleCRTCs: UInt32) {
        self.id = id
        self.crtc = crtc
        self.possibleCRTCs = possibleCRTCs
    }
}

/// A CRTC's state as `drmModeGetCrtc` reads it: what to give back on exit.
public struct CRTCState: Sendable {
    public var id: CRTCID
    public var framebuffer: FramebufferID?
    public var x: UInt32, y: UInt32
    /// `nil` when the CRTC was off (`mode_valid == 0`).
    public var mode: DisplayMode?

    public init(id: CRTCID, framebuffer: FramebufferID?, x: UInt32, y: UInt32, mode: DisplayMode?) {
        self.id = id
        self.framebuffer = framebuffer
        self.x = x
        self.y = y
        self.mode = mode
    }
}

/// The ids `drmModeGetResources` lists, in the kernel's order (a CRTC's index
/// is its bit in `possibleCRTCs`).
public struct CardResources: Sendable {
    public var connectors: [ConnectorID]
    public var encoders: [EncoderID]
    public var crtcs: [CRTCID]

    public init(connectors: [ConnectorID], encoders: [EncoderID], crtcs: [CRTCID]) {
        self.connectors = connectors
        self.encoders = encoders
        self.crtcs = crtcs
    }
}

/// A dumb buffer as `DRM_IOCTL_MODE_CREATE_DUMB` made it.
public struct DumbBufferInfo: Sendable {
    public var handle: DumbHandle
    /// Bytes a row.
    public var pitch: Int
    /// Bytes to map.
    public var size: Int

    public init(handle: DumbHandle, pitch: Int, size: Int) {
        self.handle = handle
        self.pitch = pitch
        self.size = size
    }
}
