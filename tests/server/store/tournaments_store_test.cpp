// Issue 43: tournaments on every store (tournament_records.h). A tournament reads back as created;
// its events are gapless and read in order; a gap, an overwrite or an unknown tournament fails the
// whole batch; the status changes keep the podium unless given; the lists keep their orders,
// filters and limits; a creator's tournaments are counted from a time on; a tournament game keeps
// its tournament and berserk flag.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace {

using server::AppendTournamentEvents;
using server::CreateTournament;
using server::SetTournamentStatus;
using server::Store;
using server::TournamentQuery;
using server::TournamentRecord;

// A tournament `id` of `kind` starting at `starts` (ends an hour later), created at `created`.
TournamentRecord tournament_of(const std::string& id, const std::string& kind = "arena",
                               std::int64_t starts = 10'000, std::int64_t created = 1'000) {
    TournamentRecord t;
    t.id = id;
    t.kind = kind;
    t.name = "Hourly " + id;
    t.variant = "chesica";
    t.created_by = "p_a";
    t.config_json = R"({"minutes":60,"berserk":true})";
    t.starts_at = starts;
    t.ends_at = starts + 3'600'000;
    t.created_at = created;
    return t;
}

// The ids of `list`, in its order.
std::vector<std::string> ids_of(const std::vector<TournamentRecord>& list) {
    std::vector<std::string> ids;
    for (const auto& t : list) {
        ids.push_back(t.id);
    }
    return ids;
}

class StoredTournaments : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        auto opened = test::fresh_store(GetParam(), dir_);
        ASSERT_TRUE(opened.ok()) << opened.error();
        store_ = std::move(*opened);
        ASSERT_TRUE(store_->insert_player({"p_a", "Ann", "hash-a", 1}).ok());
        ASSERT_TRUE(store_->insert_player({"p_b", "Bob", "hash-b", 1}).ok());
    }
    // A game between p_a and p_b created at `created`, of tournament `tournament`.
    static server::GameRecord game_of(const std::string& id, std::int64_t created,
                                      const std::string& tournament = "",
                                      bool berserkable = false) {
        server::GameRecord game;
        game.id = id;
        game.variant = "chesica";
        game.rules = "house";
        game.seats = {"p_a", "p_b"};
        game.created_at = created;
        game.tournament_id = tournament;
        game.berserkable = berserkable;
        return game;
    }
    std::vector<std::string> listed(const std::string& status, const std::string& kind = "",
                                    int limit = 50) {
        auto list = store_->tournaments(TournamentQuery{status, kind, limit});
        EXPECT_TRUE(list.ok()) << (list.ok() ? "" : list.error());
        return list.ok() ? ids_of(*list) : std::vector<std::string>{"(failed)"};
    }
    storage_test::TempDir dir_;
    std::unique_ptr<Store> store_;
};

TEST_P(StoredTournaments, CreatedAndReadBackEqual) {
    auto t = tournament_of("t_1");
    t.password_hash = std::string(64, 'a');
    t.players = 3;
    t.winner_json = R"([{"player_id":"p_a"}])";
    ASSERT_TRUE(store_->commit_sync({CreateTournament{t}}).ok());
    const auto back = store_->tournament("t_1");
    ASSERT_TRUE(back.ok()) << back.error();
    ASSERT_TRUE(back->has_value());
    EXPECT_EQ(**back, t);
    const auto none = store_->tournament("t_none");
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_FALSE(none->has_value());
    const auto again = store_->commit_sync({CreateTournament{tournament_of("t_1", "swiss")}});
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().find("t_1 already exists"), std::string::npos) << again.error();
    EXPECT_EQ(store_->tournament("t_1").value()->kind, "arena");
}

TEST_P(StoredTournaments, AnUnknownKindOrStatusIsRefused) {
    EXPECT_FALSE(store_->commit_sync({CreateTournament{tournament_of("t_1", "knockout")}}).ok());
    auto bad_status = tournament_of("t_2");
    bad_status.status = "paused";
    EXPECT_FALSE(store_->commit_sync({CreateTournament{bad_status}}).ok());
    EXPECT_FALSE(store_->tournament("t_1").value().has_value());
    EXPECT_FALSE(store_->tournament("t_2").value().has_value());
    ASSERT_TRUE(store_->commit_sync({CreateTournament{tournament_of("t_3")}}).ok());
    EXPECT_FALSE(store_->commit_sync({SetTournamentStatus{"t_3", "paused", 0, ""}}).ok());
    EXPECT_EQ(store_->tournament("t_3").value()->status, "created");
}

TEST_P(StoredTournaments, EventsAreReadInOrderAfterAVersion) {
    ASSERT_TRUE(store_
                    ->commit_sync({CreateTournament{tournament_of("t_1")},
                                   AppendTournamentEvents{"t_1", 1, {"{\"n\":1}", "{\"n\":2}"}}})
                    .ok());
    ASSERT_TRUE(
        store_->commit_sync({AppendTournamentEvents{"t_1", 3, {"{\"n\":3}", "{\"n\":4}"}}}).ok());
    const auto all = store_->tournament_events("t_1");
    ASSERT_TRUE(all.ok()) << all.error();
    ASSERT_EQ(all->size(), 4u);
    for (std::size_t i = 0; i < all->size(); ++i) {
        EXPECT_EQ((*all)[i].version, static_cast<std::int64_t>(i + 1));
        EXPECT_EQ((*all)[i].json, "{\"n\":" + std::to_string(i + 1) + "}");
    }
    const auto later = store_->tournament_events("t_1", 2);
    ASSERT_TRUE(later.ok()) << later.error();
    EXPECT_EQ(*later,
              (std::vector<server::StoredTournamentEvent>{{3, "{\"n\":3}"}, {4, "{\"n\":4}"}}));
    EXPECT_TRUE(store_->tournament_events("t_1", 4).value().empty());
    EXPECT_TRUE(store_->tournament_events("t_none").value().empty());
}

TEST_P(StoredTournaments, AGapAnOverwriteOrAnUnknownTournamentFailsTheWholeBatch) {
    ASSERT_TRUE(store_
                    ->commit_sync({CreateTournament{tournament_of("t_1")},
                                   AppendTournamentEvents{"t_1", 1, {"{}", "{}"}}})
                    .ok());
    // A gap: the game paired in the same batch is not written either.
    const auto gap = store_->commit_sync({server::CreateGame{game_of("g_1", 5, "t_1")},
                                          AppendTournamentEvents{"t_1", 4, {"{\"gap\":1}"}}});
    ASSERT_FALSE(gap.ok());
    EXPECT_NE(gap.error().find("version 4 of tournament t_1"), std::string::npos) << gap.error();
    EXPECT_FALSE(store_->game("g_1").value().has_value());
    EXPECT_TRUE(store_->tournament_games("t_1").value().empty());
    // An overwrite, after a tournament created in the same batch.
    const auto overwrite = store_->commit_sync(
        {CreateTournament{tournament_of("t_2")}, AppendTournamentEvents{"t_2", 1, {"{}"}},
         AppendTournamentEvents{"t_1", 2, {"{\"overwrite\":1}"}}});
    ASSERT_FALSE(overwrite.ok());
    EXPECT_FALSE(store_->tournament("t_2").value().has_value());
    EXPECT_TRUE(store_->tournament_events("t_2").value().empty());
    const auto kept = store_->tournament_events("t_1");
    ASSERT_TRUE(kept.ok()) << kept.error();
    EXPECT_EQ(*kept, (std::vector<server::StoredTournamentEvent>{{1, "{}"}, {2, "{}"}}));
    // No such tournament.
    const auto unknown = store_->commit_sync(
        {server::CreateGame{game_of("g_2", 5)}, AppendTournamentEvents{"t_none", 1, {"{}"}}});
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("no such tournament t_none"), std::string::npos)
        << unknown.error();
    EXPECT_FALSE(store_->game("g_2").value().has_value());
    // The next version is fine.
    EXPECT_TRUE(store_->commit_sync({AppendTournamentEvents{"t_1", 3, {"{}"}}}).ok());
}

TEST_P(StoredTournaments, AStatusChangeKeepsThePodiumUnlessGiven) {
    ASSERT_TRUE(store_->commit_sync({CreateTournament{tournament_of("t_1")}}).ok());
    ASSERT_TRUE(store_->commit_sync({SetTournamentStatus{"t_1", "started", 7, ""}}).ok());
    auto t = store_->tournament("t_1").value().value();
    EXPECT_EQ(t.status, "started");
    EXPECT_EQ(t.players, 7);
    EXPECT_EQ(t.winner_json, "");
    const std::string podium = R"([{"player_id":"p_b","score":12}])";
    ASSERT_TRUE(store_->commit_sync({SetTournamentStatus{"t_1", "finished", 8, podium}}).ok());
    ASSERT_TRUE(store_->commit_sync({SetTournamentStatus{"t_1", "finished", 9, ""}}).ok());
    t = store_->tournament("t_1").value().value();
    EXPECT_EQ(t.status, "finished");
    EXPECT_EQ(t.players, 9);
    EXPECT_EQ(t.winner_json, podium);
    const auto unknown = store_->commit_sync(
        {CreateTournament{tournament_of("t_2")}, SetTournamentStatus{"t_none", "started", 1, ""}});
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("no such tournament t_none"), std::string::npos)
        << unknown.error();
    EXPECT_FALSE(store_->tournament("t_2").value().has_value());
}

TEST_P(StoredTournaments, ListsKeepTheirOrderFilterAndLimit) {
    // Created: soonest start first; created at once, in creation order.
    ASSERT_TRUE(store_
                    ->commit_sync({CreateTournament{tournament_of("t_c3", "arena", 30'000)},
                                   CreateTournament{tournament_of("t_c1", "swiss", 10'000)},
                                   CreateTournament{tournament_of("t_c2", "arena", 20'000)},
                                   CreateTournament{tournament_of("t_c4", "arena", 20'000)}})
                    .ok());
    EXPECT_EQ(listed("created"), (std::vector<std::string>{"t_c1", "t_c2", "t_c4", "t_c3"}));
    EXPECT_EQ(listed("created", "arena"), (std::vector<std::string>{"t_c2", "t_c4", "t_c3"}));
    EXPECT_EQ(listed("created", "", 2), (std::vector<std::string>{"t_c1", "t_c2"}));
    EXPECT_EQ(listed("created", "roundrobin"), std::vector<std::string>{});
    // Started: soonest end first. Finished: newest end first.
    for (const auto& [id, starts] : std::vector<std::pair<std::string, std::int64_t>>{
             {"t_s2", 200'000}, {"t_s1", 100'000}, {"t_f1", 1'000}, {"t_f2", 2'000}}) {
        ASSERT_TRUE(
            store_->commit_sync({CreateTournament{tournament_of(id, "arena", starts)}}).ok());
        const auto status = id[2] == 's' ? "started" : "finished";
        ASSERT_TRUE(store_->commit_sync({SetTournamentStatus{id, status, 2, ""}}).ok());
    }
    EXPECT_EQ(listed("started"), (std::vector<std::string>{"t_s1", "t_s2"}));
    EXPECT_EQ(listed("finished"), (std::vector<std::string>{"t_f2", "t_f1"}));
    EXPECT_EQ(listed("finished", "", 1), (std::vector<std::string>{"t_f2"}));
    EXPECT_EQ(listed("finished", "swiss"), std::vector<std::string>{});
    EXPECT_EQ(listed("started", "", 0), std::vector<std::string>{});
}

TEST_P(StoredTournaments, UnfinishedOnesAreListedOldestCreatedFirst) {
    ASSERT_TRUE(store_
                    ->commit_sync({CreateTournament{tournament_of("t_3", "arena", 1, 300)},
                                   CreateTournament{tournament_of("t_1", "arena", 9, 100)},
                                   CreateTournament{tournament_of("t_2", "swiss", 5, 200)},
                                   CreateTournament{tournament_of("t_4", "arena", 5, 50)}})
                    .ok());
    ASSERT_TRUE(store_
                    ->commit_sync({SetTournamentStatus{"t_2", "started", 2, ""},
                                   SetTournamentStatus{"t_4", "finished", 2, "[]"}})
                    .ok());
    const auto unfinished = store_->unfinished_tournaments();
    ASSERT_TRUE(unfinished.ok()) << unfinished.error();
    EXPECT_EQ(ids_of(*unfinished), (std::vector<std::string>{"t_1", "t_2", "t_3"}));
}

TEST_P(StoredTournaments, TheTournamentsACreatorMadeAreCountedFromATime) {
    auto by_b = tournament_of("t_b", "arena", 1, 5'000);
    by_b.created_by = "p_b";
    auto by_server = tournament_of("t_server", "arena", 1, 5'000);
    by_server.created_by = "";
    ASSERT_TRUE(store_
                    ->commit_sync({CreateTournament{tournament_of("t_1", "arena", 1, 1'000)},
                                   CreateTournament{tournament_of("t_2", "arena", 1, 5'000)},
                                   CreateTournament{tournament_of("t_3", "swiss", 1, 9'000)},
                                   CreateTournament{by_b}, CreateTournament{by_server}})
                    .ok());
    const auto since = [&](const std::string& player, std::int64_t at) {
        auto count = store_->tournaments_created_since(player, at);
        EXPECT_TRUE(count.ok()) << (count.ok() ? "" : count.error());
        return count.ok() ? *count : -1;
    };
    EXPECT_EQ(since("p_a", 0), 3);
    EXPECT_EQ(since("p_a", 5'000), 2);  // at or after
    EXPECT_EQ(since("p_a", 5'001), 1);
    EXPECT_EQ(since("p_a", 9'001), 0);
    EXPECT_EQ(since("p_b", 0), 1);
    EXPECT_EQ(since("p_none", 0), 0);
}

TEST_P(StoredTournaments, ATournamentGameKeepsItsTournamentAndBerserkFlag) {
    ASSERT_TRUE(store_
                    ->commit_sync({CreateTournament{tournament_of("t_1")},
                                   CreateTournament{tournament_of("t_2")}})
                    .ok());
    ASSERT_TRUE(store_->create_game(game_of("g_late", 30, "t_1", true)).ok());
    ASSERT_TRUE(store_->create_game(game_of("g_plain", 10)).ok());
    ASSERT_TRUE(store_->create_game(game_of("g_early", 20, "t_1", false)).ok());
    ASSERT_TRUE(store_->create_game(game_of("g_other", 25, "t_2", true)).ok());
    const auto late = store_->game("g_late");
    ASSERT_TRUE(late.ok() && late->has_value()) << (late.ok() ? "none" : late.error());
    EXPECT_EQ((*late)->tournament_id, "t_1");
    EXPECT_TRUE((*late)->berserkable);
    EXPECT_EQ((*late)->seats, (std::vector<std::string>{"p_a", "p_b"}));
    const auto plain = store_->game("g_plain").value().value();
    EXPECT_EQ(plain.tournament_id, "");
    EXPECT_FALSE(plain.berserkable);
    const auto unfinished = store_->unfinished_games();
    ASSERT_TRUE(unfinished.ok()) << unfinished.error();
    ASSERT_EQ(unfinished->size(), 4u);
    for (const auto& g : *unfinished) {
        EXPECT_EQ(g.tournament_id, g.id == "g_plain" ? "" : g.id == "g_other" ? "t_2" : "t_1");
        EXPECT_EQ(g.berserkable, g.id == "g_late" || g.id == "g_other") << g.id;
    }
    const auto games = store_->tournament_games("t_1");
    ASSERT_TRUE(games.ok()) << games.error();
    ASSERT_EQ(games->size(), 2u);
    EXPECT_EQ((*games)[0].id, "g_early");  // oldest first
    EXPECT_FALSE((*games)[0].berserkable);
    EXPECT_EQ((*games)[1].id, "g_late");
    EXPECT_TRUE((*games)[1].berserkable);
    EXPECT_EQ((*games)[1].seats, (std::vector<std::string>{"p_a", "p_b"}));
    EXPECT_TRUE(store_->tournament_games("").value().empty()) << "no tournament has id ''";
    EXPECT_TRUE(store_->tournament_games("t_none").value().empty());
}

INSTANTIATE_TEST_SUITE_P(AllStores, StoredTournaments, ::testing::ValuesIn(test::store_kinds),
                         [](const auto& info) { return info.param; });

}  // namespace
