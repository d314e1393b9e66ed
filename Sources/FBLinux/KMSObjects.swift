import CDRM
import FBBoot
import FBRaster

/// A DRM object id (connector, encoder, CRTC, framebuffer): never 0, which the
/// kernel uses for "none"; a missing id is `nil`.
package protocol KernelObjectID: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue == UInt32 {
    init(unchecked: UInt32)
}

extension KernelObjectID {
    /// The id, or `nil` for the kernel's 0 ("none").
    package init?(rawValue: UInt32) {
        guard rawValue != 0 else { return nil }
        self.init(unchecked: rawValue)
    }
    package var description: String { String(rawValue) }
}

/// A connector (`drmModeConnector.connector_id`): a plug or a panel.
package struct ConnectorID: KernelObjectID {
    package let rawValue: UInt32
    package init(unchecked: UInt32) { rawValue = unchecked }
}
/// An encoder (`drmModeEncoder.encoder_id`).
package struct EncoderID: KernelObjectID {
    package let rawValue: UInt32
    package init(unchecked: UInt32) { rawValue = unchecked }
}
/// A CRTC (`drmModeCrtc.crtc_id`): a scanout engine.
package struct CRTCID: KernelObjectID {
    package let rawValue: UInt32
    package init(unchecked: UInt32) { rawValue = unchecked }
}
/// A framebuffer object (`drmModeAddFB2`'s `buf_id`).
package struct FramebufferID: KernelObjectID {
    package let rawValue: UInt32
    package init(unchecked: UInt32) { rawValue = unchecked }
}
/// A GEM handle of a dumb buffer (`drm_mode_create_dumb.handle`).
package struct DumbHandle: KernelObjectID {
    package let rawValue: UInt32
    package init(unchecked: UInt32) { rawValue = unchecked }
}

/// A display mode (`drmModeModeInfo`), kept whole to give back to `SetCrtc`.
package struct DisplayMode: @unchecked Sendable {
    package var info: drmModeModeInfo
    package init(_ info: drmModeModeInfo) { self.info = info }

    /// Visible pixels.
    package var width: Int { Int(info.hdisplay) }
    package var height: Int { Int(info.vdisplay) }
    /// Vertical refresh in Hz (rounded by the kernel).
    package var refreshHz: Int { Int(info.vrefresh) }
    /// The connector's preferred mode (`DRM_MODE_TYPE_PREFERRED`): a panel's native one.
    package var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
    /// `480x320@60`.
    package var summary: String { "\(width)x\(height)@\(refreshHz)" }

    /// A mode of that size, for tests.
    package static func testMode(
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
package enum ConnectionStatus: String, Sendable {
    case connected, disconnected, unknown
}

/// What `drmModeGetConnector` says about a connector.
package struct ConnectorInfo: Sendable {
    package var id: ConnectorID
    /// `HDMI-A-1`, `DSI-1`, `SPI-1`, `Virtual-1`: type name and number.
    package var name: String
    /// `DRM_MODE_CONNECTOR_*`.
    package var type: UInt32
    package var status: ConnectionStatus
    package var modes: [DisplayMode]
    package var encoders: [EncoderID]
    /// The encoder driving it now, if any.
    package var currentEncoder: EncoderID?
    /// Its "panel orientation" property: how the panel is mounted; `nil`
    /// when the connector has no such property (most plugs).
    package var panelOrientation: PanelOrientation?

    package init(
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
    package var typeName: String {
        drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? "type \(type)"
    }

    /// The preferred mode, else the first (the kernel lists the best first).
    package var preferredMode: DisplayMode? { modes.first(where: \.isPreferred) ?? modes.first }

    /// Built into the device (a panel), rather than a plug: shown first.
    package var isBuiltIn: Bool {
        [
            DRM_MODE_CONNECTOR_LVDS, DRM_MODE_CONNECTOR_eDP, DRM_MODE_CONNECTOR_DSI,
            DRM_MODE_CONNECTOR_DPI, DRM_MODE_CONNECTOR_SPI,
        ].map { UInt32($0) }.contains(type)
    }
}

/// What `drmModeGetEncoder` says: the CRTC it is on and the CRTCs it can use.
package struct EncoderInfo: Sendable {
    package var id: EncoderID
    package var crtc: CRTCID?
    /// Bit `i` set: the `i`-th CRTC of the card's resources can feed it.
    package var possibleCRTCs: UInt32

    package init(id: EncoderID, crtc: CRTCID?, possibleCRTCs: UInt32) {
        self.id = id
        self.crtc = crtc
        self.possibleCRTCs = possibleCRTCs
    }
}

/// A CRTC's state as `drmModeGetCrtc` reads it: what to give back on exit.
package struct CRTCState: Sendable {
    package var id: CRTCID
    package var framebuffer: FramebufferID?
    package var x: UInt32, y: UInt32
    /// `nil` when the CRTC was off (`mode_valid == 0`).
    package var mode: DisplayMode?

    package init(id: CRTCID, framebuffer: FramebufferID?, x: UInt32, y: UInt32, mode: DisplayMode?)
    {
        self.id = id
        self.framebuffer = framebuffer
        self.x = x
        self.y = y
        self.mode = mode
    }
}

/// The ids `drmModeGetResources` lists, in the kernel's order (a CRTC's index
/// is its bit in `possibleCRTCs`).
package struct CardResources: Sendable {
    package var connectors: [ConnectorID]
    package var encoders: [EncoderID]
    package var crtcs: [CRTCID]

    package init(connectors: [ConnectorID], encoders: [EncoderID], crtcs: [CRTCID]) {
        self.connectors = connectors
        self.encoders = encoders
        self.crtcs = crtcs
    }
}

/// A dumb buffer as `DRM_IOCTL_MODE_CREATE_DUMB` made it.
package struct DumbBufferInfo: Sendable {
    package var handle: DumbHandle
    /// Bytes a row.
    package var pitch: Int
    /// Bytes to map.
    package var size: Int

    package init(handle: DumbHandle, pitch: Int, size: Int) {
        self.handle = handle
        self.pitch = pitch
        self.size = size
    }
}
