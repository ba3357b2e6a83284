#pragma once
// A server in this process run by ONE I/O thread, on a GatedStore (gated_store.h): while a
// read waits at the gate, whatever that thread still answers did not wait for it.
#include <memory>

#include <gtest/gtest.h>

#include "server/gated_store.h"
#include "server/server.h"
#include "server/storage_test_util.h"

namespace test {

class OneIoThreadServer {
public:
    explicit OneIoThreadServer(server::Limits limits) {
        server::ServerOptions options;
        options.bind = "127.0.0.1";
        options.port = 0;
        options.web_root = web_root_.path().string();
        options.limits = limits;
        options.threads = 1;
        options.scheduled_tournaments = false;  // no pass of its own holding a pool thread
        auto started = server::Server::start(options, store_);
        if (!started) {
            ADD_FAILURE() << "server did not start: " << started.error();
            return;
        }
        server_ = std::move(*started);
    }
    ~OneIoThreadServer() {
        store_.open();  // a read still held would keep the pool from stopping
        if (server_) {
            server_->shutdown();
            server_->wait();
            server_.reset();
        }
    }
    OneIoThreadServer(const OneIoThreadServer&) = delete;
    OneIoThreadServer& operator=(const OneIoThreadServer&) = delete;

    std::uint16_t port() const { return server_ ? server_->port() : 0; }
    GatedStore& store() { return store_; }

private:
    storage_test::TempDir web_root_;
    GatedStore store_;
    std::unique_ptr<server::Server> server_;
};

}  // namespace test
