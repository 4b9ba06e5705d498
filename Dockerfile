# docreview serve as a container: a static binary on a minimal base, run as
# a non-root user. Build with: docker build -t docreview .
# (Not built in this project's CI: its machines have no Docker engine.)
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/docreview ./cmd/docreview

FROM debian:bookworm-slim
# git fetches the repositories under review; ca-certificates for HTTPS.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/docreview --create-home docreview
COPY --from=build /out/docreview /usr/local/bin/docreview
USER docreview
WORKDIR /var/lib/docreview
EXPOSE 8080
VOLUME ["/var/lib/docreview"]
ENTRYPOINT ["docreview", "serve", "--addr", "0.0.0.0:8080", "--data-dir", "/var/lib/docreview"]
