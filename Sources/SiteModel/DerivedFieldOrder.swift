/// The order derived fields are computed in, across kinds: each after every derived field it reads, on its
/// own listing or on others (gathered, looked up, or sorted by to gather). Kinds may read each other where
/// their fields do not: a room's priority from its tasks' urgency, and a task's room priority looked up
/// from its room. Fields that read each other in a loop have no order (`Loop`).
public struct DerivedFieldOrder: Sendable {
    /// One kind's fields computed together, in order: none reads another's value on other listings of the kind.
    public struct Run: Sendable {
        public let kind: String
        public let fields: [DerivedField]

        public init(kind: String, fields: [DerivedField]) {
            self.kind = kind
            self.fields = fields
        }
    }

    public let runs: [Run]

    /// A derived field as a node of the order.
    struct Node: Hashable {
        let kind: String
        let field: String
    }

    /// Derived fields that read each other round a loop, each reading the next and the last the first.
    public struct Loop: Error, Sendable {
        public let fields: [(kind: String, field: DerivedField)]
    }

    /// In the order the kinds come in (`schemas`, after the kinds they read) and as each schema declares its
    /// fields, where what they read allows.
    public init(_ schemas: [KindSchema]) throws(Loop) {
        let byName = Dictionary(schemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let preferred = Self.kindOrder(schemas).flatMap { schema in schema.derived.map { (schema, $0) } }
        var reads: [Node: Set<Node>] = [:]
        for (schema, field) in preferred { reads[Node(kind: schema.name, field: field.name)] = Self.reads(field, of: schema, in: byName) }
        var done: Set<Node> = [], runs: [Run] = [], current: Run?
        var pending = preferred
        while !pending.isEmpty {
            guard let next = pending.firstIndex(where: { reads[Node(kind: $0.0.name, field: $0.1.name)]!.isSubset(of: done) }) else {
                throw Self.loop(among: pending.map { Node(kind: $0.0.name, field: $0.1.name) }, reads: reads, byName: byName)
            }
            let (schema, field) = pending.remove(at: next)
            let node = Node(kind: schema.name, field: field.name)
            // A field that reads one of its own run on other listings of its kind needs that run finished.
            if let run = current, run.kind != schema.name || Self.readsOtherListings(of: run.fields, field, of: schema, in: byName) {
                runs.append(run)
                current = nil
            }
            current = Run(kind: schema.name, fields: (current?.fields ?? []) + [field])
            done.insert(node)
        }
        if let run = current { runs.append(run) }
        self.runs = runs
    }

    /// The kinds in site order, each after the kinds its derived fields read unless those read it in turn.
    private static func kindOrder(_ schemas: [KindSchema]) -> [KindSchema] {
        var pending = schemas, ordered: [KindSchema] = []
        while !pending.isEmpty {
            let ready = pending.firstIndex { schema in
                !kindsRead(by: schema).contains { kind in kind != schema.name && pending.contains { $0.name == kind } }
            } ?? 0
            ordered.append(pending.remove(at: ready))
        }
        return ordered
    }

    /// The kinds whose listings a kind's derived fields read.
    public static func kindsRead(by schema: KindSchema) -> [String] {
        schema.derived.compactMap { derived in
            if derived.operation.gathers { return derived.from }
            if case .lookup = derived.operation, case .reference(let target)? = schema.field(named: derived.via ?? "")?.type { return target }
            return nil
        }
    }

    /// The derived fields `field` reads, of any kind.
    static func reads(_ field: DerivedField, of schema: KindSchema, in schemas: [String: KindSchema]) -> Set<Node> {
        let own = ownReads(field).filter { name in schema.derived.contains { $0.name == name } }.map { Node(kind: schema.name, field: $0) }
        guard let other = otherKind(field, of: schema, in: schemas) else { return Set(own) }
        let names = othersRead(field, of: schema, in: schemas)
        return Set(own + other.derived.filter { names.contains($0.name) }.map { Node(kind: other.name, field: $0.name) })
    }

    /// Whether `field` reads one of `fields` (its own kind's) on other listings of its kind.
    private static func readsOtherListings(of fields: [DerivedField], _ field: DerivedField, of schema: KindSchema, in schemas: [String: KindSchema]) -> Bool {
        guard otherKind(field, of: schema, in: schemas)?.name == schema.name else { return false }
        let names = othersRead(field, of: schema, in: schemas)
        return fields.contains { names.contains($0.name) }
    }

    /// The kind whose listings a gathering field or a lookup reads.
    private static func otherKind(_ field: DerivedField, of schema: KindSchema, in schemas: [String: KindSchema]) -> KindSchema? {
        if field.operation.gathers { return field.from.flatMap { schemas[$0] } }
        guard case .lookup = field.operation, case .reference(let target)? = schema.field(named: field.via ?? "")?.type else { return nil }
        return schemas[target]
    }

    /// The names of the fields a gathering field or a lookup reads on the other listings: those it gathers or
    /// looks up, and for `sum_by`, whose equal totals keep the order of the listings, that kind's sort fields.
    /// (A count, sum, minimum or maximum is the same in any order, and an average within its last bit.) A
    /// gathered list holds the listings whole, so it reads all their fields, except the lists of that kind that
    /// gather this one's listings: those would hold the list being made (a list of a kind's own listings does
    /// not hold itself, nor the kind's other lists of its own listings).
    static func othersRead(_ field: DerivedField, of schema: KindSchema, in schemas: [String: KindSchema]) -> Set<String> {
        guard let other = otherKind(field, of: schema, in: schemas) else { return [] }
        switch field.operation {
        case .count: return []
        case .average(let name, _), .bayesianAverage(let name, _, _, _), .sum(let name), .minimum(let name), .maximum(let name):
            return [name]
        case .sumBy(let group, let name): return Set([group, name] + other.sort.map(\.field))
        case .list: return Set(other.derived.filter { !($0.operation.isList && $0.from == schema.name) }.map(\.name))
        case .lookup(let name): return [name]
        case .daysSince, .ratio, .times, .atLeast: return []
        }
    }

    /// The fields of its own listing that an operation on the listing itself reads.
    private static func ownReads(_ field: DerivedField) -> [String] {
        switch field.operation {
        case .daysSince(let name), .times(let name, _, _), .atLeast(let name, _): return [name]
        case .ratio(let numerator, let denominator, _): return [numerator, denominator]
        case .count, .average, .bayesianAverage, .sum, .minimum, .maximum, .list, .sumBy, .lookup: return []
        }
    }

    /// A loop among `nodes` (none of which can be computed first), from the first of them.
    private static func loop(among nodes: [Node], reads: [Node: Set<Node>], byName: [String: KindSchema]) -> Loop {
        var path: [Node] = [nodes[0]]
        while true {
            let last = path[path.count - 1]
            // Each node left reads another node left (or it could be computed).
            let next = nodes.first { reads[last]!.contains($0) }!
            if let start = path.firstIndex(of: next) {
                return Loop(fields: path[start...].compactMap { node in
                    byName[node.kind]?.derived.first { $0.name == node.field }.map { (node.kind, $0) }
                })
            }
            path.append(next)
        }
    }
}
