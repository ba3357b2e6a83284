#pragma once
// A small JSON Schema validator (a draft 2020-12 subset) for the tests: type, properties, required,
// additionalProperties, enum, const, items, minItems/maxItems, minimum/maximum,
// minLength/maxLength, oneOf/anyOf/allOf, and $ref to local files (relative to the referring file).
// Header-only so both protocol_tests and server_tests can use it.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace schema {

namespace fs = std::filesystem;
using nlohmann::json;

class Validator {
public:
    explicit Validator(fs::path root) : root_(std::move(root)) {}

    // Problems of `value` against the schema file `schema_file` (relative to the root); empty:
    // valid.
    std::vector<std::string> validate(const json& value, const std::string& schema_file) {
        std::vector<std::string> errors;
        const fs::path file = root_ / schema_file;
        check(value, load(file), file.parent_path(), "$", errors);
        return errors;
    }

    // A protocol message against <root>/<direction>/<type>.json; direction "client" or "server".
    std::vector<std::string> validate_message(const json& message, std::string_view direction) {
        if (!message.is_object() || !message.contains("type") || !message["type"].is_string()) {
            return {"a message is an object with a string `type`"};
        }
        const std::string file =
            std::string(direction) + "/" + message["type"].get<std::string>() + ".json";
        if (!fs::exists(root_ / file)) {
            return {"no schema " + file};
        }
        return validate(message, file);
    }

private:
    const json& load(const fs::path& file) {
        const auto key = fs::weakly_canonical(file).string();
        auto it = cache_.find(key);
        if (it != cache_.end()) {
            return it->second;
        }
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        json parsed = json::parse(text.str(), nullptr, false);
        if (!in || parsed.is_discarded()) {
            parsed = json{{"$error", "cannot read schema " + file.string()}};
        }
        return cache_.emplace(key, std::move(parsed)).first->second;
    }

    static std::size_t code_points(const std::string& text) {
        std::size_t n = 0;
        for (unsigned char c : text) {
            n += (c & 0xC0) != 0x80;
        }
        return n;
    }

    static bool has_type(const json& v, const std::string& type) {
        if (type == "object")
            return v.is_object();
        if (type == "array")
            return v.is_array();
        if (type == "string")
            return v.is_string();
        if (type == "boolean")
            return v.is_boolean();
        if (type == "null")
            return v.is_null();
        if (type == "number")
            return v.is_number();
        if (type == "integer") {
            return v.is_number_integer() ||
                   (v.is_number_float() &&
                    v.get<double>() ==
                        static_cast<double>(static_cast<long long>(v.get<double>())));
        }
        return false;
    }

    bool matches(const json& v, const json& schema, const fs::path& base) {
        std::vector<std::string> scratch;
        check(v, schema, base, "", scratch);
        return scratch.empty();
    }

    void check(const json& v, const json& schema, const fs::path& base, const std::string& at,
               std::vector<std::string>& errors) {
        if (schema.is_boolean()) {
            if (!schema.get<bool>()) {
                errors.push_back(at + ": not allowed");
            }
            return;
        }
        if (!schema.is_object()) {
            errors.push_back(at + ": schema is not an object");
            return;
        }
        if (schema.contains("$error")) {
            errors.push_back(at + ": " + schema["$error"].get<std::string>());
            return;
        }
        if (auto ref = schema.find("$ref"); ref != schema.end()) {
            const auto target = ref->get<std::string>();
            if (target.empty() || target[0] == '#') {
                errors.push_back(at + ": only file references are supported: " + target);
                return;
            }
            const fs::path file = base / target;
            check(v, load(file), file.parent_path(), at, errors);
        }
        if (auto type = schema.find("type"); type != schema.end()) {
            bool ok = false;
            if (type->is_string()) {
                ok = has_type(v, type->get<std::string>());
            } else {
                for (const auto& t : *type) {
                    ok = ok || has_type(v, t.get<std::string>());
                }
            }
            if (!ok) {
                errors.push_back(at + ": expected type " + type->dump() + ", got " + v.dump());
                return;
            }
        }
        if (auto c = schema.find("const"); c != schema.end() && *c != v) {
            errors.push_back(at + ": expected " + c->dump() + ", got " + v.dump());
        }
        if (auto e = schema.find("enum"); e != schema.end()) {
            bool found = false;
            for (const auto& option : *e) {
                found = found || option == v;
            }
            if (!found) {
                errors.push_back(at + ": " + v.dump() + " is not one of " + e->dump());
            }
        }
        if (v.is_string()) {
            const auto n = code_points(v.get<std::string>());
            if (schema.contains("minLength") && n < schema["minLength"].get<std::size_t>()) {
                errors.push_back(at + ": string shorter than " + schema["minLength"].dump());
            }
            if (schema.contains("maxLength") && n > schema["maxLength"].get<std::size_t>()) {
                errors.push_back(at + ": string longer than " + schema["maxLength"].dump());
            }
        }
        if (v.is_number()) {
            if (schema.contains("minimum") && v.get<double>() < schema["minimum"].get<double>()) {
                errors.push_back(at + ": " + v.dump() + " below " + schema["minimum"].dump());
            }
            if (schema.contains("maximum") && v.get<double>() > schema["maximum"].get<double>()) {
                errors.push_back(at + ": " + v.dump() + " above " + schema["maximum"].dump());
            }
        }
        if (v.is_object()) {
            const json empty = json::object();
            const json& props = schema.contains("properties") ? schema["properties"] : empty;
            for (const auto& name : schema.value("required", json::array())) {
                if (!v.contains(name.get<std::string>())) {
                    errors.push_back(at + ": missing " + name.get<std::string>());
                }
            }
            for (const auto& [key, value] : v.items()) {
                if (props.contains(key)) {
                    check(value, props[key], base, at + "." + key, errors);
                } else if (schema.contains("additionalProperties")) {
                    check(value, schema["additionalProperties"], base, at + "." + key, errors);
                }
            }
        }
        if (v.is_array()) {
            if (schema.contains("minItems") && v.size() < schema["minItems"].get<std::size_t>()) {
                errors.push_back(at + ": fewer than " + schema["minItems"].dump() + " items");
            }
            if (schema.contains("maxItems") && v.size() > schema["maxItems"].get<std::size_t>()) {
                errors.push_back(at + ": more than " + schema["maxItems"].dump() + " items");
            }
            if (schema.contains("items")) {
                for (std::size_t i = 0; i < v.size(); ++i) {
                    check(v[i], schema["items"], base, at + "[" + std::to_string(i) + "]", errors);
                }
            }
        }
        if (auto one = schema.find("oneOf"); one != schema.end()) {
            int count = 0;
            for (const auto& option : *one) {
                count += matches(v, option, base) ? 1 : 0;
            }
            if (count != 1) {
                errors.push_back(at + ": matches " + std::to_string(count) +
                                 " of the oneOf choices, not exactly one");
            }
        }
        if (auto any = schema.find("anyOf"); any != schema.end()) {
            bool found = false;
            for (const auto& option : *any) {
                found = found || matches(v, option, base);
            }
            if (!found) {
                errors.push_back(at + ": matches none of the anyOf choices: " + v.dump());
            }
        }
        if (auto all = schema.find("allOf"); all != schema.end()) {
            for (const auto& option : *all) {
                check(v, option, base, at, errors);
            }
        }
    }

    fs::path root_;
    std::map<std::string, json> cache_;
};

// The repository's protocol schemas.
inline fs::path protocol_schema_root() {
    return fs::path(CHESSENCE_SOURCE_DIR) / "docs" / "schema";
}

}  // namespace schema
