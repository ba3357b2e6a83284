// Stand-in for core::sniderman::Match while the Sniderman rules are not merged: every call fails,
// so Sniderman games cannot start. Linked only when core/ has no Match (see server/CMakeLists.txt).
#include "core/sniderman/match.h"

namespace core::sniderman {

struct Match::State {};

Expected<Match> Match::create(int, std::uint64_t) {
    return make_error("the Sniderman match is not implemented yet");
}
Match::Match() : state_(std::make_unique<State>()) {}
Match::Match(const Match&) : state_(std::make_unique<State>()) {}
Match& Match::operator=(const Match&) {
    return *this;
}
Match::Match(Match&&) noexcept = default;
Match& Match::operator=(Match&&) noexcept = default;
Match::~Match() = default;
int Match::rounds_total() const {
    return 0;
}
std::uint64_t Match::seed() const {
    return 0;
}
MatchPhase Match::phase() const {
    return MatchPhase::finished;
}
int Match::namer() const {
    return 0;
}
int Match::chooser() const {
    return 1;
}
std::vector<int> Match::available_objects() const {
    return {};
}
Status Match::name_object(int, int) {
    return make_error("not implemented");
}
Status Match::choose_side(int, bool) {
    return make_error("not implemented");
}
Expected<std::string> Match::play(int, std::string_view) {
    return make_error("not implemented");
}
const Game& Match::round() const {
    static const std::unique_ptr<Game> none;
    return *none;
}
std::optional<int> Match::to_move_player() const {
    return std::nullopt;
}
std::array<int, 2> Match::score() const {
    return {0, 0};
}
std::optional<int> Match::winner() const {
    return std::nullopt;
}
const std::vector<RoundRecord>& Match::records() const {
    static const std::vector<RoundRecord> none;
    return none;
}
std::string_view object_text(int) {
    return "";
}

}  // namespace core::sniderman
