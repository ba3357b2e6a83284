#include "server/net/static_files.h"

#include <gtest/gtest.h>

namespace {

TEST(StaticFiles, MimeTypes) {
    EXPECT_EQ(server::mime_type("index.html"), "text/html; charset=utf-8");
    EXPECT_EQ(server::mime_type("app.js"), "text/javascript; charset=utf-8");
    EXPECT_EQ(server::mime_type("style.css"), "text/css; charset=utf-8");
    EXPECT_EQ(server::mime_type("piece.svg"), "image/svg+xml");
    EXPECT_EQ(server::mime_type("data.json"), "application/json");
    EXPECT_EQ(server::mime_type("blob"), "application/octet-stream");
}

TEST(StaticFiles, RefusesTraversalWithoutTouchingTheDisk) {
    for (const char* target : {"/../etc/passwd", "/a/../../x", "/%2e%2e/etc/passwd",
                               "/a%2f..%2f..%2fetc", "/a\\..\\b", "/x%00.html", "relative"}) {
        EXPECT_EQ(server::serve_static("/nonexistent-root", target).status, 400) << target;
    }
}

}  // namespace
