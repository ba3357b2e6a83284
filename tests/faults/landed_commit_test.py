"""A commit that fails after landing (issue 42 finding 3): the store writes a batch, then reports it
failed, as a COMMIT whose answer was lost does. chessence-fault-server arms the fault on SIGUSR1.
Before the fix the room answered internal_error and kept its old state, so every later request
failed the version check (the game was wedged for good). Now the room reads back what it wrote:
the move is acknowledged, everyone hears of it, the game goes on, and the record holds each
acknowledged move once and in order. --long: 200 moves, one landed-but-failed commit in four."""
import signal

from faults import check, main, wait_until, Game

ARMED = "fault: the next batch lands, then fails"


def arm(node):
    """Arms one landed-but-failed commit and waits until the node says it is armed."""
    before = node.log_text().count(ARMED)
    node.proc.send_signal(signal.SIGUSR1)
    wait_until(lambda: node.log_text().count(ARMED) > before, 5, "the fault armed")


def run(suite):
    # The players send as fast as the server answers: the message rate is not under test.
    node = suite.node(program="chessence-fault-server", args=["--rate", "1000"])
    rounds = 50 if suite.long else 3
    landed = 0
    games = [Game(node.port, f"game{i}") for i in range(2)]
    finished = []

    def playing(i, r):
        """games[i], or a new game in its place once it ended (the long form plays games out)."""
        if games[i].snapshot().get("result") is not None:
            games[i].check_record()
            finished.append(games[i])
            games[i] = Game(node.port, f"game{i}.{r}")
        return games[i]

    for r in range(rounds):
        for i in range(len(games)):
            for step in range(4):
                game = playing(i, r)
                if step == 1:
                    arm(node)  # the next move's batch lands, then "fails"
                    landed += 1
                reply = game.move()
                check(reply.get("type") == "ack",
                      f"{game.label} round {r} step {step}: the move was not acknowledged: {reply}")
    # Three in a row on one game (the measurement: 3 of 3 moves refused).
    for _ in range(3):
        game = playing(0, rounds)
        arm(node)
        landed += 1
        reply = game.move()
        check(reply.get("type") == "ack", f"a landed-but-failed move in a row: {reply}")
    for i in range(len(games)):
        game = playing(i, rounds + 1)
        reply = game.resign()
        check(reply.get("type") == "ack", f"{game.label}: the resignation was refused: {reply}")
        game.check_record()
        record = game.record()
        check(record.get("status") == "finished", f"{game.label}: not finished: {record}")
    log = node.log_text()
    carried = log.count("is in the store: carried on")
    check(carried == landed, f"{landed} commits landed-but-failed, the log tells of {carried}")
    print(f"{landed} landed-but-failed commits; {sum(len(g.acked) for g in games + finished)} "
          f"moves acknowledged in {len(games + finished)} games, each once in the record")


if __name__ == "__main__":
    main(run)
