// `chessence-server admin --grant/--revoke NAME` on a database file (server/admin_command.h).
#include "server/admin_command.h"

#include <gtest/gtest.h>

#include <future>
#include <sstream>

#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"

namespace {

struct Run {
    int code = 0;
    std::string out;
    std::string err;
};

Run admin(const std::vector<std::string>& args, const std::string& db) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = server::run_admin_command(args, db, out, err);
    return {code, out.str(), err.str()};
}

class AdminCommand : public ::testing::Test {
protected:
    void SetUp() override {
        auto store = server::open_sqlite_store(db_);
        ASSERT_TRUE(store.ok());
        std::promise<core::Status> done;
        (*store)->commit({server::InsertPlayer{{"p_ann", "Ann", std::string(64, 'a'), 1}},
                          server::CreateAccount{{"p_ann", "Ann", "$argon2id$x", false, 1}}},
                         [&](core::Status s) { done.set_value(std::move(s)); });
        ASSERT_TRUE(done.get_future().get());
    }

    bool is_admin() {
        auto store = server::open_sqlite_store(db_);
        return store && (*store)->account("p_ann").value().value_or(server::AccountRecord{}).admin;
    }

    storage_test::TempDir dir_;
    std::string db_ = dir_.file("chessence.db");
};

TEST_F(AdminCommand, GrantsAndRevokesByUsernameInAnyCase) {
    EXPECT_TRUE(server::is_admin_command({"admin", "--grant", "ann"}));
    EXPECT_FALSE(server::is_admin_command({"--port", "0"}));
    const auto granted = admin({"admin", "--grant", "ANN"}, db_);
    EXPECT_EQ(granted.code, 0) << granted.err;
    EXPECT_NE(granted.out.find("Ann (p_ann) is an admin"), std::string::npos) << granted.out;
    EXPECT_TRUE(is_admin());
    EXPECT_EQ(admin({"admin", "--db", db_, "--revoke", "ann"}, "elsewhere.db").code, 0);
    EXPECT_FALSE(is_admin());
}

TEST_F(AdminCommand, BadCommandsAndUnknownAccountsFailWithAMessage) {
    const auto unknown = admin({"admin", "--grant", "nobody"}, db_);
    EXPECT_EQ(unknown.code, 1);
    EXPECT_NE(unknown.err.find("no account named nobody"), std::string::npos) << unknown.err;
    EXPECT_EQ(admin({"admin"}, db_).code, 2);
    EXPECT_EQ(admin({"admin", "--grant", "ann", "--revoke", "ann"}, db_).code, 2);
    EXPECT_EQ(admin({"admin", "--frobnicate"}, db_).code, 2);
    EXPECT_EQ(admin({"admin", "--grant", "ann"}, ":memory:").code, 2);
    EXPECT_FALSE(is_admin());
}

}  // namespace
