#include "core/sniderman/match.h"

#include <utility>

#include "core/sniderman/deal.h"
#include "core/sniderman/sniderman_game.h"

namespace core::sniderman {

struct Match::State {
    int rounds_total = 1;
    std::uint64_t seed = 0;
    MatchPhase phase = MatchPhase::naming;
    int namer = 0;
    std::uint16_t used_objects = 0;  // bit n: object n was named
    std::array<int, 2> score{0, 0};
    std::optional<int> winner;
    std::vector<RoundRecord> records;
    SnidermanGame game{Position{}, 0};

    // Deals round number records.size() (0-based), named by `round_namer`.
    void start_round(int round_namer) {
        const Position start = deal(derive_seed(seed, records.size() + 1));
        game = SnidermanGame(start, 0);
        namer = round_namer;
        phase = MatchPhase::naming;
        RoundRecord record;
        record.start = format_position(start);
        record.namer = round_namer;
        records.push_back(std::move(record));
    }
};

namespace {

Status check_player(int player) {
    if (player != 0 && player != 1) {
        return make_error("players are 0 and 1, not " + std::to_string(player));
    }
    return ok_status();
}

std::string_view phase_name(MatchPhase phase) {
    switch (phase) {
        case MatchPhase::naming:
            return "naming an object";
        case MatchPhase::choosing:
            return "choosing ODD or EVEN";
        case MatchPhase::playing:
            return "playing";
        case MatchPhase::finished:
            return "finished";
    }
    return "unknown";
}

Error wrong_phase(MatchPhase phase) {
    return make_error("wrong phase: the match is " + std::string(phase_name(phase)));
}

}  // namespace

Match::Match() : state_(std::make_unique<State>()) {}
Match::Match(const Match& other) : state_(std::make_unique<State>(*other.state_)) {}
Match& Match::operator=(const Match& other) {
    if (this != &other) {
        state_ = std::make_unique<State>(*other.state_);
    }
    return *this;
}
Match::Match(Match&&) noexcept = default;
Match& Match::operator=(Match&&) noexcept = default;
Match::~Match() = default;

Expected<Match> Match::create(int rounds, std::uint64_t seed) {
    if (rounds < 1 || rounds > 9 || rounds % 2 == 0) {
        return make_error("a match has 1, 3, 5, 7 or 9 rounds, not " + std::to_string(rounds));
    }
    Match match;
    match.state_->rounds_total = rounds;
    match.state_->seed = seed;
    Rng coin(derive_seed(seed, 0));
    match.state_->start_round(static_cast<int>(coin.below(2)));
    return match;
}

int Match::rounds_total() const {
    return state_->rounds_total;
}
std::uint64_t Match::seed() const {
    return state_->seed;
}
MatchPhase Match::phase() const {
    return state_->phase;
}
int Match::namer() const {
    return state_->namer;
}
int Match::chooser() const {
    return 1 - state_->namer;
}

std::vector<int> Match::available_objects() const {
    std::vector<int> out;
    for (int object = 1; object <= object_count; ++object) {
        if ((state_->used_objects & (1u << object)) == 0) {
            out.push_back(object);
        }
    }
    return out;
}

Status Match::name_object(int player, int object) {
    if (auto status = check_player(player); !status) {
        return status;
    }
    State& s = *state_;
    if (s.phase != MatchPhase::naming) {
        return wrong_phase(s.phase);
    }
    if (player != s.namer) {
        return make_error("not your turn: player " + std::to_string(s.namer) +
                          " names this round's object");
    }
    if (!to_object(object)) {
        return make_error("objects are numbered 1 to 10, not " + std::to_string(object));
    }
    if ((s.used_objects & (1u << object)) != 0) {
        return make_error("object used: object " + std::to_string(object) +
                          " was already used in this match");
    }
    s.used_objects = static_cast<std::uint16_t>(s.used_objects | (1u << object));
    s.game.set_object(object);
    s.records.back().object = object;
    s.phase = MatchPhase::choosing;
    return ok_status();
}

Status Match::choose_side(int player, bool odd) {
    if (auto status = check_player(player); !status) {
        return status;
    }
    State& s = *state_;
    if (s.phase != MatchPhase::choosing) {
        return wrong_phase(s.phase);
    }
    if (player != chooser()) {
        return make_error("not your turn: player " + std::to_string(chooser()) +
                          " chooses ODD or EVEN");
    }
    s.records.back().odd_player = odd ? player : s.namer;
    s.phase = MatchPhase::playing;
    return ok_status();
}

Expected<std::string> Match::play(int player, std::string_view move) {
    if (auto status = check_player(player); !status) {
        return make_error(status.error());
    }
    State& s = *state_;
    if (s.phase != MatchPhase::playing) {
        return wrong_phase(s.phase);
    }
    if (player != *to_move_player()) {
        return make_error("not your turn: player " + std::to_string(1 - player) + " is to move");
    }
    auto played = s.game.play(move);
    if (!played) {
        return played;
    }
    RoundRecord& record = s.records.back();
    record.moves.push_back(*played);
    if (const auto outcome = s.game.outcome()) {
        const int odd_player = *record.odd_player;
        const int round_winner = outcome->winner == Side::first ? odd_player : 1 - odd_player;
        record.winner = round_winner;
        ++s.score[static_cast<std::size_t>(round_winner)];
        if (2 * s.score[static_cast<std::size_t>(round_winner)] > s.rounds_total) {
            s.winner = round_winner;
            s.phase = MatchPhase::finished;
        } else {
            s.start_round(1 - round_winner);
        }
    }
    return played;
}

const Game& Match::round() const {
    return state_->game;
}

std::optional<int> Match::to_move_player() const {
    if (state_->phase != MatchPhase::playing) {
        return std::nullopt;
    }
    const int odd_player = *state_->records.back().odd_player;
    return state_->game.position().odd_to_move() ? odd_player : 1 - odd_player;
}

std::array<int, 2> Match::score() const {
    return state_->score;
}
std::optional<int> Match::winner() const {
    return state_->winner;
}
const std::vector<RoundRecord>& Match::records() const {
    return state_->records;
}

}  // namespace core::sniderman
