// `chessence uci` (tools/chessence/uci_session.cpp) driven through a pipe as a UCI GUI drives it:
// the handshake, options, positions with moves in the project's notation for all three games,
// every kind of `go`, `stop`, errors that never crash it, and `quit`.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/game.h"
#include "uci_process.h"

namespace {

using uci_test::UciProcess;

std::string last_word(const std::string& line) {
    return line.substr(line.rfind(' ') + 1);
}

// The legal moves of `variant` after `fen` (start position if empty) and `moves`.
std::vector<std::string> legal_after(core::VariantId variant, const std::string& fen,
                                     const std::vector<std::string>& moves, int object = 0) {
    core::GameOptions options;
    if (!fen.empty()) {
        options.fen = fen;
    }
    options.object = object;
    auto game = std::move(core::make_game(variant, options).value());
    for (const auto& m : moves) {
        EXPECT_TRUE(game->play(m).ok()) << m;
    }
    return game->legal_moves();
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(UciSession, HandshakeListsTheOptions) {
    UciProcess engine;
    ASSERT_TRUE(engine.started());
    engine.send("uci");
    std::string seen;
    ASSERT_TRUE(engine.read_until("uciok", &seen));
    EXPECT_NE(seen.find("id name "), std::string::npos);
    EXPECT_NE(seen.find("id author "), std::string::npos);
    for (const char* option :
         {"option name UCI_Variant type combo default chessence var chessence "
          "var chesica var sniderman",
          "option name Hash type spin", "option name Level type spin default 8 min 1 max 8",
          "option name Object type spin default 1 min 1 max 10"}) {
        EXPECT_NE(seen.find(option), std::string::npos) << option;
    }
    engine.send("isready");
    EXPECT_EQ(engine.read_line(), "readyok");
    engine.send("quit");
    EXPECT_EQ(engine.finish(), 0);
}

TEST(UciSession, GoDepthReportsEveryIterationAndALegalMove) {
    UciProcess engine;
    engine.send("ucinewgame");
    engine.send("position startpos moves d2-c3 c8-d7");
    engine.send("go depth 4");
    std::string seen;
    const auto best = engine.read_until("bestmove", &seen);
    ASSERT_TRUE(best);
    for (int depth = 1; depth <= 4; ++depth) {
        EXPECT_NE(seen.find("info depth " + std::to_string(depth) + " score cp "),
                  std::string::npos)
            << seen;
    }
    EXPECT_EQ(seen.find("info depth 5"), std::string::npos);
    EXPECT_NE(seen.find(" nodes "), std::string::npos);
    EXPECT_NE(seen.find(" nps "), std::string::npos);
    EXPECT_NE(seen.find(" pv "), std::string::npos);
    EXPECT_TRUE(
        contains(legal_after(core::VariantId::chessence, "", {"d2-c3", "c8-d7"}), last_word(*best)))
        << *best;
}

TEST(UciSession, GoWithNodesMovetimeAndClocks) {
    UciProcess engine;
    engine.send("position startpos");
    const auto legal = legal_after(core::VariantId::chessence, "", {});
    for (const char* go :
         {"go nodes 3000", "go movetime 50", "go wtime 2000 btime 2000 winc 10 binc 10",
          "go wtime 300 btime 300 movestogo 5"}) {
        engine.send(go);
        const auto best = engine.read_until("bestmove");
        ASSERT_TRUE(best) << go;
        EXPECT_TRUE(contains(legal, last_word(*best))) << go << ": " << *best;
    }
}

TEST(UciSession, ChesicaPositionWithMovesAndFen) {
    UciProcess engine;
    engine.send("setoption name UCI_Variant value chesica");
    engine.send("setoption name Level value 5");
    engine.send("position startpos moves c3-d4 b6-c5");
    engine.send("go nodes 5000");
    const auto best = engine.read_until("bestmove");
    ASSERT_TRUE(best);
    // A jump is compulsory here: d4xb6.
    EXPECT_EQ(last_word(*best), "d4xb6");
    const std::string fen = "8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1";  // RULES.md: two chains
    engine.send("position fen " + fen);
    engine.send("go depth 3");
    const auto chain = engine.read_until("bestmove");
    ASSERT_TRUE(chain);
    EXPECT_TRUE(contains(legal_after(core::VariantId::chesica, fen, {}), last_word(*chain)));
}

TEST(UciSession, SnidermanUsesTheObjectOption) {
    UciProcess engine;
    const std::string fen = "qbnr/rnbk/KBNR/RNBQ 1";
    engine.send("setoption name UCI_Variant value sniderman");
    engine.send("setoption name Object value 5");
    engine.send("position fen " + fen + " moves b1xc3");
    engine.send("go movetime 100");
    const auto best = engine.read_until("bestmove");
    ASSERT_TRUE(best);
    EXPECT_TRUE(
        contains(legal_after(core::VariantId::sniderman, fen, {"b1xc3"}, 5), last_word(*best)))
        << *best;
}

TEST(UciSession, MateIsReportedAsMate) {
    UciProcess engine;
    engine.send("position fen km1m1m/5*/1m2*1/1M*3/1*1m*M/1M1*M1/1*1M2/*M1M1M/M4K[] w 5 38");
    engine.send("go depth 3");
    std::string seen;
    ASSERT_TRUE(engine.read_until("bestmove", &seen));
    EXPECT_NE(seen.find("score mate 1 "), std::string::npos) << seen;
}

TEST(UciSession, StopEndsAnInfiniteSearch) {
    UciProcess engine;
    engine.send("position startpos");
    engine.send("go infinite");
    ASSERT_TRUE(engine.read_until("info depth 2"));
    engine.send("stop");
    const auto best = engine.read_until("bestmove");
    ASSERT_TRUE(best);
    EXPECT_TRUE(contains(legal_after(core::VariantId::chessence, "", {}), last_word(*best)));
}

TEST(UciSession, InfiniteSearchWaitsForStopEvenWhenItIsDone) {
    UciProcess engine;
    // Mate in one: the search ends at once, but `go infinite` must not answer before `stop`.
    engine.send("position fen km1m1m/5*/1m2*1/1M*3/1*1m*M/1M1*M1/1*1M2/*M1M1M/M4K[] w 5 38");
    engine.send("go infinite");
    ASSERT_TRUE(engine.read_until("info depth 2"));
    engine.send("isready");
    std::string seen;
    ASSERT_TRUE(engine.read_until("readyok", &seen));
    EXPECT_EQ(seen.find("bestmove"), std::string::npos) << seen;
    engine.send("stop");
    EXPECT_TRUE(engine.read_until("bestmove"));
}

TEST(UciSession, BadInputIsAnErrorLineAndNeverACrash) {
    UciProcess engine;
    engine.send("position fen this is not a position");
    auto line = engine.read_line();
    ASSERT_TRUE(line);
    EXPECT_EQ(line->rfind("info string error bad position", 0), 0u) << *line;
    engine.send("go depth 2");
    EXPECT_EQ(engine.read_until("bestmove"), "bestmove 0000");

    engine.send("position startpos moves e3-e4 a1-a5");
    line = engine.read_line();
    ASSERT_TRUE(line);
    EXPECT_EQ(line->rfind("info string error illegal move 'a1-a5'", 0), 0u) << *line;

    for (const char* garbage : {"fly me to the moon", "setoption name Level value 99",
                                "setoption name UCI_Variant value chess", "go depth banana",
                                "setoption name Nonsense value 1"}) {
        engine.send(garbage);
        line = engine.read_line();
        ASSERT_TRUE(line) << garbage;
        EXPECT_EQ(line->rfind("info string error", 0), 0u) << garbage << ": " << *line;
        if (std::string(garbage).rfind("go", 0) == 0) {
            EXPECT_EQ(engine.read_line(), "bestmove 0000");
        }
    }
    // A finished game: White has no legal move (RULES.md).
    engine.send("position fen k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1");
    engine.send("go depth 1");
    line = engine.read_line();
    ASSERT_TRUE(line);
    EXPECT_EQ(line->rfind("info string error the game is over", 0), 0u) << *line;
    EXPECT_EQ(engine.read_line(), "bestmove 0000");

    engine.send("position startpos");
    engine.send("go depth 2");
    EXPECT_TRUE(engine.read_until("bestmove"));
    engine.send("isready");
    EXPECT_EQ(engine.read_line(), "readyok");
    engine.send("quit");
    EXPECT_EQ(engine.finish(), 0);
}

TEST(UciSession, EndOfInputEndsTheEngine) {
    UciProcess engine;
    engine.send("position startpos");
    engine.send("go infinite");
    ASSERT_TRUE(engine.read_until("info depth 1"));
    EXPECT_EQ(engine.finish(), 0);  // stdin closed while searching: it stops and exits
}

}  // namespace
