/// Standard Base64 (RFC 4648, with padding), for the OSC 52 clipboard sequence.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    static func encode(_ bytes: [UInt8]) -> String {
        var out = ""
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let a = Int(bytes[index])
            let b = index + 1 < bytes.count ? Int(bytes[index + 1]) : 0
            let c = index + 2 < bytes.count ? Int(bytes[index + 2]) : 0
            out.append(alphabet[a >> 2])
            out.append(alphabet[(a & 3) << 4 | b >> 4])
            out.append(index + 1 < bytes.count ? alphabet[(b & 15) << 2 | c >> 6] : "=")
            out.append(index + 2 < bytes.count ? alphabet[c & 63] : "=")
            index += 3
        }
        return out
    }
}
