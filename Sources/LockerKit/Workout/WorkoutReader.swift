import FoundationEssentials

/// Opens a workout file of any supported format, streaming it (never a whole-file DOM).
public enum WorkoutReader {
    /// Reads the file at `path`; errors name the file (by its last path component) and the line
    /// or byte. `progress` is called after each chunk with the share of the file read (0…1);
    /// returning false stops reading, and the read then throws `CancellationError`.
    public static func read(path: String, progress: ((Double) -> Bool)? = nil) throws -> Workout {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let stream: ByteStream
        do {
            stream = try ByteStream(path: path)
        } catch var error as WorkoutError {
            error.file = name
            throw error
        }
        if let progress {
            stream.onChunk = { read, total in progress(total > 0 ? min(1, Double(read) / Double(total)) : 0) }
        }
        do {
            let workout = try read(stream, name: name)
            if stream.cancelled { throw CancellationError() }
            return workout
        } catch {
            // A stop asked for by the caller ends the stream early, which the readers see as a
            // cut-short file: report the cancellation instead.
            if stream.cancelled { throw CancellationError() }
            throw error
        }
    }

    /// Reads a workout from bytes in memory (tests and fuzzing).
    public static func read(bytes: [UInt8], name: String) throws -> Workout {
        try read(ByteStream(bytes: bytes), name: name)
    }

    static func read(_ stream: ByteStream, name: String) throws -> Workout {
        let head = stream.prefix(64)
        if head.count >= 12, head[8] == 0x2E, head[9] == 0x46, head[10] == 0x49, head[11] == 0x54 {
            var reader = FITWorkoutReader(stream: stream, file: name)
            return try reader.read()
        }
        var first = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { first = 3; stream.position += 3 }
        while first < head.count, [0x20, 0x0A, 0x0D, 0x09].contains(head[first]) { first += 1 }
        guard first < head.count else { throw WorkoutError(file: name, line: nil, problem: .notAWorkout(.t("the file is empty"))) }
        switch head[first] {
        case 0x3C:
            var reader = XMLWorkoutReader(scanner: XMLScanner(stream: stream, file: name))
            return try reader.read()
        case 0x7B, 0x5B:
            return try JSONWorkoutReader(tokens: JSONTokenizer(stream: stream, file: name)).read()
        default:
            throw WorkoutError(file: name, line: 1, problem: .notAWorkout(.t("it starts with neither “<” nor “{” nor “[” and has no FIT header")))
        }
    }
}
