import LocatedYAML
import SiteModel

/// Reads the settings mapping of a config or schema file: known keys with typed getters, unknown keys reported.
struct MappingReader {
    let node: YAMLNode
    private let pairs: [YAMLPair]

    /// Reports an error and returns nil when `node` is not a mapping.
    init?(_ node: YAMLNode, what: String, problems: inout Problems) {
        guard case .mapping(let pairs) = node.content else {
            problems.error(node, "\(what) must be a mapping of settings, not \(node.summary)")
            return nil
        }
        self.node = node
        self.pairs = pairs
    }

    func value(_ key: String) -> YAMLNode? {
        pairs.first { $0.name == key }.map(\.value).flatMap { $0.isNull ? nil : $0 }
    }

    func reportUnknownKeys(known: [String], what: String, problems: inout Problems) {
        for pair in pairs where !known.contains(pair.name) {
            problems.error(
                pair.key, "unknown setting '\(shortened(pair.name))' in \(what)\(suggestion(for: pair.name, among: known))")
        }
    }

    func string(_ key: String, problems: inout Problems) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.scalar else {
            problems.error(value, "'\(key)' must be text, not \(value.summary)")
            return nil
        }
        return text
    }

    /// A setting that must be given, as text that is not blank (`title: "  "` names nothing).
    func requiredString(_ key: String, problems: inout Problems) -> String? {
        guard let text = string(key, problems: &problems) else {
            if value(key) == nil { problems.error(node, "missing required setting '\(key)'") }
            return nil
        }
        guard !isBlank(text) else {
            problems.error(value(key) ?? node, "'\(key)' must not be blank")
            return nil
        }
        return text
    }

    func bool(_ key: String, problems: inout Problems) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .scalar(let text, .plain) = value.content, let flag = parseBool(text) else {
            problems.error(value, "'\(key)' must be true or false, not \(value.summary)")
            return nil
        }
        return flag
    }

    func int(_ key: String, in range: ClosedRange<Int>, problems: inout Problems) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .scalar(let text, .plain) = value.content, let number = Int(text), range.contains(number) else {
            problems.error(
                value, "'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(value.summary)")
            return nil
        }
        return number
    }

    func number(_ key: String, problems: inout Problems) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .scalar(let text, .plain) = value.content, let number = Double(text), abs(number) <= Double(NumberLimit.magnitude) else {
            problems.error(value, "'\(key)' must be a number from -\(NumberLimit.magnitude) to \(NumberLimit.magnitude), not \(value.summary)")
            return nil
        }
        return number
    }

    func stringList(_ key: String, problems: inout Problems) -> [(String, YAMLNode)]? {
        guard let value = value(key) else { return nil }
        guard case .sequence(let items) = value.content else {
            problems.error(value, "'\(key)' must be a list, not \(value.summary)")
            return nil
        }
        var result: [(String, YAMLNode)] = []
        for item in items {
            guard let text = item.scalar, !item.isNull else {
                problems.error(item, "each item of '\(key)' must be text, not \(item.summary)")
                continue
            }
            result.append((text, item))
        }
        return result
    }
}

func parseBool(_ text: String) -> Bool? {
    switch text {
    case "true", "True", "TRUE": return true
    case "false", "False", "FALSE": return false
    default: return nil
    }
}

/// Names that templates and URLs can carry as they are: `hourly_rate`, `cleaners`.
func isIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
    return name.utf8.allSatisfy {
        ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            || $0 == UInt8(ascii: "_")
    }
}
