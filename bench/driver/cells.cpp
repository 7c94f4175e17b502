#include "bench/driver/cells.hpp"

#include "src/cli/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace gcbench::driver {
namespace {

bool device_wanted(const std::string& device, Device d) {
  return device == "all" || device == to_string(d);
}

results::CellId make_id(const CodecInfo& info, Direction dir, const InputFile& input,
                        const Params& params) {
  results::CellId id{info.name,
                     to_string(info.device),
                     dir == Direction::compress ? "compress" : "decompress",
                     input.corpus,
                     input.name,
                     {}};
  for (const AxisSpec& axis : info.axes)
    id.params.emplace_back(axis.name, axis.format(params.at(axis.name)));
  return id;
}

// The axes given, and for a typed input (a .npy array, a tpch column) its element width as
// the one value of element_width where the codec accepts it and the axis is not given.
AxisValues axes_for(const CodecInfo& info, const InputFile& input, const AxisValues& given) {
  AxisValues axes = given;
  if (!input.element_width || given.count(std::string(kElementWidthAxis)) > 0) return axes;
  for (const AxisSpec& axis : info.axes) {
    if (axis.name != kElementWidthAxis) continue;
    if (!axis.accepts(*input.element_width)) {
      // A typed array of a width the codec has no natural reading for (float64 for fl and rle)
      // is not measured at widths it does not hold without the user saying so.
      throw std::invalid_argument(fmt::format(
          "{}/{}: its elements are {} bytes wide, and {}/{} reads {}; choose one with "
          "--element-width (or leave {} out with --codecs)",
          input.corpus, input.name, *input.element_width, info.name, to_string(info.device),
          axis.valid_values(), info.name));
    }
    axes[axis.name] = {std::to_string(*input.element_width)};
  }
  return axes;
}

}  // namespace

std::vector<const Codec*> select_codecs(const std::vector<const Codec*>& all,
                                        const std::vector<std::string>& tokens,
                                        const std::string& device) {
  std::vector<const Codec*> out;
  for (const std::string& token : tokens) {
    bool matched = false;
    for (const Codec* c : all) {
      const CodecInfo& info = c->info();
      bool in_group = token == "all" || token == to_string(info.device) ||
                      token == to_string(info.role) || token == info.name;
      if (!in_group) continue;
      matched = true;
      if (device_wanted(device, info.device) && std::find(out.begin(), out.end(), c) == out.end()) {
        out.push_back(c);
      }
    }
    if (!matched) {
      std::vector<std::string> names{"all", "cpu", "gpu", "peers", "baselines"};
      for (const Codec* c : all) {
        if (std::find(names.begin(), names.end(), c->info().name) == names.end()) {
          names.push_back(c->info().name);
        }
      }
      throw std::invalid_argument(fmt::format("--codecs: '{}' names no codec{} (choose from {})",
                                              token, cli::did_you_mean(token, names),
                                              fmt::join(names, ", ")));
    }
  }
  return out;
}

namespace {

const AxisSpec* axis_of(const Codec& codec, const std::string& name) {
  const auto& axes = codec.info().axes;
  const auto it =
      std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == name; });
  return it == axes.end() ? nullptr : &*it;
}

// Throws naming `codec` and `flag` when `codec`'s axis cannot take one of `values`.
void check_values(const Codec& codec, const AxisSpec& axis, const std::vector<std::string>& values,
                  const std::string& flag) {
  for (const std::string& value : values) {
    bool ok = true;
    try {
      ok = axis.accepts(axis.parse(value));
    } catch (const ParamError&) {
      ok = false;
    }
    if (!ok) {
      throw std::invalid_argument(fmt::format("{} {}: {}/{} takes {} (choose its own, with -e)",
                                              flag, value, codec.info().name,
                                              to_string(codec.info().device),
                                              axis.valid_values()));
    }
  }
}

}  // namespace

void check_axis_flags(const std::vector<const Codec*>& selected, const AxisValues& given,
                      const AxisValues& codec_levels) {
  for (const auto& [axis, values] : given) {
    bool known = false;
    for (const Codec* c : selected) {
      const AxisSpec* spec = axis_of(*c, axis);
      if (spec == nullptr) continue;
      known = true;
      // A codec at its own levels (-e) takes those instead.
      const auto own = codec_levels.find(c->info().name);
      if (axis == "level" && own != codec_levels.end() && !own->second.empty()) continue;
      check_values(*c, *spec, values, axis_flag(axis));
    }
    if (!known) {
      throw std::invalid_argument(axis_flag(axis) +
                                  ": unknown flag, and no selected codec has an axis '" + axis +
                                  "' (see --list)");
    }
  }
  for (const auto& [name, levels] : codec_levels) {
    if (levels.empty()) continue;
    for (const Codec* c : selected) {
      if (c->info().name != name) continue;
      const AxisSpec* level = axis_of(*c, "level");
      if (level == nullptr) {
        throw std::invalid_argument(fmt::format("-e {},{}: {}/{} has no levels", name,
                                                levels.front(), name,
                                                to_string(c->info().device)));
      }
      check_values(*c, *level, levels, "-e " + name + ",");
    }
  }
}

std::vector<CellSpec> enumerate_cells(const std::vector<const Codec*>& selected,
                                      const std::vector<const Codec*>& all,
                                      const std::vector<InputFile>& inputs,
                                      const Options& options) {
  // Codec names in first-seen order, CPU before GPU within a name, so that a GPU cell finds
  // the CPU reference container of the same point recently computed.
  std::vector<const Codec*> ordered = selected;
  auto family_rank = [&](const Codec* c) {
    auto first = std::find_if(selected.begin(), selected.end(),
                              [&](const Codec* s) { return s->info().name == c->info().name; });
    return first - selected.begin();
  };
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Codec* a, const Codec* b) {
    return std::pair(family_rank(a), a->info().device) <
           std::pair(family_rank(b), b->info().device);
  });

  std::vector<Direction> directions;
  if (options.direction != "decompress") directions.push_back(Direction::compress);
  if (options.direction != "compress") directions.push_back(Direction::decompress);

  const Sweep sweep = parse_sweep(options.sweep);
  std::vector<CellSpec> cells;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (const Codec* codec : ordered) {
      const CodecInfo& info = codec->info();
      // A GPU codec's CPU reference: the one it names (CodecInfo::cpu_reference), else the CPU
      // codec of its own name.
      const Codec* reference = nullptr;
      if (info.device == Device::gpu) {
        const std::string& name = info.cpu_reference.empty() ? info.name : info.cpu_reference;
        auto it = std::find_if(all.begin(), all.end(), [&](const Codec* c) {
          return c->info().name == name && c->info().device == Device::cpu;
        });
        if (it != all.end()) reference = *it;
      }
      AxisValues given = options.axis_values;
      if (const auto own = options.codec_levels.find(info.name);
          own != options.codec_levels.end() && !own->second.empty()) {
        given["level"] = own->second;  // -e: this codec's own levels
      }
      for (const Params& point : param_points(info, axes_for(info, inputs[i], given), sweep)) {
        Params resolved = resolve_params(info.axes, point);
        for (Direction dir : directions) {
          CellSpec cell{
              make_id(info, dir, inputs[i], resolved), "", codec, reference, resolved, dir, i};
          cell.name = results::format_cell_name(cell.id);
          cells.push_back(std::move(cell));
        }
      }
    }
  }
  return cells;
}

}  // namespace gcbench::driver
