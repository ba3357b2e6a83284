// A room's chat: who may say what where (players' and spectators' channels), a line stored before
// anyone sees it, and the newest lines kept for the snapshot.
#include "server/game/room.h"

#include "protocol/json_text.h"
#include "protocol/messages.h"
#include "server/game/server_state.h"
#include "server/limits.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
namespace events = protocol::events;

namespace {

std::size_t channel_index(const std::string& channel) {
    return channel == "players" ? 0 : 1;
}

// Adds a line to its channel, which keeps only its newest chat_lines_kept.
void keep_chat_line(std::array<std::deque<ChatLine>, 2>& chat, ChatLine line) {
    auto& channel = chat[channel_index(line.channel)];
    channel.push_back(std::move(line));
    if (channel.size() > chat_lines_kept) {
        channel.pop_front();
    }
}

}  // namespace

void Room::restore_chat(std::vector<ChatLine> lines) {
    for (auto& line : lines) {
        keep_chat_line(chat_, std::move(line));
    }
}

std::optional<protocol::ProtocolError> Room::may_chat(const Actor& actor,
                                                      const std::optional<int>& seat) {
    if (!seat && game_.result) {
        // After the end only the players talk (a rematch, a good game); spectators' chat closes,
        // for a watcher or not (a finished game not in memory answers so too: finished_games.cpp).
        return protocol::ProtocolError{ErrorCode::game_over, spectators_chat_over_text};
    }
    if (!seat && !watchers_.count(actor.client_id)) {
        return protocol::ProtocolError{ErrorCode::not_a_player, "watch the game to chat in it"};
    }
    if (!seat && !game_.spectator_chat) {
        return protocol::ProtocolError{ErrorCode::chat_closed,
                                       "the players have closed the spectators' chat"};
    }
    return chat_limiter_.try_line(state_, actor);
}

void Room::say(const Actor& actor, const protocol::Request& request) {
    const auto seat = game_.seat_of(actor.player_id);
    ChatLine line;
    line.game_id = id();
    line.channel = seat ? "players" : "spectators";
    line.player_id = actor.player_id;
    line.from = seat ? seat_names_[static_cast<std::size_t>(*seat)] : actor.name;
    line.seat = seat ? game_.seat_name(*seat) : std::string();
    line.text = request.text;
    line.at = protocol::iso_utc(unix_ms(now()));
    InFlight batch;
    batch.chat = line;
    batch.requester = actor;
    batch.request_id = request.id;
    store(WriteBatch{AddChatLine{std::move(line)}}, std::move(batch));
}

void Room::chat_committed(ChatLine line) {
    const bool players = line.channel == "players";
    const auto frame = make_frame(protocol::chat_message(id(), chat_line_json(line)));
    for (const auto& [client_id, watcher] : watchers_) {
        if (game_.seat_of(watcher.player_id).has_value() == players) {
            if (auto client = watcher.client.lock()) {
                client->send(frame);
            }
        }
    }
    keep_chat_line(chat_, std::move(line));
}

}  // namespace server
