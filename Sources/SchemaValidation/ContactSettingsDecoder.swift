import Foundation
import LocatedYAML
import SiteModel

/// Checks the `contact:` block of `content/site.yaml`: where the contact-request form posts, and which of the
/// site's `kinds` show it.
func decodeContactSettings(_ node: YAMLNode?, siteKinds: [String], problems: inout Problems) -> ContactSettings? {
    guard let node else { return nil }
    guard let settings = MappingReader(node, what: "'contact'", problems: &problems) else { return nil }
    settings.reportUnknownKeys(known: ["endpoint", "kinds"], what: "'contact'", problems: &problems)
    let endpoint = settings.requiredString("endpoint", problems: &problems)
    if let endpoint, let endpointNode = settings.value("endpoint"), !isContactEndpoint(endpoint) {
        problems.error(
            endpointNode,
            "'endpoint' must be an absolute https URL (a form service or your relay; http only on localhost or 127.0.0.1), or a path on this site such as /contact/send, without a user name, password or backslash, not '\(shortened(endpoint))'"
        )
    }
    var kinds: [String] = []
    var kindLocations: [SourceLocation] = []
    if let list = settings.stringList("kinds", problems: &problems) {
        for (name, kindNode) in list {
            if !siteKinds.contains(name) {
                problems.error(kindNode, "'contact' names the kind '\(shortened(name))', which is not in 'kinds'\(suggestion(for: name, among: siteKinds))")
            } else if kinds.contains(name) {
                problems.error(kindNode, "kind '\(name)' is listed twice in 'contact'")
            } else {
                kinds.append(name)
                kindLocations.append(SourceLocation(file: problems.file, line: kindNode.line, column: kindNode.column))
            }
        }
        if list.isEmpty, let kindsNode = settings.value("kinds") { problems.error(kindsNode, "'kinds' in 'contact' must name at least one kind") }
    } else if settings.value("kinds") == nil {
        problems.error(node, "missing required setting 'kinds' in 'contact': the kinds whose listing pages show the form")
    }
    guard let endpoint else { return nil }
    return ContactSettings(endpoint: endpoint, kinds: kinds, kindLocations: kindLocations)
}

/// An https URL; http only to the publisher's own machine, to try a relay before it goes live; or a path on
/// the site's host (`/contact/send`), for a relay behind the same server.
private func isContactEndpoint(_ text: String) -> Bool {
    // Browsers read `\` as `/`, so `/\host/x`, like `//host/x`, would post the visitor's details to another host.
    if text.hasPrefix("/") {
        return !text.hasPrefix("//") && !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" }
    }
    guard isValidURL(text), let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else { return false }
    // A user name or password in the address would be published in every form.
    guard components.user == nil, components.password == nil, !text.contains("\\") else { return false }
    return scheme == "https" || ["localhost", "127.0.0.1", "[::1]", "::1"].contains(components.host?.lowercased() ?? "")
}
