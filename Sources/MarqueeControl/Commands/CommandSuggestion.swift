/// "Did you mean" for a mistyped command name: the closest name within two
/// edits. (MarqueeConfig has the same idea for keys; the two modules do
/// not depend on each other, and this is a dozen lines.)
enum CommandSuggestion {
    static func closest(to word: String, in names: [String]) -> String? {
        guard word.count <= 40 else { return nil }
        let scored = names.map { ($0, distance(Array(word), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < word.count else { return nil }
        return best.0
    }

    /// Levenshtein distance: inserts, deletes and substitutions cost one each.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
