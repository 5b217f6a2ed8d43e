import Mustache
import SiteModel

/// Renders a site's compiled templates into bytes with swift-mustache's semantics (`MustacheTemplate.render` and
/// `getChild`): the same lookups up the stack of section values, the same truthiness, transforms, partial
/// indentation and block overrides, so the bytes are the library's. Values are `TemplateValue`s, matched by
/// case rather than cast from `Any`.
struct TemplateRenderer {
    private let program: TemplateProgram
    /// For `longdate`, the one transform of ours that needs the site (its language).
    private let dates: DateText
    private var stack: [TemplateValue]
    private(set) var output: [UInt8] = []

    /// What a template's tags render within, beside the stack of values.
    private struct Scope {
        var position: SequencePosition?
        var indentation: String?
        var overrides: [String: Run<TemplateNode>]?
        /// A place in the program's `escapings`.
        var escaping: Int32 = 0
    }

    init(program: TemplateProgram, dates: DateText, context: Value) {
        self.init(program: program, dates: dates, root: .value(context))
    }

    /// `room`: bytes the output will hold beyond a page's usual 32 KB.
    init(program: TemplateProgram, dates: DateText, page: PageContext, room: Int = 0) {
        self.init(program: program, dates: dates, root: .context(page), room: room)
    }

    private init(program: TemplateProgram, dates: DateText, root: TemplateValue, room: Int = 0) {
        self.program = program
        self.dates = dates
        stack = [root]
        output.reserveCapacity(32 * 1024 + room)
    }

    mutating func render(_ name: String) {
        guard let template = program.templates[name] else { return }
        render(template, Scope())
    }

    private mutating func render(_ template: Run<TemplateNode>, _ scope: Scope) {
        var scope = scope
        let start = output.count
        guard let indentation = scope.indentation, !indentation.isEmpty else {
            for index in template.indices { render(program.nodes[index], &scope) }
            return
        }
        // A partial's indentation goes before each node's output that starts a line of this template's own.
        for index in template.indices {
            let before = output.count
            render(program.nodes[index], &scope)
            if output.count > before, endsLine(at: before, since: start) {
                output.insert(contentsOf: indentation.utf8, at: before)
            }
        }
    }

    /// Whether the text from `start` to `end` ends with a newline Character ("\r\n" is one Character, not "\n").
    private func endsLine(at end: Int, since start: Int) -> Bool {
        end > start && output[end - 1] == UInt8(ascii: "\n") && !(end - 2 >= start && output[end - 2] == UInt8(ascii: "\r"))
    }

    private mutating func render(_ node: TemplateNode, _ scope: inout Scope) {
        switch node {
        case .text(let text):
            program.appendText(text, to: &output)
        case .variable(let name, let escaped):
            guard let value = lookUp(name, scope) else { return }
            if escaped { escape(value, scope.escaping) } else { output += value.renderText.utf8 }
        case .section(let name, let body, let inverted):
            let value = lookUp(name, scope)
            if inverted { renderInverted(value, body, scope) } else { renderSection(value, body, scope) }
        case .partial(let place):
            let tag = program.partials[Int(place)]
            guard let template = program.templates[tag.name] else { return }
            let inherited = scope.overrides.map { outer in outer.merging(tag.overrides ?? [:]) { outerBlock, _ in outerBlock } } ?? tag.overrides
            render(template, Scope(indentation: indented(scope, by: tag.indentation), overrides: inherited))
        case .block(let place):
            let block = program.blocks[Int(place)]
            render(scope.overrides?[block.name] ?? block.defaultBody,
                   Scope(indentation: indented(scope, by: block.indentation), overrides: scope.overrides, escaping: scope.escaping))
        case .escaping(let place):
            scope.escaping = place
        }
    }

    private func indented(_ scope: Scope, by indentation: String?) -> String? {
        indentation.map { (scope.indentation ?? "") + $0 } ?? scope.indentation
    }

    private mutating func renderSection(_ value: TemplateValue?, _ body: Run<TemplateNode>, _ scope: Scope) {
        switch value {
        case .list(let items): renderItems(items, body, scope)
        case .reversedList(let items): renderItems(items, body, scope)
        case .madeList(let items): renderItems(items, body, scope)
        case .flag(let flag): if flag { render(body, scope) }
        case .value(.null), nil: break
        case let value?: renderPushing(value, body, scope)
        }
    }

    private mutating func renderInverted(_ value: TemplateValue?, _ body: Run<TemplateNode>, _ scope: Scope) {
        switch value {
        case .list(let items): if items.isEmpty { renderPushing(.list(items), body, scope) }
        case .reversedList(let items): if items.isEmpty { renderPushing(.reversedList(items), body, scope) }
        case .madeList(let items): if items.isEmpty { renderPushing(.madeList(items), body, scope) }
        case .flag(let flag): if !flag { render(body, scope) }
        case .value(.null), nil: render(body, scope)
        case .some: break
        }
    }

    private mutating func renderItems(_ items: some Collection<Value>, _ body: Run<TemplateNode>, _ scope: Scope) {
        var inner = scope
        var position = SequencePosition(first: true, last: false, index: 0)
        for (offset, item) in items.enumerated() {
            position.first = offset == 0
            position.last = offset == items.count - 1
            position.index = offset
            inner.position = position
            stack.append(.value(item))
            render(body, inner)
            stack.removeLast()
        }
    }

    private mutating func renderPushing(_ value: TemplateValue, _ body: Run<TemplateNode>, _ scope: Scope) {
        var inner = scope
        inner.position = nil
        stack.append(value)
        render(body, inner)
        stack.removeLast()
    }

    private mutating func escape(_ value: TemplateValue, _ escaping: Int32) {
        switch (program.escapings[Int(escaping)], value) {
        case (.html, .value(.string(let text))): HTMLEscaping().escape(text, into: &output)
        case (.html, _): HTMLEscaping().escape(value.renderText, into: &output)
        case (.other(let contentType), _): output += contentType.escapeText(value.renderText).utf8
        }
    }

    /// The value a tag's name gives, its transforms applied; nil where the library finds nothing.
    private func lookUp(_ name: TagName, _ scope: Scope) -> TemplateValue? {
        var transforms = name.transforms.indices
        var found: TemplateValue?
        switch name.start {
        case .current:
            found = stack.last
        case .position:
            guard let position = scope.position, let first = transforms.popFirst() else { return nil }
            found = position.transformed(by: program.words[first])
        case .innermost:
            found = stack.last.flatMap { descend(from: $0, name.path.indices) }
        case .anyLevel:
            guard let first = name.path.indices.first else { return stack.last }
            // The innermost value that has the first name is where the rest of the path is read, even if it fails there.
            for frame in stack.reversed() {
                if let child = frame.child(named: program.words[first]) {
                    found = descend(from: child, name.path.indices.dropFirst())
                    break
                }
            }
        }
        for transform in transforms {
            found = found?.transformed(by: program.words[transform], dates: dates)
        }
        return found
    }

    /// `path`: places in the program's `words`.
    private func descend(from value: TemplateValue, _ path: Range<Int>) -> TemplateValue? {
        var value = value
        for place in path {
            guard let child = value.child(named: program.words[place]) else { return nil }
            value = child
        }
        return value
    }
}
