/*
 * The churn load of Benchmarks/games-server/load.py, in C so that the load generator costs the
 * two cores next to nothing (as pgbench's own client does) and the figure is the server's.
 *
 *   churn PORT SECONDS < clients      (one "TOKEN GAME-ID" line per client)
 *
 * Each client is a thread with one keep-alive connection that books its game and cancels the
 * booking, again and again, until SECONDS pass. Prints one JSON object: requests, errors (any
 * answer other than 200), elapsed seconds, requests per second, p50 and p99 latency in ms.
 * Client N connects from its own loopback address, 127.0.N/250.(N%250 + 2), as players on many
 * machines do (the server limits connections per address).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CLIENTS 512
#define MAX_SAMPLES 200000

struct client {
    char token[128];
    long game;
    long requests, errors;
    double *latencies;
    pthread_t thread;
    int index;
};

static int port;
static double deadline;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int connect_to_server(int index) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in source = { .sin_family = AF_INET };
    char text[32];
    snprintf(text, sizeof text, "127.0.%d.%d", index / 250, index % 250 + 2);
    inet_pton(AF_INET, text, &source.sin_addr);
    if (bind(fd, (struct sockaddr *)&source, sizeof source) != 0) { perror("bind"); exit(1); }
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port) };
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { perror("connect"); exit(1); }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Sends one request and reads its whole answer; returns the HTTP status, or -1 when the
 * connection broke. */
static int exchange(int fd, const char *request, size_t length) {
    if (write(fd, request, length) != (ssize_t)length) return -1;
    char buffer[16384];
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        ssize_t got = read(fd, buffer + have, sizeof buffer - 1 - have);
        if (got <= 0) return -1;
        have += got;
        buffer[have] = 0;
        end = strstr(buffer, "\r\n\r\n");
        if (!end && have == sizeof buffer - 1) return -1;
    }
    int status = atoi(buffer + 9);
    long body = 0;
    for (char *line = strstr(buffer, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "content-length:", 15) == 0) body = atol(line + 17);
    }
    long pending = body - (long)(have - (end + 4 - buffer));
    while (pending > 0) {
        ssize_t got = read(fd, buffer, pending < (long)sizeof buffer ? pending : (long)sizeof buffer);
        if (got <= 0) return -1;
        pending -= got;
    }
    return status;
}

static void *run(void *argument) {
    struct client *client = argument;
    int fd = connect_to_server(client->index);
    char requests[2][512];
    size_t lengths[2];
    const char *methods[2] = { "POST", "DELETE" };
    for (int i = 0; i < 2; i++) {
        lengths[i] = snprintf(requests[i], sizeof requests[i],
                              "%s /v1/games/%ld/booking HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                              "Content-Length: 0\r\n\r\n", methods[i], client->game, client->token);
    }
    while (now() < deadline && client->requests < MAX_SAMPLES - 2) {
        for (int i = 0; i < 2; i++) {
            double sent = now();
            int status = exchange(fd, requests[i], lengths[i]);
            if (status < 0) { close(fd); fd = connect_to_server(client->index); }
            client->latencies[client->requests++] = (now() - sent) * 1000;
            if (status != 200) client->errors++;
        }
    }
    close(fd);
    return NULL;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: churn PORT SECONDS < clients\n"); return 64; }
    port = atoi(argv[1]);
    double seconds = atof(argv[2]);
    static struct client clients[MAX_CLIENTS];
    int count = 0;
    while (count < MAX_CLIENTS && scanf("%127s %ld", clients[count].token, &clients[count].game) == 2) {
        clients[count].latencies = malloc(sizeof(double) * MAX_SAMPLES);
        clients[count].index = count;
        count++;
    }
    if (count == 0) { fprintf(stderr, "churn: no clients on standard input\n"); return 64; }
    double start = now();
    deadline = start + seconds;
    for (int i = 0; i < count; i++) pthread_create(&clients[i].thread, NULL, run, &clients[i]);
    long requests = 0, errors = 0;
    for (int i = 0; i < count; i++) {
        pthread_join(clients[i].thread, NULL);
        requests += clients[i].requests;
        errors += clients[i].errors;
    }
    double elapsed = now() - start;
    double *all = malloc(sizeof(double) * (requests ? requests : 1));
    long at = 0;
    for (int i = 0; i < count; i++) {
        memcpy(all + at, clients[i].latencies, sizeof(double) * clients[i].requests);
        at += clients[i].requests;
    }
    qsort(all, requests, sizeof(double), by_value);
    printf("{\"clients\": %d, \"seconds\": %.3f, \"requests\": %ld, \"errors\": %ld, \"requests_per_second\": %.1f, "
           "\"p50_ms\": %.3f, \"p99_ms\": %.3f}\n", count, elapsed, requests, errors, requests / elapsed,
           requests ? all[requests / 2] : 0, requests ? all[(long)(requests * 0.99)] : 0);
    return 0;
}
