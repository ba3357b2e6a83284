// The records of a Sniderman match: one per round, rebuilt from the room's round_started,
// object_named, side_chosen, move, round_over and game_over events (docs/records.md).
#include <algorithm>
#include <string>

#include "core/sniderman/match.h"
#include "server/bots/bot_identity.h"
#include "server/records/record_export_detail.h"

namespace server::record_detail {

namespace {

namespace events = protocol::events;

struct Round {
    int number = 0;
    std::string deal;         // the round's start position string
    int object = 0;           // 0 until named
    std::string object_text;  // as object_named showed it
    std::string odd;          // "player0" / "player1" once chosen
    std::string even;
    std::vector<std::string> moves;
    std::vector<std::optional<std::int64_t>> clocks;  // the mover's clock after each move
    std::string winner;                               // "odd" / "even" once the round is over
};

std::string player_name(const std::vector<std::string>& names, const std::string& player) {
    if (player == "player0") {
        return name_of(names, 0);
    }
    if (player == "player1") {
        return name_of(names, 1);
    }
    return "?";
}

// Walks the events once, collecting each round; `termination` gets the game_over reason.
std::vector<Round> collect_rounds(const std::vector<events::RoomEvent>& all,
                                  std::string& termination) {
    std::vector<Round> rounds;
    for (const auto& event : all) {
        if (const auto* started = std::get_if<events::RoundStarted>(&event)) {
            Round round;
            round.number =
                started->round > 0 ? started->round : static_cast<int>(rounds.size()) + 1;
            round.deal = started->fen;
            rounds.push_back(std::move(round));
        } else if (const auto* over = std::get_if<events::GameOver>(&event)) {
            termination = over->result.reason;
        } else if (rounds.empty()) {
            continue;  // nothing of a round happens before its round_started
        } else if (const auto* named = std::get_if<events::ObjectNamed>(&event)) {
            rounds.back().object = named->object;
            rounds.back().object_text = std::string(core::sniderman::object_text(named->object));
        } else if (const auto* chosen = std::get_if<events::SideChosen>(&event)) {
            rounds.back().odd = chosen->odd;
            rounds.back().even = chosen->even;
        } else if (const auto* move = std::get_if<events::Move>(&event)) {
            rounds.back().moves.push_back(move->move);
            rounds.back().clocks.push_back(mover_clock(*move, true));
        } else if (const auto* round_over = std::get_if<events::RoundOver>(&event)) {
            rounds.back().winner = round_over->winner;
        }
    }
    return rounds;
}

}  // namespace

std::vector<core::Record> sniderman_records(const GameRecord& game,
                                            const std::vector<std::string>& names,
                                            const std::vector<events::RoomEvent>& events,
                                            std::string_view site) {
    std::string termination;
    auto rounds = collect_rounds(events, termination);
    if (rounds.empty()) {
        rounds.emplace_back().number = 1;  // a match not dealt yet: one empty record
    }
    std::vector<core::Record> records;
    for (const auto& round : rounds) {
        core::Record r = common_record(game, site, "Casual match");
        r.tags.push_back({"Round", std::to_string(round.number)});
        r.tags.push_back({"Variant", "sniderman"});
        r.tags.push_back({"Odd", player_name(names, round.odd)});
        r.tags.push_back({"Even", player_name(names, round.even)});
        // Issue 25: which side the computer played, as PGN's WhiteType / BlackType.
        for (const auto& [side, player] :
             {std::pair{"OddType", round.odd}, std::pair{"EvenType", round.even}}) {
            const std::size_t seat = player == "player1" ? 1 : 0;
            if ((player == "player0" || player == "player1") && seat < game.seats.size() &&
                bot_level(game.seats[seat])) {
                r.tags.push_back({side, "program"});
            }
        }
        const bool decided = round.winner == "odd" || round.winner == "even";
        r.result = result_token(round.winner, decided);
        r.tags.push_back({"Result", r.result});
        r.tags.push_back({"RuleSet", game.rules});
        r.tags.push_back({"TimeControl", time_control_tag(game)});
        if (!round.deal.empty()) {
            r.tags.push_back({"FEN", round.deal});
        }
        if (round.object > 0) {
            r.tags.push_back({"Object", std::to_string(round.object)});
            if (!round.object_text.empty()) {
                r.tags.push_back({"ObjectText", round.object_text});
            }
        }
        if (decided) {
            r.tags.push_back({"Winner", round.winner});
        }
        if (game.rounds > 0) {
            r.tags.push_back({"Rounds", std::to_string(game.rounds)});
        }
        r.tags.push_back({"GameId", game.id});
        r.moves = round.moves;
        if (std::any_of(round.clocks.begin(), round.clocks.end(),
                        [](const auto& clock) { return clock.has_value(); })) {
            r.clocks = round.clocks;
        }
        if (!r.moves.empty()) {
            number_from_fen(r, "sniderman", round.deal);
        }
        records.push_back(std::move(r));
    }
    if (!records.empty() && !termination.empty()) {
        records.back().tags.push_back({"Termination", termination});
    }
    return records;
}

}  // namespace server::record_detail
