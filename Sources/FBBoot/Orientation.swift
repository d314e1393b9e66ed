/// How a panel is mounted, as the kernel says it: the value of a DRM
/// connector's "panel orientation" property.
///
/// Values and names are the kernel's `enum drm_panel_orientation` and
/// `drm_panel_orientation_enum_list` (drivers/gpu/drm/drm_connector.c):
/// the property is an enum whose value is the raw value here. A panel
/// driver sets it from the device tree's `rotation` (`of_drm_get_panel_orientation`:
/// 90 is right side up, 270 left side up), quirk tables set it for known
/// tablets, and `video=CONNECTOR:panel_orientation=left_side_up` on the
/// kernel command line overrides it.
package enum PanelOrientation: UInt64, CaseIterable, Sendable {
    /// "Normal": the panel's top is the user's top.
    case normal = 0
    /// "Upside Down" (`DRM_MODE_PANEL_ORIENTATION_BOTTOM_UP`).
    case upsideDown = 1
    /// "Left Side Up" (`LEFT_UP`): the panel's left edge is at the top,
    /// as after turning a panel a quarter turn clockwise.
    case leftSideUp = 2
    /// "Right Side Up" (`RIGHT_UP`): the right edge is at the top.
    case rightSideUp = 3

    /// The kernel's name of the value, as `modetest` prints it.
    package var name: String {
        switch self {
        case .normal: "Normal"
        case .upsideDown: "Upside Down"
        case .leftSideUp: "Left Side Up"
        case .rightSideUp: "Right Side Up"
        }
    }

    /// The rotation the kernel's own clients give the picture for this
    /// orientation, counter-clockwise in degrees (DRM's `DRM_MODE_ROTATE_*`
    /// convention): `drm_client_rotation()` in drm_client_modeset.c maps
    /// Left Side Up to `DRM_MODE_ROTATE_90`, Right Side Up to `_270`, Upside
    /// Down to `_180`, and drm_fb_helper.c turns `DRM_MODE_ROTATE_90` into
    /// fbcon's `FB_ROTATE_CCW` (efifb maps Left Side Up to `FB_ROTATE_CCW`
    /// directly).
    package var counterClockwiseDegrees: Int {
        switch self {
        case .normal: 0
        case .upsideDown: 180
        case .leftSideUp: 90
        case .rightSideUp: 270
        }
    }
}

/// The extra clockwise rotation fbanim gives the picture of a DRM output,
/// so it stands the way the kernel's console would: the connector's panel
/// orientation plus the `rotate=` of its `video=` parameter.
///
/// Both are counter-clockwise in the kernel (`video=...,rotate=90` is
/// `DRM_MODE_ROTATE_90`, drm_modes.c, the same as Left Side Up), and
/// `drm_client_rotation()` adds the command line's to the panel's; fbanim's
/// `--rotate` turns clockwise, so the sum is turned around:
/// Left Side Up or `rotate=90` is fbanim's 270, Right Side Up or
/// `rotate=270` its 90.
/// - Parameters:
///   - orientation: the connector's property, `nil` when it has none.
///   - commandLineDegrees: `rotate=` from `video=`: 0, 90, 180 or 270, or `nil`.
/// - Returns: 0, 90, 180 or 270 degrees clockwise.
package func pictureRotation(orientation: PanelOrientation?, commandLineDegrees: Int?) -> Int {
    let counterClockwise =
        (orientation?.counterClockwiseDegrees ?? 0) + (commandLineDegrees ?? 0)
    return (360 - counterClockwise % 360) % 360
}

extension KernelCommandLine {
    /// The options of the `video=` parameter for the output `name` (a DRM
    /// connector such as `DSI-1`), as the kernel looks them up
    /// (drivers/video/cmdline.c): the last `video=NAME:OPTIONS` wins; with
    /// none, the one `video=` without a name (no `:`), if any.
    /// - Returns: `OPTIONS` (`720x1280@60,rotate=90`), or `nil`.
    package func videoOptions(for name: String) -> String? {
        var named: String?
        var global: String?
        for (key, value) in parameters where key == "video" {
            guard let value, !value.isEmpty else { continue }
            if let colon = value.firstIndex(of: ":") {
                if value[..<colon] == name { named = String(value[value.index(after: colon)...]) }
            } else {
                global = value
            }
        }
        return named ?? global
    }

    /// The `rotate=` degrees of the output's `video=` options, counter-clockwise
    /// as the kernel reads them (drm_modes.c `drm_mode_parse_cmdline_options`).
    ///
    /// The options are comma separated, after an optional mode
    /// (`720x1280@60,rotate=90`) or alone (`rotate=90`). As in the kernel,
    /// several `rotate=` are or-ed and the largest counts (`ilog2` of the
    /// bits); a value other than 0, 90, 180 or 270 makes the kernel refuse
    /// the whole option, so there is no rotation at all.
    /// - Returns: 0, 90, 180 or 270, or `nil` when the output has no `rotate=`.
    package func videoRotation(for name: String) -> Int? {
        guard let options = videoOptions(for: name) else { return nil }
        var degrees: Int?
        for option in options.split(separator: ",", omittingEmptySubsequences: false) {
            guard option.hasPrefix("rotate=") else { continue }
            let value = option.dropFirst("rotate=".count)
            guard value.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(value),
                [0, 90, 180, 270].contains(n)
            else { return nil }
            degrees = max(degrees ?? 0, n)
        }
        return degrees
    }
}
