// toml-decoder: the decoder side of the toml-test protocol
// (https://github.com/toml-lang/toml-test): TOML on stdin, the tagged JSON
// of the document on stdout and exit 0; or, for an invalid document, the
// error on stderr and exit 1.
import Foundation
import MarqueeConfig

let input = FileHandle.standardInput.readDataToEndOfFile()
do {
    let table = try TOML.parse(utf8: Array(input), file: "<stdin>")
    FileHandle.standardOutput.write(Data((TOMLTaggedJSON.encode(table) + "\n").utf8))
    exit(0)
} catch {
    FileHandle.standardError.write(Data("toml-decoder: \(error)\n".utf8))
    exit(1)
}
