#pragma once
// The keywords our JSON Schemas may use: those that draft 7 (valijson's) and draft 2020-12 (the
// schemas' own) define the same way. prepare() checks a schema document against that list and
// makes its "$ref"s absolute, before tests/protocol/schema_validator.h hands it to valijson.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace schema {

namespace fs = std::filesystem;
using nlohmann::json;

inline constexpr std::string_view dialect = "https://json-schema.org/draft/2020-12/schema";

// Checks one schema node (at `at` in its file) and rewrites each "$ref" to an absolute file URI
// resolved against `dir`. Problems: a keyword outside the common draft 7 / 2020-12 set, "$ref"
// beside other constraints (draft 7 ignores them), `items` as an array (2020-12's prefixItems),
// a "$schema" other than 2020-12, a "$ref" into the same file.
inline void prepare(json& node, const fs::path& dir, const std::string& at,
                    std::vector<std::string>& problems) {
    static const std::set<std::string> annotations = {"$schema", "title", "description"};
    static const std::set<std::string> assertions = {"type", "enum", "const", "required", "$ref"};
    static const std::set<std::string> bounds = {
        "minimum",   "maximum",   "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "minItems",         "maxItems"};
    static const std::set<std::string> one_schema = {"items", "additionalProperties", "not"};
    static const std::set<std::string> schema_lists = {"anyOf", "oneOf", "allOf"};
    if (node.is_boolean()) {
        return;
    }
    if (!node.is_object()) {
        problems.push_back(at + ": a schema is an object or a boolean");
        return;
    }
    for (auto& [key, value] : node.items()) {
        const std::string here = at + "/" + key;
        if (key == "properties") {
            if (!value.is_object()) {
                problems.push_back(here + ": must be an object of schemas");
                continue;
            }
            for (auto& [name, property] : value.items()) {
                prepare(property, dir, here + "/" + name, problems);
            }
        } else if (one_schema.count(key)) {
            prepare(value, dir, here, problems);
        } else if (schema_lists.count(key)) {
            if (!value.is_array() || value.empty()) {
                problems.push_back(here + ": must be a non-empty array of schemas");
                continue;
            }
            for (std::size_t i = 0; i < value.size(); ++i) {
                prepare(value[i], dir, here + "/" + std::to_string(i), problems);
            }
        } else if (key == "$schema" && value != dialect) {
            problems.push_back(here + ": only " + std::string(dialect) + " is supported");
        } else if (!annotations.count(key) && !assertions.count(key) && !bounds.count(key)) {
            problems.push_back(here + ": unsupported keyword `" + key + "`");
        }
    }
    if (auto ref = node.find("$ref"); ref != node.end()) {
        for (const auto& [key, value] : node.items()) {
            if (key != "$ref" && !annotations.count(key)) {
                problems.push_back(at + ": `" + key + "` beside $ref (draft 7 would ignore it)");
            }
        }
        const std::string target = ref->is_string() ? ref->get<std::string>() : "";
        const auto hash = target.find('#');
        const std::string file = target.substr(0, hash);
        if (file.empty()) {
            problems.push_back(at + "/$ref: only references to other files are supported");
            return;
        }
        *ref = "file://" + fs::weakly_canonical(dir / file).string() +
               (hash == std::string::npos ? "" : target.substr(hash));
    }
}

}  // namespace schema
