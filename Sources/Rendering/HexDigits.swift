/// ASCII `0`–`9`, `a`–`f`, indexed by value: for `\u00XX` escapes in JSON and SHA-256 digests in hex.
let lowercaseHexDigits = Array("0123456789abcdef".utf8)
