/// Encodes packed 8-bit RGB as a binary PPM file (`P6`, maxval 255).
///
/// The header is `P6\n<width> <height>\n255\n`, followed by the pixels as
/// given: three bytes a pixel, rows top to bottom, no padding.
/// - Parameter rgb: `width * height * 3` bytes.
package func encodePPM(rgb: [UInt8], width: Int, height: Int) throws(ImageError) -> [UInt8] {
    try validateRGB(rgb, width: width, height: height)
    var out = Array("P6\n\(width) \(height)\n255\n".utf8)
    out.reserveCapacity(out.count + rgb.count)
    out.append(contentsOf: rgb)
    return out
}
