// Times nneonneo/2048-ai's execute_move on the workloads of
// crates/rules/examples/slide_bench.rs: the THEIRS half of
// perf/scripts/slide-vs-nneonneo.sh (protocol in that script's header).
//
//   driver BOARDS PASSES CHAIN
//
// BOARDS holds one board a line as 16 hex digits (`slide_bench positions`
// writes it), cell (r, c) the exponent at bit 16r + 4c: their layout too.
// The driver prints
//
//   tight <M moves/s> check=<hex>
//   chain <M moves/s> final=<hex> restarts=<n>
//
// where the check is the wrapping sum of every board one tight pass makes
// (the board itself for a move that changes nothing), as slide_bench's is.
//
// Their engine is compiled into this file (`#include "2048.cpp"`, their
// `main` renamed), so that execute_move inlines with the direction known,
// as it can in their own search: the strongest form of their slide there
// is, and the one to compare with. Built with NNEONNEO_LINKED, the file
// instead calls execute_move through the symbol their 2048.cpp exports,
// compiled on its own, as a program linking their engine as a library does
// (a call and a switch on the direction per move). Their engine has no
// no-op check; every caller of execute_move in their code compares the
// result with the board, and so does each workload here, as slide_bench's
// `None` arm does for ours. Neither does it have a score; slide_bench's
// `tight` does not ask ours for one either.
//
// perf/scripts/build-nneonneo.sh extracts their source and builds this file
// against it; their code is not part of this repository.

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef NNEONNEO_LINKED
#include "2048.h"
#else
#define main nneonneo_main
#include "2048.cpp"
#undef main
#endif

namespace {

// Moves of one chain segment, as slide_bench's SEGMENT.
const unsigned SEGMENT = 8;

struct Pass {
    uint64_t sum;
    uint64_t noops;
};

inline void consume(board_t board, board_t next, Pass &p) {
    if (next != board) {
        p.sum += next;
    } else {
        p.noops += 1;
    }
}

}  // namespace

// One tight pass: every board's four moves written out (slide_bench's
// `pass` takes them from Position::each_slide). extern "C" and out of line,
// so that callgrind can find it by name.
extern "C" __attribute__((noinline)) Pass tight_pass(const board_t *boards, size_t n) {
    Pass p = {0, 0};
    for (size_t i = 0; i < n; ++i) {
        board_t b = boards[i];
        consume(b, execute_move(0, b), p);
        consume(b, execute_move(1, b), p);
        consume(b, execute_move(2, b), p);
        consume(b, execute_move(3, b), p);
    }
    return p;
}

struct ChainResult {
    board_t last;
    uint64_t restarts;
};

// The chain workload: each move's result is the next move's board,
// directions cycling up, down, left, right; after SEGMENT moves or a no-op
// the chain goes on from the next board of the file.
extern "C" __attribute__((noinline)) ChainResult chain(const board_t *boards, size_t n,
                                                       uint64_t moves) {
    board_t b = boards[0];
    size_t next = 1 % n;
    uint64_t restarts = 0;
    unsigned left = SEGMENT;
    for (uint64_t i = 0; i < moves; ++i) {
        board_t r = execute_move(int(i & 3), b);
        left -= 1;
        if (r != b && left != 0) {
            b = r;
        } else {
            restarts += (r == b);
            b = boards[next];
            next = (next + 1) % n;
            left = SEGMENT;
        }
    }
    return ChainResult{b, restarts};
}

static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s BOARDS PASSES CHAIN\n", argv[0]);
        return 2;
    }
    char *end;
    uint64_t passes = strtoull(argv[2], &end, 10);
    if (*end != '\0') {
        fprintf(stderr, "PASSES: %s is not a number\n", argv[2]);
        return 2;
    }
    uint64_t chain_moves = strtoull(argv[3], &end, 10);
    if (*end != '\0') {
        fprintf(stderr, "CHAIN: %s is not a number\n", argv[3]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    std::vector<board_t> boards;
    uint64_t b;
    while (fscanf(f, "%" SCNx64, &b) == 1) {
        boards.push_back(b);
    }
    fclose(f);
    if (boards.empty()) {
        fprintf(stderr, "%s: no boards\n", argv[1]);
        return 1;
    }

    init_tables();

    // The check, outside the timing.
    uint64_t check = 0;
    for (board_t board : boards) {
        for (int d = 0; d < 4; ++d) {
            check += execute_move(d, board);
        }
    }

    // One untimed pass brings the tables into the caches.
    volatile uint64_t sink = tight_pass(boards.data(), boards.size()).sum;
    auto start = std::chrono::steady_clock::now();
    uint64_t consumed = 0;
    for (uint64_t i = 0; i < passes; ++i) {
        // The compiler may not take the pass for a pure function of the
        // same arguments and run it once (slide_bench's black_box).
        const board_t *data = boards.data();
        asm volatile("" : "+r"(data));
        Pass p = tight_pass(data, boards.size());
        consumed += p.sum ^ p.noops;
    }
    double s = seconds_since(start);
    sink = consumed;
    (void)sink;
    printf("tight %.1f check=%016" PRIx64 "\n", double(passes * 4 * boards.size()) / s / 1e6,
           check);

    start = std::chrono::steady_clock::now();
    ChainResult c = chain(boards.data(), boards.size(), chain_moves);
    s = seconds_since(start);
    printf("chain %.1f final=%016" PRIx64 " restarts=%" PRIu64 "\n", double(chain_moves) / s / 1e6,
           c.last, c.restarts);
    return 0;
}
