/// The script `serve` adds to every HTML page it serves (never to `build` output): it reloads the page
/// after a good rebuild and shows a failed rebuild's errors over the page until the next good one.
enum LiveReload {
    static let eventsPath = "/__noticeboard/events"

    static let script = """
        <script>/* noticeboard serve: live reload */(function () {
          var events = new EventSource("\(eventsPath)");
          events.addEventListener("reload", function () { location.reload(); });
          events.addEventListener("failure", function (event) {
            var overlay = document.getElementById("noticeboard-errors");
            if (!overlay) {
              overlay = document.createElement("pre");
              overlay.id = "noticeboard-errors";
              overlay.setAttribute("role", "alert");
              overlay.style.cssText = "position:fixed;inset:0;margin:0;padding:1.5rem;background:#fff8f8;color:#8a1010;font:14px/1.5 monospace;white-space:pre-wrap;overflow:auto;z-index:2147483647";
              document.body.appendChild(overlay);
            }
            var served = document.body.hasAttribute("data-no-build") ? "No build has succeeded yet."
              : "The last rebuild failed; this page is the last good build.";
            overlay.textContent = served + "\\n\\n" + event.data;
          });
        })();</script>
        """

    /// Puts the script just before `</body>`, or at the end when the page has none.
    static func inject(into html: [UInt8]) -> [UInt8] {
        let marker = Array("</body>".utf8)
        let script = Array(script.utf8)
        if let index = lastIndex(of: marker, in: html) {
            return Array(html[..<index]) + script + Array(html[index...])
        }
        return html + script
    }

    private static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
