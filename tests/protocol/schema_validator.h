#pragma once
// JSON Schema validation for the tests, by valijson (Debian libvalijson-dev, draft 7). Our schemas
// are draft 2020-12 and use only keywords that both drafts read the same way; every schema file is
// checked against that list when it is loaded, so a keyword valijson would silently ignore makes
// the schema unusable (every value fails with the reason) instead. "$ref"s name files relative to
// the referring file. Compiled schemas are cached; validate() may be called from any thread.
// Header-only so both protocol_tests and server_tests can use it.
#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1  // a broken schema throws instead of aborting the test program
#endif

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/schema_keywords.h"
// GCC 12 reports a false -Wrestrict and -Wstringop-overflow inside valijson's string handling
// (std::string::replace, inlined at -O3); clang has no such warning.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace schema {

namespace fs = std::filesystem;
using nlohmann::json;

class Validator {
public:
    explicit Validator(fs::path root) : root_(std::move(root)) {}

    // Problems of `value` against the schema file `schema_file` (relative to the root); empty:
    // valid. A schema that cannot be read or uses an unsupported keyword is always a problem.
    std::vector<std::string> validate(const json& value, const std::string& schema_file) {
        const Compiled& compiled = compile(root_ / schema_file);
        if (!compiled.schema) {
            return compiled.problems;
        }
        valijson::Validator validator;
        valijson::ValidationResults results;
        if (validator.validate(*compiled.schema, valijson::adapters::NlohmannJsonAdapter(value),
                               &results)) {
            return {};
        }
        std::vector<std::string> errors;
        valijson::ValidationResults::Error error;
        while (results.popError(error)) {
            std::string where;
            for (const auto& part : error.context) {
                where += part;
            }
            errors.push_back(where + ": " + error.description);
        }
        return errors;
    }

    // Why the schema file cannot be used (unreadable, an unsupported keyword, …); empty: usable.
    std::vector<std::string> schema_problems(const std::string& schema_file) {
        return compile(root_ / schema_file).problems;
    }

    // A protocol message against <root>/<direction>/<type>.json; direction "client" or "server".
    std::vector<std::string> validate_message(const json& message, std::string_view direction) {
        if (!message.is_object() || !message.contains("type") || !message["type"].is_string()) {
            return {"a message is an object with a string `type`"};
        }
        const std::string file =
            std::string(direction) + "/" + message["type"].get<std::string>() + ".json";
        if (!compile(root_ / file).readable) {
            return {"no schema " + file};
        }
        return validate(message, file);
    }

private:
    struct Compiled {
        bool readable = false;                     // the file itself could be read and parsed
        std::unique_ptr<valijson::Schema> schema;  // null when the file is unusable
        std::vector<std::string> problems;
    };

    // The schema file, read and checked, its references made absolute; null if unreadable.
    static std::unique_ptr<json> load(const fs::path& file, std::vector<std::string>& problems) {
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        auto parsed = std::make_unique<json>(json::parse(text.str(), nullptr, false));
        if (!in || parsed->is_discarded()) {
            problems.push_back("cannot read schema " + file.string());
            return nullptr;
        }
        prepare(*parsed, file.parent_path(), file.string() + "#", problems);
        return parsed;
    }

    // The compiled schema of `file`, from the cache (keyed by the path as given: no file system
    // calls once compiled, which keeps per-frame validation fast).
    const Compiled& compile(const fs::path& file) {
        const auto key = file.lexically_normal().string();
        std::lock_guard lock(mutex_);
        if (auto it = cache_.find(key); it != cache_.end()) {
            return it->second;
        }
        Compiled compiled;
        try {
            const auto document = load(key, compiled.problems);
            compiled.readable = document != nullptr;
            if (document && compiled.problems.empty()) {
                auto parsed = std::make_unique<valijson::Schema>();
                valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
                parser.populateSchema(
                    valijson::adapters::NlohmannJsonAdapter(*document), *parsed,
                    [&](const std::string& uri) -> const json* {
                        const auto path = uri.rfind("file://", 0) == 0 ? uri.substr(7) : uri;
                        return load(path, compiled.problems).release();
                    },
                    [](const json* fetched) { delete fetched; });
                if (compiled.problems.empty()) {
                    compiled.schema = std::move(parsed);
                }
            }
        } catch (const std::exception& e) {
            compiled.problems.push_back(key + ": " + e.what());
        }
        return cache_.emplace(key, std::move(compiled)).first->second;
    }

    fs::path root_;
    std::mutex mutex_;
    std::map<std::string, Compiled> cache_;  // std::map: references stay valid
};

// The repository's protocol schemas.
inline fs::path protocol_schema_root() {
    return fs::path(CHESSENCE_SOURCE_DIR) / "docs" / "schema";
}

}  // namespace schema
