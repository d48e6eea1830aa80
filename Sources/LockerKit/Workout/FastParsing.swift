import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Decimal numbers straight from bytes (no String), for readers that parse millions of them.
/// Accurate to the last bit or two for up to 19 significant digits; extra digits (some devices
/// write 30) are dropped.
enum FastNumber {
    private static let powers: [Double] = (0...22).map { pow(10, Double($0)) }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var p = 0
        let n = bytes.count
        while p < n && (bytes[p] == 0x20 || bytes[p] == 0x0A || bytes[p] == 0x09 || bytes[p] == 0x0D) { p += 1 }
        var end = n
        while end > p && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D) { end -= 1 }
        guard p < end else { return nil }
        var negative = false
        if bytes[p] == 0x2D { negative = true; p += 1 } else if bytes[p] == 0x2B { p += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while p < end, bytes[p] >= 0x30, bytes[p] <= 0x39 {
            sawDigit = true
            if digits < 19 { mantissa = mantissa * 10 + UInt64(bytes[p] - 0x30); if mantissa > 0 { digits += 1 } } else { exponent += 1 }
            p += 1
        }
        if p < end && bytes[p] == 0x2E {
            p += 1
            while p < end, bytes[p] >= 0x30, bytes[p] <= 0x39 {
                sawDigit = true
                if digits < 19 { mantissa = mantissa * 10 + UInt64(bytes[p] - 0x30); exponent -= 1; if mantissa > 0 { digits += 1 } }
                p += 1
            }
        }
        guard sawDigit else { return nil }
        if p < end && (bytes[p] == 0x65 || bytes[p] == 0x45) {
            p += 1
            var expNegative = false
            if p < end && bytes[p] == 0x2D { expNegative = true; p += 1 } else if p < end && bytes[p] == 0x2B { p += 1 }
            var value = 0
            var any = false
            while p < end, bytes[p] >= 0x30, bytes[p] <= 0x39 {
                any = true
                if value < 10_000 { value = value * 10 + Int(bytes[p] - 0x30) }
                p += 1
            }
            guard any else { return nil }
            exponent += expNegative ? -value : value
        }
        guard p == end else { return nil }
        var result = Double(mantissa)
        if exponent != 0 {
            if exponent > 0 && exponent <= 22 { result *= powers[exponent] }
            else if exponent < 0 && exponent >= -22 { result /= powers[-exponent] }
            else { result *= pow(10, Double(exponent)) }
        }
        guard result.isFinite else { return nil }
        return negative ? -result : result
    }
}

/// ISO 8601 date-times from bytes: `2020-12-20T05:50:47Z`, with optional fraction
/// (`.418000`) and offset (`+02:00`, `-0500`); no offset means UTC. Returns seconds since 1970.
enum FastTime {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var p = 0
        var n = bytes.count
        while p < n && (bytes[p] == 0x20 || bytes[p] == 0x0A || bytes[p] == 0x09 || bytes[p] == 0x0D) { p += 1 }
        while n > p && (bytes[n - 1] == 0x20 || bytes[n - 1] == 0x0A || bytes[n - 1] == 0x09 || bytes[n - 1] == 0x0D) { n -= 1 }
        func digits(_ count: Int) -> Int? {
            guard p + count <= n else { return nil }
            var value = 0
            for i in 0..<count {
                let b = bytes[p + i]
                guard b >= 0x30 && b <= 0x39 else { return nil }
                value = value * 10 + Int(b - 0x30)
            }
            p += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard p < n, bytes[p] == byte else { return false }
            p += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
              p < n, bytes[p] == 0x54 || bytes[p] == 0x74 || bytes[p] == 0x20 else { return nil }
        p += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else { return nil }
        var fraction = 0.0
        if p < n && (bytes[p] == 0x2E || bytes[p] == 0x2C) {
            p += 1
            var scale = 0.1
            var any = false
            while p < n, bytes[p] >= 0x30, bytes[p] <= 0x39 {
                fraction += Double(bytes[p] - 0x30) * scale
                scale /= 10
                p += 1
                any = true
            }
            guard any else { return nil }
        }
        var offset = 0
        if p < n {
            if bytes[p] == 0x5A || bytes[p] == 0x7A {
                p += 1
            } else if bytes[p] == 0x2B || bytes[p] == 0x2D {
                let sign = bytes[p] == 0x2D ? -1 : 1
                p += 1
                guard let h = digits(2) else { return nil }
                _ = expect(0x3A)
                let m = digits(2) ?? 0
                offset = sign * (h * 3600 + m * 60)
            } else {
                return nil
            }
        }
        guard p == n else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    static func parse(string: String) -> Double? {
        Array(string.utf8).withUnsafeBufferPointer { parse($0) }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
