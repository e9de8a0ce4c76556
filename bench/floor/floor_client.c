/*
 * The least an open-model HTTP/1.1 client can do per request, in C: one keep-alive connection to
 * 127.0.0.1, sleep until each request's fire time (clock_nanosleep, TIMER_ABSTIME), send the
 * request, read its response. No parsing, no histogram, no timing thread: a floor to set
 * a load generator's CPU per request against (bench/floor/stack_floor.sh).
 *
 * With `wakes` 1 the response to request i is read just before request i+1 is sent (a blocking
 * read only if it has not come yet), so the thread wakes once per request, as tailgate's engine
 * does below 8k/s with deferred reads; with 2 it blocks in recv after each send (a wake for the
 * fire time and one for the response).
 *
 * `peak` is the closed loop wrk runs: CONNS connections, each sending its next request as soon as
 * its response is read (one recv, one send per readiness from epoll_wait), for SECS seconds; it
 * prints the requests answered per second.
 *
 * Build: cc -O2 -o /tmp/floor_client bench/floor/floor_client.c
 * Run:   taskset -c 1 /tmp/floor_client open PORT RATE_PER_SEC COUNT WAKES
 *        taskset -c 1 /tmp/floor_client peak PORT CONNS SECS
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>

static int read_response(int fd, char *buf, size_t size, int flags) {
  ssize_t got = recv(fd, buf, size, flags);
  if (got > 0) return 0;
  if (flags != 0) return read_response(fd, buf, size, 0); /* not there yet: wait for it */
  perror("recv");
  return 1;
}

static const char *REQUEST = "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
static char buf[65536];

static int connect_to(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0), on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    perror("connect");
    exit(1);
  }
  return fd;
}

static int send_request(int fd) {
  size_t length = strlen(REQUEST);
  if (send(fd, REQUEST, length, MSG_NOSIGNAL) == (ssize_t)length) return 0;
  perror("send");
  return 1;
}

static int open_loop(int port, double rate_per_sec, long count, int one_wake) {
  int fd = connect_to(port);
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  long long start_ns = start.tv_sec * 1000000000LL + start.tv_nsec;
  for (long i = 0; i < count; i++) {
    long long due_ns = start_ns + (long long)(i * 1e9 / rate_per_sec);
    struct timespec due = {due_ns / 1000000000LL, due_ns % 1000000000LL};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
    if (one_wake && i > 0 && read_response(fd, buf, sizeof buf, MSG_DONTWAIT)) return 1;
    if (send_request(fd)) return 1;
    if (!one_wake && read_response(fd, buf, sizeof buf, 0)) return 1;
  }
  if (one_wake && count > 0 && read_response(fd, buf, sizeof buf, 0)) return 1;
  printf("%ld requests\n", count);
  return 0;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int closed_loop(int port, int conns, double secs) {
  int ep = epoll_create1(0);
  for (int c = 0; c < conns; c++) {
    int fd = connect_to(port);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &event);
    if (send_request(fd)) return 1;
  }
  struct epoll_event events[256];
  long answered = 0;
  double end_s = now_s() + secs;
  while (now_s() < end_s) {
    int n = epoll_wait(ep, events, 256, 100);
    for (int i = 0; i < n; i++) {
      int fd = events[i].data.fd;
      if (recv(fd, buf, sizeof buf, MSG_DONTWAIT) <= 0) continue;
      answered++;
      if (send_request(fd)) return 1;
    }
  }
  printf("%.0f requests/s\n", answered / secs);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 6 && strcmp(argv[1], "open") == 0) {
    return open_loop(atoi(argv[2]), atof(argv[3]), atol(argv[4]), atoi(argv[5]) == 1);
  }
  if (argc == 5 && strcmp(argv[1], "peak") == 0) {
    return closed_loop(atoi(argv[2]), atoi(argv[3]), atof(argv[4]));
  }
  fprintf(stderr, "usage: %s open PORT RATE_PER_SEC COUNT WAKES(1|2) | peak PORT CONNS SECS\n",
          argv[0]);
  return 2;
}
