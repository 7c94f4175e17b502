#include "src/cli/command_line.hpp"

#include "src/cli/suggest.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string_view>

namespace gcbench::cli {
namespace {

// CLI11's layout with the tool's own usage lines in place of its generated one, and the
// description after them.
class Formatter : public CLI::Formatter {
 public:
  explicit Formatter(std::string usage) : usage_(std::move(usage)) {}

  std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    return usage_ + "\n" + make_description(app) + make_positionals(app) + make_groups(app, mode) +
           make_subcommands(app, mode) + "\n" + make_footer(app);
  }

 private:
  std::string usage_;
};

// The flags of `app` ("--corpus") and `also_known`.
std::vector<std::string> known_flags(const CLI::App& app,
                                     const std::vector<std::string>& also_known) {
  std::vector<std::string> known;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) known.push_back("--" + name);
  }
  known.insert(known.end(), also_known.begin(), also_known.end());
  return known;
}

// For each unknown flag among `extras` that is close to a known one: "did you mean" it.
std::string suggestions(const std::vector<std::string>& extras,
                        const std::vector<std::string>& known) {
  std::vector<std::pair<std::string, std::string>> said;  // (flag, suggestion)
  for (const std::string& arg : extras) {
    if (!arg.starts_with("-")) continue;
    const std::string flag = arg.substr(0, arg.find('='));
    if (std::string text = did_you_mean(flag, known); !text.empty()) said.emplace_back(flag, text);
  }
  if (said.size() == 1) return said.front().second;
  std::string text;
  for (const auto& [flag, suggestion] : said) text += " (" + flag + ": " + suggestion.substr(2);
  return text;
}

// CLI11's message, except where CLI11 2.1's own is unclear: arguments nobody expected in the
// order given (it reverses them, and says nothing of the flag meant), a value given to a
// switch, and a missing value.
std::string message_of(const CLI::App& app, const CLI::ParseError& error,
                       const std::vector<std::string>& also_known) {
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    const std::vector<std::string> remaining = app.remaining(true);
    std::string extras;
    for (const std::string& arg : remaining) extras += (extras.empty() ? "" : " ") + arg;
    return "unknown flag or stray argument: " + extras +
           suggestions(remaining, known_flags(app, also_known));
  }
  const std::string what = error.what();
  constexpr std::string_view kSwitchValue = " was given a disallowed flag override";
  if (what.ends_with(kSwitchValue)) {
    return "--" + what.substr(0, what.size() - kSwitchValue.size()) + " takes no value";
  }
  const std::size_t missing = what.find(": 1 required ");
  if (missing != std::string::npos && what.ends_with(" missing")) {
    return what.substr(0, missing) + " needs a value";
  }
  return what;
}

}  // namespace

std::unique_ptr<CLI::App> make_app(const std::string& tool, const std::string& usage,
                                   const std::string& description, std::size_t help_column) {
  auto app = std::make_unique<CLI::App>(description, tool);
  auto formatter = std::make_shared<Formatter>(usage);
  formatter->column_width(help_column);
  app->formatter(formatter);
  // Scripts append flags to a command line that already has them: the last one wins.
  app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  return app;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(',', start);
    std::string item = text.substr(start, end == std::string::npos ? end : end - start);
    if (item.empty()) throw std::invalid_argument("empty item in '" + text + "'");
    items.push_back(std::move(item));
    if (end == std::string::npos) return items;
    start = end + 1;
  }
}

CLI::Option* add_value(CLI::App& app, const std::string& flag, const std::string& value_name,
                       std::function<void(const std::string&)> use, const std::string& help) {
  auto checked = [flag, use = std::move(use)](const std::string& value) {
    try {
      use(value);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError(flag, e.what());
    }
  };
  return app.add_option_function<std::string>(flag, checked, help)->option_text(value_name);
}

CLI::Option* add_list(CLI::App& app, const std::string& flag, std::vector<std::string>& target,
                      const std::string& help) {
  return add_value(
      app, flag, "LIST", [&target](const std::string& value) { target = split_list(value); }, help);
}

CLI::Option* add_choice(CLI::App& app, const std::string& flag, std::string& target,
                        const std::vector<std::string>& choices, const std::string& help) {
  std::string value_name;
  for (const std::string& c : choices) value_name += (value_name.empty() ? "" : "|") + c;
  // CLI::IsMember's message, with the choice meant.
  const auto is_choice = [choices](const std::string& value) -> std::string {
    if (std::find(choices.begin(), choices.end(), value) != choices.end()) return "";
    std::string set;
    for (const std::string& c : choices) set += (set.empty() ? "" : ",") + c;
    return value + " not in {" + set + "}" + did_you_mean(value, choices);
  };
  return app.add_option(flag, target, help)
      ->check(CLI::Validator(is_choice, value_name, "choice"))
      ->option_text(value_name);
}

CLI::Option* add_switch(CLI::App& app, const std::string& flag, bool& target, bool value,
                        const std::string& help) {
  return app
      .add_flag_callback(
          flag, [&target, value] { target = value; }, help)
      ->disable_flag_override();
}

std::vector<GivenFlag> given_flags(const CLI::App& app) {
  std::vector<GivenFlag> given;
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0) continue;
    GivenFlag flag{option->get_name(), std::nullopt};
    if (option->get_expected_max() > 0) flag.value = option->results().back();
    given.push_back(std::move(flag));
  }
  return given;
}

void parse(CLI::App& app, const std::vector<std::string>& args,
           const std::vector<std::string>& also_known) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(message_of(app, e, also_known) + " (see --help)");
  }
}

std::optional<int> parse_or_exit(CLI::App& app, int argc, char** argv, int usage_status) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": " << message_of(app, e, {"--help"}) << " (see "
              << app.get_name() << " --help)\n";
    return usage_status;
  }
  return std::nullopt;
}

}  // namespace gcbench::cli
