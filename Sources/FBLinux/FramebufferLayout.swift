import CFBLinux
import FBRaster

/// One colour channel of an fbdev pixel: `length` bits starting at bit `offset`
/// (`struct fb_bitfield`, without `msb_right`, which fbanim requires to be 0).
package struct ChannelBits: Equatable, Sendable, CustomStringConvertible {
    package var offset: Int
    package var length: Int

    package init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }

    /// `offset/length`, as `fbset` prints it.
    package var description: String { "\(offset)/\(length)" }
}

/// An fbdev pixel layout as the kernel reports it: bits per pixel and where
/// each channel sits.
package struct FramebufferPixelLayout: Equatable, Sendable, CustomStringConvertible {
    package var bitsPerPixel: Int
    package var red, green, blue, transparency: ChannelBits

    package init(
        bitsPerPixel: Int, red: ChannelBits, green: ChannelBits, blue: ChannelBits,
        transparency: ChannelBits = ChannelBits(offset: 0, length: 0)
    ) {
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.transparency = transparency
    }

    /// The layout of `FBIOGET_VSCREENINFO`'s answer.
    package init(_ v: fb_var_screeninfo) {
        func bits(_ f: fb_bitfield) -> ChannelBits {
            ChannelBits(offset: Int(f.offset), length: Int(f.length))
        }
        self.init(
            bitsPerPixel: Int(v.bits_per_pixel), red: bits(v.red), green: bits(v.green),
            blue: bits(v.blue), transparency: bits(v.transp))
    }

    /// `16 bpp, r 11/5 g 5/6 b 0/5`, as errors and `fbanim devices` show it.
    package var description: String {
        var text = "\(bitsPerPixel) bpp, r \(red) g \(green) b \(blue)"
        if transparency.length > 0 { text += " a \(transparency)" }
        return text
    }

    /// The fbanim pixel format with exactly this layout, or `nil`.
    ///
    /// Matched on the channels' offsets and lengths, not the bit depth alone:
    /// a 16-bit panel may be RGB or BGR, a 32-bit one XRGB or XBGR. A 32-bit
    /// layout with an 8-bit alpha channel at 24 is `argb8888` (fbanim's pixels
    /// are opaque, so alpha is always written as 0xFF).
    package var pixelFormat: PixelFormat? {
        let r = (red.offset, red.length)
        let g = (green.offset, green.length)
        let b = (blue.offset, blue.length)
        let a = (transparency.offset, transparency.length)
        let noAlpha = a.1 == 0
        let alpha8At24 = a == (24, 8)
        switch bitsPerPixel {
        case 16 where g == (5, 6) && noAlpha:
            if r == (11, 5) && b == (0, 5) { return .rgb565 }
            if r == (0, 5) && b == (11, 5) { return .bgr565 }
        case 24 where g == (8, 8) && noAlpha:
            if r == (16, 8) && b == (0, 8) { return .rgb888 }
        case 32 where g == (8, 8) && (noAlpha || alpha8At24):
            if r == (16, 8) && b == (0, 8) { return alpha8At24 ? .argb8888 : .xrgb8888 }
            // ABGR with alpha written 0xFF looks the same as XBGR.
            if r == (0, 8) && b == (16, 8) { return .xbgr8888 }
        default:
            break
        }
        return nil
    }
}

/// Everything the fbdev backend needs to know about a framebuffer, read from
/// `FBIOGET_VSCREENINFO` and `FBIOGET_FSCREENINFO` and checked.
package struct FramebufferGeometry: Equatable, Sendable {
    /// The driver's name for the device (`fix.id`), as in `bochs-drmdrmfb`.
    package var name: String
    /// Visible pixels.
    package var width: Int, height: Int
    package var format: PixelFormat
    package var layout: FramebufferPixelLayout
    /// Bytes from one row to the next (`line_length`).
    package var stride: Int
    /// Bytes of device memory to map (`smem_len`).
    package var memoryLength: Int
    /// Pages of `height` rows that fit the virtual height and the memory: 2
    /// means fbanim can draw into one while the other shows, and pan.
    package var pages: Int
    /// Vertical refresh computed from the pixel clock and timings, when the driver gives them.
    package var refreshHz: Int?

    /// Checks the two screen infos.
    /// - Throws: `DeviceError` (`.unusable`) naming what fbanim cannot draw:
    ///   a layout outside its six formats, a non-packed or palette visual,
    ///   memory too small for the visible screen.
    package init(path: String, variable v: fb_var_screeninfo, fixed f: fb_fix_screeninfo)
        throws(DeviceError)
    {
        name = cString(f.id)
        width = Int(v.xres)
        height = Int(v.yres)
        layout = FramebufferPixelLayout(v)
        guard width > 0, height > 0 else {
            throw DeviceError(
                .unusable, path: path, "the framebuffer reports a size of \(width)x\(height)")
        }
        // `nonstd` is not checked: its values (FB_NONSTD_HAM, _REV_PIX_IN_B)
        // concern planar and sub-byte pixels, which the checks here refuse
        // anyway, and fbtft sets it to 1 on its plain RGB565 framebuffers
        // (fbtft-core.c, fbtft_framebuffer_alloc: `info->var.nonstd = 1`).
        guard f.type == fbl_FB_TYPE_PACKED_PIXELS,
            f.visual == fbl_FB_VISUAL_TRUECOLOR || f.visual == fbl_FB_VISUAL_DIRECTCOLOR,
            v.grayscale == 0
        else {
            throw DeviceError(
                .unusable, path: path,
                "unsupported framebuffer (type \(f.type), visual \(f.visual), grayscale \(v.grayscale)): "
                    + "fbanim draws packed true-colour pixels only")
        }
        guard let format = layout.pixelFormat,
            v.red.msb_right == 0, v.green.msb_right == 0, v.blue.msb_right == 0
        else {
            let names = PixelFormat.allCases.map(\.name).joined(separator: ", ")
            throw DeviceError(
                .unusable, path: path,
                "unsupported pixel layout (\(layout)); fbanim draws \(names)")
        }
        self.format = format
        let rowBytes = width * format.bytesPerPixel
        stride = f.line_length > 0 ? Int(f.line_length) : Int(v.xres_virtual) * format.bytesPerPixel
        memoryLength = Int(f.smem_len)
        let xOffset = Int(v.xoffset) * format.bytesPerPixel
        guard stride >= rowBytes, memoryLength >= (Int(v.yoffset) + height) * stride + xOffset
        else {
            throw DeviceError(
                .unusable, path: path,
                "framebuffer memory (\(memoryLength) bytes, \(stride) a row) is smaller than its "
                    + "\(width)x\(height) screen")
        }
        let virtualPages = Int(v.yres_virtual) / height
        let memoryPages = memoryLength / (height * stride)
        pages = min(2, virtualPages, memoryPages) >= 2 ? 2 : 1
        refreshHz = FramebufferGeometry.refresh(v)
    }

    /// Hz from `pixclock` (picoseconds a pixel) and the blanking intervals; `nil` when unknown.
    static func refresh(_ v: fb_var_screeninfo) -> Int? {
        guard v.pixclock > 0 else { return nil }
        // Summed as Int: drivers fill these with anything, and UInt32 sums could overflow.
        let lineClocks = [v.xres, v.left_margin, v.right_margin, v.hsync_len].reduce(0) {
            $0 + Int($1)
        }
        let frameLines = [v.yres, v.upper_margin, v.lower_margin, v.vsync_len].reduce(0) {
            $0 + Int($1)
        }
        let picoseconds = Double(v.pixclock) * Double(lineClocks) * Double(frameLines)
        let hz = Int((1e12 / picoseconds).rounded())
        return (1...480).contains(hz) ? hz : nil
    }
}
