#pragma once
// The command-line style of gcbench's tools (gcbench, gcbench-report, gcbench-corpus), on CLI11:
// --flag=value and --flag value, a repeated flag's last value wins, lists are comma-separated,
// an error is one line naming the flag and what it allows, and --help shows the tool's usage
// lines, its description, its flags and its footer, in that order.
#include <CLI/CLI.hpp>

#include "src/cli/given_flag.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gcbench::cli {

// A parser for `tool` whose --help begins with `usage` (its command lines) and `description`.
// `help_column`: where flag descriptions start.
std::unique_ptr<CLI::App> make_app(const std::string& tool, const std::string& usage,
                                   const std::string& description, std::size_t help_column = 22);

// Splits "a,b,c"; an empty item is a std::invalid_argument.
std::vector<std::string> split_list(const std::string& text);

// `flag VALUE`, handed to `use`; a std::invalid_argument from `use` is this flag's error.
CLI::Option* add_value(CLI::App& app, const std::string& flag, const std::string& value_name,
                       std::function<void(const std::string&)> use, const std::string& help);

// `flag LIST` (comma-separated, no empty items) into `target`.
CLI::Option* add_list(CLI::App& app, const std::string& flag, std::vector<std::string>& target,
                      const std::string& help);

// `flag VALUE`, one of `choices`, into `target`; a value not among them names the closest.
CLI::Option* add_choice(CLI::App& app, const std::string& flag, std::string& target,
                        const std::vector<std::string>& choices, const std::string& help);

// `flag` alone sets `target` to `value`; `flag=anything` is an error.
CLI::Option* add_switch(CLI::App& app, const std::string& flag, bool& target, bool value,
                        const std::string& help);

// The flags of `app` that its last parse was given, in the order `app` defines them, whichever
// form they had (--flag=value, --flag value, repeated).
std::vector<GivenFlag> given_flags(const CLI::App& app);

// Parses `args` (without the program name). Throws std::invalid_argument with one line:
// CLI11's message for the flag at fault, the known flag (of `app` or `also_known`, "--help")
// an unknown one is close to, and where to look.
void parse(CLI::App& app, const std::vector<std::string>& args,
           const std::vector<std::string>& also_known = {});

// For a tool's main(): parses argv. Returns the status to exit with now: 0 after printing
// --help to stdout, `usage_status` after printing "<tool>: <error> (see <tool> --help)" to
// stderr; std::nullopt when the tool should go on.
std::optional<int> parse_or_exit(CLI::App& app, int argc, char** argv, int usage_status);

}  // namespace gcbench::cli
