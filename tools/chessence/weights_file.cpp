#include "weights_file.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace cli {

namespace {

template <class Weights>
std::string format(const Weights& w) {
    std::ostringstream out;
    for (const int value : w.feature) {
        out << value << ' ';
    }
    out << w.tempo;
    return out.str();
}

template <class Weights>
core::Expected<Weights> parse(const std::vector<int>& values) {
    Weights w;
    if (values.size() != w.feature.size() + 1) {
        return core::make_error("expected " + std::to_string(w.feature.size() + 1) +
                                " numbers, found " + std::to_string(values.size()));
    }
    for (std::size_t i = 0; i < w.feature.size(); ++i) {
        w.feature[i] = values[i];
    }
    w.tempo = values.back();
    return w;
}

}  // namespace

core::Expected<AnyWeights> read_weights(core::VariantId variant, const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        return core::make_error("cannot read " + path);
    }
    std::vector<int> values;
    std::string word;
    while (in >> word) {
        try {
            std::size_t used = 0;
            values.push_back(std::stoi(word, &used));
            if (used != word.size()) {
                return core::make_error(path + ": not a whole number: " + word);
            }
        } catch (const std::exception&) {
            return core::make_error(path + ": not a whole number: " + word);
        }
    }
    AnyWeights result;
    if (variant == core::VariantId::chessence) {
        auto w = parse<core::engine::ChessenceWeights>(values);
        if (!w) {
            return core::make_error(path + ": " + w.error());
        }
        result.chessence = *w;
    } else if (variant == core::VariantId::chesica) {
        auto w = parse<core::engine::ChesicaWeights>(values);
        if (!w) {
            return core::make_error(path + ": " + w.error());
        }
        result.chesica = *w;
    } else {
        return core::make_error("Sniderman has no evaluation weights");
    }
    return result;
}

std::string format_weights(const core::engine::ChessenceWeights& w) {
    return format(w);
}
std::string format_weights(const core::engine::ChesicaWeights& w) {
    return format(w);
}

}  // namespace cli
