/// A table while the document is being read. TOML's rules on what may be
/// added to a table depend on how the table came to exist, so each builder
/// remembers its `origin`; once parsing ends it becomes an immutable `TOMLTable`.
final class TOMLTableBuilder {
    enum Origin {
        /// The document itself.
        case root
        /// Named by a `[header]` (or an element of `[[header]]`): closed to
        /// a second header and to dotted keys from other tables.
        case header
        /// Created only as the parent of a header (`[a]` by `[a.b]`): a
        /// later `[a]` may still define it, once.
        case implicit
        /// Created by a dotted key (`a.b = 1` creates `a`): only more dotted
        /// keys of the same table may add to it; a header may add sub-tables.
        case dotted
        /// An inline table: closed once its `}` is read.
        case inline
    }

    enum Slot {
        case value(TOMLValue)
        case table(TOMLTableBuilder)
        /// `[[name]]`: each header appends a table.
        case tableArray([TOMLTableBuilder], location: SourceLocation)
    }

    var origin: Origin
    var location: SourceLocation
    private(set) var keys: [String] = []
    private var slots: [String: (slot: Slot, keyLocation: SourceLocation)] = [:]

    init(origin: Origin, at location: SourceLocation) {
        self.origin = origin
        self.location = location
    }

    subscript(key: String) -> Slot? { slots[key]?.slot }

    func set(_ key: String, _ slot: Slot, keyLocation: SourceLocation) {
        if slots[key] == nil { keys.append(key) }
        slots[key] = (slot, keyLocation)
    }

    func appendToArray(_ key: String, _ table: TOMLTableBuilder) {
        guard let (slot, keyLocation) = slots[key], case .tableArray(var tables, let location) = slot else { return }
        slots[key] = nil  // drop the array's reference so the append does not copy it
        tables.append(table)
        slots[key] = (.tableArray(tables, location: location), keyLocation)
    }

    func build() -> TOMLTable {
        var table = TOMLTable()
        for key in keys {
            guard let (slot, keyLocation) = slots[key] else { continue }
            let value: TOMLValue = switch slot {
            case .value(let value): value
            case .table(let builder): TOMLValue(.table(builder.build()), at: builder.location)
            case .tableArray(let builders, let location):
                TOMLValue(.array(builders.map { TOMLValue(.table($0.build()), at: $0.location) }), at: location)
            }
            table.set(key, value, keyLocation: keyLocation)
        }
        return table
    }
}
