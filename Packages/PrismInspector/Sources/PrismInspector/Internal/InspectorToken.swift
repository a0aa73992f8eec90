/// The secret in the inspector's URL.
enum InspectorToken {
    /// 32 random bytes from the system's secure generator, as 64 hexadecimal digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var token = ""
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            token += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
        return token
    }
}
