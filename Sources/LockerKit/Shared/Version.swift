/// Locker's version, printed by `locker --version`.
public enum LockerVersion {
    public static let current = "0.1.0"
}
