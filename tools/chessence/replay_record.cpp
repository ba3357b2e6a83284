#include "replay_record.h"

#include <charconv>
#include <fstream>
#include <iterator>
#include <ostream>

#include "core/record.h"

namespace cli {

namespace {

using nlohmann::json;

json record_error(const std::string& message) {
    return json{{"error", {{"ply", 0}, {"move", nullptr}, {"message", message}}}};
}

// The replay input of one record, or the error line that replaces its output.
json replay_record(core::VariantId variant, core::RuleSet rules, const core::Record& record) {
    if (const auto tagged = record.tag("Variant");
        tagged && *tagged != core::variant_name(variant)) {
        return record_error("the record is a " + *tagged + " game, not " +
                            std::string(core::variant_name(variant)));
    }
    if (const auto tagged = record.tag("RuleSet")) {
        const auto parsed = core::parse_rule_set(*tagged);
        if (!parsed) {
            return record_error("unknown RuleSet \"" + *tagged + "\"");
        }
        rules = *parsed;
    }
    json input{{"moves", record.moves}};
    if (const auto fen = record.tag("FEN")) {
        input["fen"] = *fen;
    }
    if (const auto object = record.tag("Object")) {
        int value = 0;
        const auto [end, ec] =
            std::from_chars(object->data(), object->data() + object->size(), value);
        if (ec == std::errc() && end == object->data() + object->size()) {
            input["object"] = value;
        } else {
            input["object"] = *object;  // replay_line explains what an object must be
        }
    }
    json line = replay_line(variant, rules, input);
    if (line.contains("error")) {
        return line;
    }
    // The clocks the record carries: its time control and each move's %clk, as written.
    if (const auto control = record.tag("TimeControl")) {
        line["time_control"] = *control;
    }
    if (!record.clocks.empty()) {
        json clocks = json::array();
        for (const auto& clock : record.clocks) {
            clocks.push_back(clock ? json(*clock) : json(nullptr));
        }
        line["clocks"] = clocks;
    }
    return line;
}

}  // namespace

core::Expected<std::vector<core::Record>> read_record_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    const std::string text = file ? std::string(std::istreambuf_iterator<char>(file), {}) : "";
    if (!file.is_open() || file.bad()) {
        return core::make_error("cannot read record file '" + path + "'");
    }
    auto records = core::parse_records(text);
    if (!records) {
        return core::make_error(path + ": " + records.error());
    }
    return records;
}

int run_replay_record(core::VariantId variant, core::RuleSet rules, const std::string& path,
                      std::ostream& out, std::ostream& err) {
    const auto records = read_record_file(path);
    if (!records) {
        err << records.error() << "\n";
        return 1;
    }
    for (const auto& record : *records) {
        out << replay_record(variant, rules, record).dump() << "\n";
    }
    return 0;
}

}  // namespace cli
