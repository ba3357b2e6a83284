#include "server/bots/bot_think.h"

#include "core/engine/engine.h"

namespace server {

BotAnswer think(const BotJob& job, const std::atomic<bool>& stop) {
    const auto started = std::chrono::steady_clock::now();
    BotAnswer answer;
    if (!job.game) {
        answer.error = "no game to think about";
        return answer;
    }
    switch (job.task) {
        case BotTask::move: {
            core::engine::SearchLimits limits;
            limits.move_time = job.move_time;
            limits.stop = &stop;
            auto result = core::engine::choose_move(*job.game, job.level, limits, job.seed);
            if (result) {
                answer.move = result->best_move;
            } else {
                answer.error = result.error();
            }
            break;
        }
        case BotTask::name_object:
            answer = name_sniderman_object(job, stop);
            break;
        case BotTask::choose_side:
            answer = choose_sniderman_side(job);
            break;
    }
    answer.thought = std::chrono::steady_clock::now() - started;
    return answer;
}

}  // namespace server
