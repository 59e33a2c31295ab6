/// `marquee completion bash`: a bash completion script for commands, their
/// options, the values of enumerated options, and files, made from the same
/// option lists as the help and the parsers.
struct CompletionCommand: Subcommand {
    static let name = "completion"
    static let operands = "bash"
    static let options: [OptionSpec] = []
    static let summary = "Print a bash completion script (source it, or install it as /usr/share/bash-completion/completions/marquee)."

    init(parsing parser: inout ArgumentParser) throws {
        guard try parser.positional() == ["bash"] else { throw UsageError("completion takes one shell: bash") }
    }

    func run() async -> Int32 {
        print(Self.bash(commands: MarqueeCommandLine.commands))
        return 0
    }

    static func bash(commands: [CommandEntry]) -> String {
        let names = commands.map(\.name).joined(separator: " ")
        let perCommand = commands.map { command in
            let values = command.options.compactMap { option -> String? in
                if !option.choices.isEmpty {
                    return "            \(option.name)) COMPREPLY=($(compgen -W '\(option.choices.joined(separator: " "))' -- \"$cur\")); return ;;"
                }
                guard let value = option.value else { return nil }
                let takesFile = ["PATH", "FILE", "DIR"].contains { value.contains($0) }
                return "            \(option.name)) \(takesFile ? "COMPREPLY=($(compgen -f -- \"$cur\")); " : "")return ;;"
            }
            let flags = (command.options.map(\.name) + ["--help"]).joined(separator: " ")
            return """
                    \(command.name))
                        case "$prev" in
                \(values.joined(separator: "\n"))
                        esac
                        if [[ "$cur" == -* ]]; then
                            COMPREPLY=($(compgen -W '\(flags)' -- "$cur"))
                        else
                            COMPREPLY=($(compgen -f -- "$cur"))
                        fi ;;
                """
        }
        return """
            # bash completion for marquee (marquee completion bash)
            _marquee() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W '\(names) help --help --version' -- "$cur"))
                    return
                fi
                case "${COMP_WORDS[1]}" in
                    help) [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W '\(names)' -- "$cur")) ;;
            \(perCommand.joined(separator: "\n"))
                esac
            }
            complete -o filenames -F _marquee marquee
            """
    }
}
