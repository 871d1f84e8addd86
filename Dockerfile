# Multi-stage build: dependencies are cooked in their own layer (cargo-chef),
# the runtime image holds only the binary and runs as an unprivileged user.

FROM rust:1.95-slim-bookworm AS chef
RUN cargo install cargo-chef --version 0.1.78 --locked
WORKDIR /app

FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS builder
COPY --from=planner /app/recipe.json recipe.json
RUN cargo chef cook --release --locked --recipe-path recipe.json
COPY . .
RUN cargo build --release --locked --bin qipan

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --create-home qipan
COPY --from=builder /app/target/release/qipan /usr/local/bin/qipan
USER qipan
WORKDIR /data
# Matches are kept in /data/qipan.db unless QIPAN_DATABASE_URL says otherwise.
VOLUME /data
ENV QIPAN_ADDR=0.0.0.0:8080 RUST_LOG=info
EXPOSE 8080
# `qipan healthcheck` asks the running service for /healthz: the image needs
# nothing else to run it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["/usr/local/bin/qipan", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/qipan"]
