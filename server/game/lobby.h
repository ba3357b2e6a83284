#pragma once
// The lobby, on its own strand: open seeks, the games in progress, and the clients subscribed to
// them. Every change is pushed to every subscriber as one whole `lobby` message, serialised once.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include "protocol/requests.h"
#include "server/game/client.h"
#include "server/store/store.h"

namespace server {

class Room;
class ServerState;

class Lobby : public std::enable_shared_from_this<Lobby> {
public:
    Lobby(ServerState& state, boost::asio::io_context& io);

    // Runs a lobby request (lobby_subscribe/unsubscribe, seek_*, quick_pair) on the lobby strand.
    void post_request(Actor actor, protocol::Request request);
    // A session closed: it stops receiving pushes and its seeks are withdrawn.
    void post_client_gone(std::uint64_t client_id);
    // A room reports its public summary (null summary: the game left the lobby).
    void post_game_summary(std::string game_id, nlohmann::json summary);

private:
    struct Seek {
        std::string id;
        core::VariantId variant = core::VariantId::chessence;
        core::RuleSet rules = core::RuleSet::house;
        std::optional<core::Side> side;
        int rounds = 3;
        bool is_private = false;
        bool rated = false;
        std::optional<int> rating_min;  // the accepter's rating must be within
        std::optional<int> rating_max;
        int creator_rating = 0;  // shown rating in the seek's variant (accounts)
        Actor creator;
        std::int64_t created_at = 0;
        nlohmann::json json;
    };

    void handle(const Actor& actor, const protocol::Request& request);
    void client_gone(std::uint64_t client_id);
    void game_summary(const std::string& game_id, nlohmann::json summary);
    void create_seek(const Actor& actor, const protocol::Request& request);
    void cancel_seek(const Actor& actor, const protocol::Request& request);
    void accept_seek(const Actor& actor, const std::string& seek_id, const nlohmann::json& id);
    // Runs on the lobby strand once the game of an accepted seek is stored (or could not be).
    void game_stored(const core::Status& stored, const std::shared_ptr<Room>& room,
                     const Seek& seek, const Actor& actor, const nlohmann::json& id,
                     const std::vector<Actor>& players);
    void quick_pair(const Actor& actor, const protocol::Request& request);
    // lobby_ratings.cpp (issue 16): rated seeks, rating ranges, closest-rating pairing.
    // The error that keeps `actor` from creating (or quick-pairing) this seek, if any.
    std::optional<protocol::ProtocolError> seek_refusal(const Actor& actor,
                                                        const protocol::Request& request) const;
    // Adds the rating fields to a new seek (its json too).
    void rate_seek(Seek& seek, const Actor& actor, const protocol::Request& request);
    // The error that keeps `actor` from accepting `seek`, if any.
    std::optional<protocol::ProtocolError> accept_refusal(const Actor& actor,
                                                          const Seek& seek) const;
    // The open seek quick pairing gives `actor`: the compatible one whose creator's rating is
    // closest to the actor's, the oldest among equals; null if none.
    const Seek* best_match(const Actor& actor, const protocol::Request& request) const;
    int shown_rating_of(const std::string& player_id, core::VariantId variant) const;
    void store_async(WriteOp write);
    void remove_seek(const std::string& seek_id);
    void push();
    Frame lobby_frame(const nlohmann::json& id) const;

    ServerState& state_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    std::map<std::uint64_t, std::weak_ptr<Client>> subscribers_;
    std::deque<Seek> seeks_;  // oldest first
    std::map<std::string, nlohmann::json> games_;
};

}  // namespace server
