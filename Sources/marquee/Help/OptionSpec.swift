/// One option of a command as its help shows it. A command's parser reads
/// only the options its command declares (`ArgumentParser` checks), so the
/// help cannot leave one out or list one that does not exist.
struct OptionSpec: Sendable {
    /// Where the option shows in the help, in this order.
    enum Group: String, Sendable, CaseIterable {
        case input, display, audio, decoding, control, diagnostics
    }

    let name: String
    /// The value's form ("N", "auto|vaapi|software"); nil for a switch.
    let value: String?
    /// What applies when the option is not given; nil for a switch.
    let defaultText: String?
    let group: Group
    /// One line on what it does.
    let help: String

    /// An option that takes a value.
    init(_ name: String, _ value: String, default defaultText: String? = nil, _ group: Group, _ help: String) {
        self.name = name
        self.value = value
        self.defaultText = defaultText
        self.group = group
        self.help = help
    }

    /// A switch.
    init(_ name: String, _ group: Group, _ help: String) {
        self.name = name
        value = nil
        defaultText = nil
        self.group = group
        self.help = help
    }

    /// `[--loops N]`, as the usage line shows it.
    var usage: String { "[\(name)\(value.map { " \($0)" } ?? "")]" }

    /// The literal values an enumerated option takes (`auto|vaapi|software`),
    /// for completion; placeholders (`ID`, `file:DIR`, `WxH[@HZ]`) are left out.
    var choices: [String] {
        guard let value, value.contains("|") else { return [] }
        return value.split(separator: "|").map(String.init).filter { choice in
            !choice.contains("[") && !zip(choice, choice.dropFirst()).contains { $0.isUppercase && $1.isUppercase }
        }
    }
}

/// A command's help: usage, what it does, and every option by group with
/// its value form, default and one line.
enum CommandHelp {
    static func text(name: String, usage: String, summary: String, options: [OptionSpec]) -> String {
        var lines = ["usage: marquee \(usage)", "", summary]
        for group in OptionSpec.Group.allCases {
            let members = options.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            lines += ["", "\(group.rawValue):"]
            for option in members {
                lines.append("  \(option.name)\(option.value.map { " \($0)" } ?? "")")
                lines.append("      \(option.help)" + (option.defaultText.map { " (default: \($0))" } ?? ""))
            }
        }
        lines += ["", "  -h, --help", "      this help"]
        return lines.joined(separator: "\n")
    }
}
