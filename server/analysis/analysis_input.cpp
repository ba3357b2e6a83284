#include "server/analysis/analysis_input.h"

#include <algorithm>

#include "core/engine/analysis.h"
#include "protocol/events.h"

namespace server {

namespace {

namespace events = protocol::events;

// The moves of a Chessence or Chesica game as they stand after its takebacks.
AnalysedLine two_colour_line(const GameRecord& game, const std::vector<events::RoomEvent>& all) {
    AnalysedLine line;
    line.start_fen = game.start_fen;
    line.seats = {"white", "black"};
    for (const auto& event : all) {
        if (const auto* move = std::get_if<events::Move>(&event)) {
            line.moves.push_back(move->move);
        } else if (const auto* takeback = std::get_if<events::Takeback>(&event)) {
            const auto undone = std::min<std::size_t>(
                line.moves.size(), static_cast<std::size_t>(std::max(0, takeback->plies)));
            line.moves.resize(line.moves.size() - undone);
        }
    }
    return line;
}

// A Sniderman match's rounds, each from its round_started to the next.
std::vector<AnalysedLine> sniderman_lines(const std::vector<events::RoomEvent>& all) {
    std::vector<AnalysedLine> rounds;
    for (const auto& event : all) {
        if (const auto* started = std::get_if<events::RoundStarted>(&event)) {
            AnalysedLine round;
            round.round = started->round > 0 ? started->round : static_cast<int>(rounds.size()) + 1;
            round.start_fen = started->fen;
            rounds.push_back(std::move(round));
        } else if (rounds.empty()) {
            continue;  // nothing of a round happens before its round_started
        } else if (const auto* named = std::get_if<events::ObjectNamed>(&event)) {
            rounds.back().object = named->object;
        } else if (const auto* chosen = std::get_if<events::SideChosen>(&event)) {
            rounds.back().seats = {chosen->odd, chosen->even};
        } else if (const auto* move = std::get_if<events::Move>(&event)) {
            rounds.back().moves.push_back(move->move);
        }
    }
    std::erase_if(rounds, [](const AnalysedLine& round) { return round.moves.empty(); });
    return rounds;
}

}  // namespace

core::Expected<AnalysisInput> analysis_input(const GameRecord& game,
                                             const std::vector<StoredEvent>& stored) {
    const auto variant = core::parse_variant(game.variant);
    if (!variant) {
        return core::make_error("game " + game.id + " has an unknown variant '" + game.variant +
                                "'");
    }
    std::vector<events::RoomEvent> all;
    for (const auto& event : stored) {
        auto decoded = events::decode_event_text(event.json);
        if (!decoded) {
            return core::make_error("game " + game.id + ", event " + std::to_string(event.version) +
                                    ": " + decoded.error());
        }
        all.push_back(std::move(*decoded));
    }
    AnalysisInput input;
    input.game_id = game.id;
    input.variant = *variant;
    if (*variant == core::VariantId::sniderman) {
        input.lines = sniderman_lines(all);
    } else {
        input.lines.push_back(two_colour_line(game, all));
    }
    core::GameOptions options;
    options.rules = core::parse_rule_set(game.rules).value_or(core::RuleSet::house);
    for (auto& line : input.lines) {
        options.fen = line.start_fen.empty() ? std::nullopt : std::optional(line.start_fen);
        options.object = line.object;
        auto positions = core::engine::game_positions(*variant, options, line.moves);
        if (!positions) {
            const std::string where =
                line.round > 0 ? ", round " + std::to_string(line.round) : std::string();
            return core::make_error("game " + game.id + where + ": " + positions.error());
        }
        line.positions = std::move(*positions);
    }
    return input;
}

}  // namespace server
