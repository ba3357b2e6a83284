#include "server/store/sql_text.h"

namespace server::sql {

std::string in_dialect(Dialect dialect, std::string_view text) {
    if (dialect == Dialect::sqlite) {
        return std::string(text);
    }
    std::string out;
    out.reserve(text.size());
    char quote = 0;  // the quote of the literal or identifier we are in, 0 outside
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quote != 0) {
            // A doubled quote inside ('it''s') closes and reopens: the same state after both.
            quote = c == quote ? 0 : quote;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '?' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
            out += '$';
            continue;
        }
        out += c;
    }
    return out;
}

std::string_view insertion_order(Dialect dialect) {
    return dialect == Dialect::sqlite ? "rowid" : "seq";
}

std::string json_field(Dialect dialect, std::string_view column, std::string_view key) {
    const std::string col(column);
    if (dialect == Dialect::sqlite) {
        return "CASE WHEN json_valid(" + col + ") THEN json_extract(" + col + ", '$." +
               std::string(key) + "') END";
    }
    return "json_field(" + col + ", '" + std::string(key) + "')";
}

std::string_view greatest(Dialect dialect) {
    return dialect == Dialect::sqlite ? "MAX" : "GREATEST";
}

std::string_view share_lock(Dialect dialect) {
    return dialect == Dialect::sqlite ? "" : " FOR SHARE";
}

}  // namespace server::sql
