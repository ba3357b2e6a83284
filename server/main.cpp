#include <cstdio>
int main() {
    std::puts("chessence-server: not implemented yet");
    return 1;
}
