"""A single node killed (SIGKILL) while two games are played — each with a move in flight, sent
but not yet answered — then started again on its database: every acknowledged move is in the
record exactly once and in order (a move in flight is there once or not at all), and both games
move again after the restart. --long: ten kills."""
import time

from faults import check, main, Game


def run(suite):
    node = suite.node()
    games = [Game(node.port, f"game{i}") for i in range(2)]
    kills = 10 if suite.long else 2
    resumed = []
    for k in range(kills):
        for game in games:
            for _ in range(3):
                reply = game.move()
                check(reply.get("type") == "ack", f"{game.label}: a move before kill {k}: {reply}")
        in_flight = {}
        for game in games:
            snap = game.snapshot()
            in_flight[game.label] = snap["legal"][0]
            game.players()[snap["to_move"]].send(
                {"type": "move", "id": "in-flight", "game_id": game.game_id,
                 "move": in_flight[game.label]})
        node.kill()
        node = suite.restart(node)
        started = time.monotonic()
        for game in games:
            game.reconnect(node.port)
            moves = game.record()["moves"]
            flying = in_flight[game.label]
            check(moves in (game.acked, game.acked + [flying]),
                  f"{game.label}: after kill {k} the record holds {moves}; acknowledged "
                  f"{game.acked}, in flight {flying}")
            if len(moves) > len(game.acked):
                game.acked.append(flying)  # durable: it may have been acknowledged
            reply = game.move()
            check(reply.get("type") == "ack", f"{game.label}: no move after restart {k}: {reply}")
        resumed.append(time.monotonic() - started)
        check(node.get("/readyz")[0] == 200, "the restarted node is not ready")
    for game in games:
        game.check_record()
    resumed.sort()
    print(f"{kills} kills: both games moved again {resumed[len(resumed) // 2]:.2f} s (p50), "
          f"{resumed[-1]:.2f} s (max) after the restarted node listened; "
          f"{sum(len(g.acked) for g in games)} acknowledged moves, each once in the record")


if __name__ == "__main__":
    main(run)
