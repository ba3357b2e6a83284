#include "protocol/schema_validator.h"

#include <gtest/gtest.h>

#include <fstream>

namespace {

using nlohmann::json;

class SchemaValidator : public ::testing::Test {
protected:
    void SetUp() override {
        root_ =
            std::filesystem::temp_directory_path() /
            ("schema_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(root_ / "sub" / "inner");
        write("sub/name.json", R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                                   "type": "string", "minLength": 1,
                                   "allOf": [{"$ref": "inner/short.json"}]})");
        write("sub/inner/short.json", R"({"maxLength": 3})");
        write("thing.json", R"({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "a thing",
            "type": "object",
            "properties": {
                "kind": {"const": "thing"},
                "name": {"$ref": "sub/name.json"},
                "size": {"type": "integer", "minimum": 1, "maximum": 9},
                "color": {"enum": ["red", "blue"]},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2},
                "either": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                "maybe": {"anyOf": [{"type": "null"}, {"type": "boolean"}]},
                "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                "never": {"not": {}},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}
            },
            "required": ["kind", "name"],
            "additionalProperties": false
        })");
    }
    void TearDown() override { std::filesystem::remove_all(root_); }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(root_ / name) << text;
    }
    bool valid(const json& value) {
        schema::Validator validator(root_);
        return validator.validate(value, "thing.json").empty();
    }
    // The problems a schema file has before any value is looked at (valid or not, a value fails).
    std::vector<std::string> broken(const std::string& text) {
        write("broken.json", text);
        schema::Validator validator(root_);
        auto problems = validator.validate(json(1), "broken.json");
        EXPECT_EQ(validator.validate(json("x"), "broken.json"), problems);
        return problems;
    }

    std::filesystem::path root_;
};

TEST_F(SchemaValidator, AcceptsAConformingValue) {
    EXPECT_TRUE(valid({{"kind", "thing"},
                       {"name", "ab"},
                       {"size", 3},
                       {"color", "red"},
                       {"tags", {"x", "y"}},
                       {"either", "s"},
                       {"maybe", nullptr},
                       {"counts", {{"a", 1}}}}));
}

TEST_F(SchemaValidator, RejectsEachViolation) {
    const json base = {{"kind", "thing"}, {"name", "ab"}};
    EXPECT_TRUE(valid(base));
    EXPECT_FALSE(valid(json::array()));                        // type
    EXPECT_FALSE(valid({{"kind", "thing"}}));                  // required
    EXPECT_FALSE(valid({{"kind", "other"}, {"name", "ab"}}));  // const
    auto with = [&](const char* key, json value) {
        json v = base;
        v[key] = std::move(value);
        return valid(v);
    };
    EXPECT_FALSE(with("name", ""));                   // minLength through $ref
    EXPECT_FALSE(with("name", "abcd"));               // maxLength through a $ref in the $ref
    EXPECT_TRUE(with("name", "\u265e\u265e\u265e"));  // lengths count code points
    EXPECT_FALSE(with("name", 5));                    // type through $ref
    EXPECT_FALSE(with("size", 0));                    // minimum
    EXPECT_FALSE(with("size", 10));                   // maximum
    EXPECT_FALSE(with("size", 2.5));                  // integer
    EXPECT_FALSE(with("size", "3"));                  // no weak typing
    EXPECT_FALSE(with("color", "green"));             // enum
    EXPECT_FALSE(with("tags", {"a", 1}));             // items
    EXPECT_FALSE(with("tags", json::array()));        // minItems
    EXPECT_FALSE(with("tags", {"a", "b", "c"}));      // maxItems
    EXPECT_FALSE(with("either", true));               // oneOf: none
    EXPECT_FALSE(with("maybe", 3));                   // anyOf
    EXPECT_FALSE(with("counts", {{"a", "x"}}));       // additionalProperties as a schema
    EXPECT_FALSE(with("never", 1));                   // not
    EXPECT_FALSE(with("extra", 1));                   // additionalProperties: false
    EXPECT_FALSE(with("ratio", 0));                   // exclusiveMinimum
    EXPECT_FALSE(with("ratio", 1));                   // exclusiveMaximum
    EXPECT_TRUE(with("ratio", 0.5));
    EXPECT_TRUE(with("size", 9));
}

TEST_F(SchemaValidator, ErrorsSayWhereAndWhat) {
    schema::Validator validator(root_);
    const auto errors =
        validator.validate({{"kind", "thing"}, {"name", "ab"}, {"size", 12}}, "thing.json");
    ASSERT_FALSE(errors.empty());
    std::string all;
    for (const auto& e : errors) {
        all += e + "\n";
    }
    EXPECT_NE(all.find("size"), std::string::npos) << all;
}

// A keyword the validator does not implement the same way in draft 7 and 2020-12 makes the
// schema fail loudly, never silently pass.
TEST_F(SchemaValidator, UnsupportedSchemasFailLoudly) {
    auto says = [](const std::vector<std::string>& problems, const std::string& text) {
        for (const auto& p : problems) {
            if (p.find(text) != std::string::npos) {
                return true;
            }
        }
        return false;
    };
    EXPECT_TRUE(says(broken(R"({"type": "string", "pattern": "^a"})"), "`pattern`"));
    EXPECT_TRUE(says(broken(R"({"type": "object", "requird": ["a"]})"), "`requird`"));
    EXPECT_TRUE(says(broken(R"({"properties": {"a": {"prefixItems": [true]}}})"), "`prefixItems`"));
    EXPECT_TRUE(says(broken(R"({"items": [{"type": "string"}]})"), "/items"));
    EXPECT_TRUE(says(broken(R"({"$ref": "sub/name.json", "maxLength": 1})"), "beside $ref"));
    EXPECT_TRUE(says(broken(R"({"$ref": "#/$defs/x", "$defs": {"x": true}})"), "other files"));
    EXPECT_TRUE(
        says(broken(R"({"$schema": "http://json-schema.org/draft-07/schema#"})"), "2020-12"));
    EXPECT_TRUE(says(broken(R"({"anyOf": []})"), "non-empty array"));
    EXPECT_TRUE(says(broken(R"({"$ref": "nowhere.json"})"), "nowhere.json"));
    EXPECT_TRUE(says(broken(R"({"type": )"), "cannot read schema"));
    // A broken file reached through a $ref breaks the schema that refers to it.
    write("sub/bad.json", R"({"type": "string", "format": "email"})");
    EXPECT_TRUE(says(broken(R"({"allOf": [{"$ref": "sub/bad.json"}]})"), "`format`"));
}

TEST_F(SchemaValidator, OneOfRejectsTwoMatches) {
    write("two.json", R"({"oneOf": [{"type": "integer"}, {"type": "number"}]})");
    schema::Validator validator(root_);
    EXPECT_FALSE(validator.validate(json(3), "two.json").empty());
    EXPECT_TRUE(validator.validate(json(3.5), "two.json").empty());
}

TEST_F(SchemaValidator, MissingSchemaIsAnError) {
    schema::Validator validator(root_);
    EXPECT_FALSE(validator.validate(json(1), "nothing.json").empty());
    EXPECT_FALSE(validator.validate_message({{"type", "nothing"}}, "client").empty());
}

TEST(ProtocolSchemas, AreAllReadableAndSelfConsistent) {
    namespace fs = std::filesystem;
    schema::Validator validator(schema::protocol_schema_root());
    int count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(schema::protocol_schema_root())) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        ++count;
        const auto relative =
            std::filesystem::relative(entry.path(), schema::protocol_schema_root()).string();
        const auto problems = validator.schema_problems(relative);
        EXPECT_TRUE(problems.empty()) << relative << ": " << problems.front();
        std::ifstream in(entry.path());
        const auto schema = json::parse(in, nullptr, false);
        ASSERT_FALSE(schema.is_discarded()) << entry.path();
        EXPECT_EQ(schema.value("$schema", ""), "https://json-schema.org/draft/2020-12/schema")
            << entry.path();
    }
    EXPECT_GT(count, 40);
    // A value of the wrong shape is refused by every message schema (so none is accidentally open).
    for (const auto* direction : {"client", "server"}) {
        for (const auto& entry :
             fs::directory_iterator(schema::protocol_schema_root() / direction)) {
            const auto relative = std::string(direction) + "/" + entry.path().filename().string();
            EXPECT_FALSE(validator.validate(json{{"type", "zzz"}}, relative).empty()) << relative;
        }
    }
}

}  // namespace
