#pragma once
// A Store kept in memory: for tests and `--db :memory:`. Thread-safe; nothing survives the process.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace server {

class MemoryStore : public Store {
public:
    // Applies the batch at once on the calling thread, all or nothing, then calls `done`.
    void commit_batch(WriteBatch batch, CommitHandler done) override;
    core::Status check() override { return core::ok_status(); }
    core::Expected<std::optional<PlayerRecord>> player(std::string_view id) override;
    core::Expected<std::optional<PlayerRecord>> player_by_token_hash(
        std::string_view token_hash) override;
    core::Expected<std::optional<GameRecord>> game(std::string_view id) override;
    core::Expected<std::vector<GameRecord>> unfinished_games() override;
    core::Expected<std::vector<std::string>> unfinished_game_ids_of(
        std::string_view player_id) override;
    core::Expected<std::vector<StoredEvent>> events(std::string_view game_id,
                                                    std::int64_t after_version) override;
    core::Expected<std::vector<ChatLine>> chat_lines(std::string_view game_id) override;
    core::Expected<std::vector<SeekRecord>> seeks() override;
    core::Expected<std::vector<ServerRun>> server_runs() override;
    core::Expected<std::optional<AnalysisRecord>> analysis(std::string_view game_id) override;
    core::Expected<std::vector<AnalysisRecord>> queued_analyses() override;

    // memory_store_tournaments.cpp
    core::Expected<std::optional<TournamentRecord>> tournament(std::string_view id) override;
    core::Expected<std::vector<TournamentRecord>> tournaments(
        const TournamentQuery& query) override;
    core::Expected<std::vector<TournamentRecord>> unfinished_tournaments() override;
    core::Expected<std::vector<StoredTournamentEvent>> tournament_events(
        std::string_view id, std::int64_t after_version) override;
    core::Expected<int> tournaments_created_since(std::string_view player_id,
                                                  std::int64_t since_ms) override;
    core::Expected<std::vector<GameRecord>> tournament_games(
        std::string_view tournament_id) override;

    // memory_store_accounts.cpp
    core::Expected<std::optional<AccountRecord>> account(std::string_view player_id) override;
    core::Expected<std::optional<AccountRecord>> account_by_username(
        std::string_view username) override;
    core::Expected<Moderation> moderation(std::string_view player_id) override;
    core::Expected<std::vector<std::string>> muted_players() override;
    core::Expected<std::vector<RatingRecord>> ratings_of(std::string_view player_id) override;
    core::Expected<std::vector<GameRating>> game_ratings(std::string_view game_id) override;
    core::Expected<std::vector<GameRating>> rating_history(std::string_view player_id) override;
    core::Expected<std::vector<LeaderboardRow>> leaderboard(std::string_view variant, double max_rd,
                                                            std::int64_t active_since,
                                                            int limit) override;
    core::Expected<std::vector<GameRecord>> find_games(const GameQuery& query) override;
    core::Expected<GameTally> tally(std::string_view player_id,
                                    std::string_view viewer_id) override;

private:
    using Undo = std::vector<std::function<void()>>;
    core::Status apply(const WriteOp& op, Undo& undo);
    // memory_store_accounts.cpp: the account, session, moderation and rating writes.
    core::Status apply_account(const CreateAccount& w, Undo& undo);
    core::Status apply_account(const SetPassword& w, Undo& undo);
    core::Status apply_account(const SetAdmin& w, Undo& undo);
    core::Status apply_account(const SetModeration& w, Undo& undo);
    core::Status apply_account(const AddSession& w, Undo& undo);
    core::Status apply_account(const RevokeSession& w, Undo& undo);
    core::Status apply_account(const RevokeSessions& w, Undo& undo);
    core::Status apply_account(const RateGame& w, Undo& undo);
    // memory_store_fences.cpp: claiming a game and checking a batch's fence (fences.h).
    core::Status apply_fence(const ClaimGame& w, Undo& undo);
    core::Status apply_fence(const CheckFence& w);
    // memory_store_tournaments.cpp: the tournaments' writes (tournament_records.h).
    core::Status apply_tournament(const CreateTournament& w, Undo& undo);
    core::Status apply_tournament(const AppendTournamentEvents& w, Undo& undo);
    core::Status apply_tournament(const SetTournamentStatus& w, Undo& undo);
    // The finished games of `player_id` that `viewer_id` may see, newest first, with the seat.
    std::vector<std::pair<const GameRecord*, int>> visible_games(std::string_view player_id,
                                                                 std::string_view viewer_id);

    std::map<std::int64_t, std::int64_t> runs_;  // started_at -> alive_at
    // `record` with its claiming run's alive_at, as the other stores read it (mutex_ held).
    AnalysisRecord with_run_alive_at(AnalysisRecord record) const;
    struct StoredAnalysis {
        AnalysisRecord record;
        std::int64_t order = 0;  // when first saved, to break ties in queued_analyses
    };
    std::map<std::string, StoredAnalysis, std::less<>> analyses_;
    struct StoredGame {
        GameRecord record;
        std::vector<StoredEvent> events;
        std::vector<ChatLine> chat;  // each channel's newest chat_lines_kept, oldest first
        std::int64_t order = 0;      // creation order, to break ties in find_games
    };

    struct StoredTournament {
        TournamentRecord record;
        std::vector<StoredTournamentEvent> events;
        std::int64_t order = 0;  // creation order, to break ties in the lists
    };
    // The tournaments `keep` accepts, ordered by `before` and then creation (mutex_ held).
    template <class Keep, class Before>
    std::vector<TournamentRecord> tournaments_where(Keep&& keep, Before&& before) const;
    std::map<std::string, StoredTournament, std::less<>> tournaments_;

    std::mutex mutex_;
    std::map<std::string, PlayerRecord, std::less<>> players_;
    std::map<std::string, StoredGame, std::less<>> games_;
    std::map<std::string, SeekRecord, std::less<>> seeks_;
    std::int64_t next_order_ = 0;
    std::map<std::string, std::string, std::less<>> sessions_;  // token hash -> player id
    std::map<std::string, AccountRecord, std::less<>> accounts_;
    std::map<std::string, Moderation, std::less<>> moderation_;
    std::map<std::pair<std::string, std::string>, RatingRecord> ratings_;  // (player, variant)
    std::vector<GameRating> game_ratings_;                                 // in rating order
};

std::unique_ptr<Store> make_memory_store();

}  // namespace server
