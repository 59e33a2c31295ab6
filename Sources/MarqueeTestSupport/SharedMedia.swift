import Foundation

/// The real-world files in ../shared/media (beside the clone in CI), listed in MANIFEST.tsv.
public enum SharedMedia {
    public static var directory: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/media").path
    }

    public struct Entry: Sendable, CustomStringConvertible {
        public let path: String
        /// What is odd about the file, from the manifest's `case` column.
        public let note: String
        public var description: String { (path as NSString).lastPathComponent }
    }

    public static func manifest() throws -> [Entry] {
        let text = try String(contentsOfFile: "\(directory)/MANIFEST.tsv", encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 6 else { return nil }
            return Entry(path: "\(directory)/\(columns[0])", note: String(columns[5]))
        }
    }
}
