/*
 * A small single-threaded epoll HTTP/1.1 keep-alive server that answers every request with the
 * same fixed "hello" response, fast enough that the load generator is the bottleneck in
 * bench/http_client_compare.ts. Requests are counted by their blank line (bodies are not
 * supported); pipelined and partial requests are handled by keeping the unfinished tail.
 *
 * Build: cc -O2 -o /tmp/hello_epoll bench/servers/hello_epoll.c
 * Run:   taskset -c 0 /tmp/hello_epoll 18080     (listens on 127.0.0.1 only)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_EVENTS 256
#define BUF_BYTES 16384
#define MAX_FDS 65536

static const char RESPONSE[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 6\r\nContent-Type: text/plain\r\n\r\nhello\n";
#define RESPONSE_BYTES (sizeof(RESPONSE) - 1)

struct conn {
  char in[BUF_BYTES];
  size_t in_len;
  char *out; /* unsent responses, when a write would block */
  size_t out_len;
};

static struct conn *conns[MAX_FDS];

static void drop(int epfd, int fd) {
  epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
  close(fd);
  if (conns[fd]) {
    free(conns[fd]->out);
    free(conns[fd]);
    conns[fd] = NULL;
  }
}

/* Writes c->out; returns -1 on error. Leaves the rest queued when the socket is full. */
static int flush(int epfd, int fd, struct conn *c) {
  size_t sent = 0;
  while (sent < c->out_len) {
    ssize_t n = write(fd, c->out + sent, c->out_len - sent);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      return -1;
    }
    sent += (size_t)n;
  }
  memmove(c->out, c->out + sent, c->out_len - sent);
  c->out_len -= sent;
  struct epoll_event ev = {.events = EPOLLIN | (c->out_len ? EPOLLOUT : 0), .data.fd = fd};
  return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
}

/* Counts complete request heads in c->in, keeps the unfinished tail, queues one response each. */
static int on_readable(int epfd, int fd, struct conn *c) {
  for (;;) {
    ssize_t n = read(fd, c->in + c->in_len, BUF_BYTES - c->in_len);
    if (n == 0) return -1;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      return -1;
    }
    c->in_len += (size_t)n;
    size_t start = 0, requests = 0;
    for (size_t i = 3; i < c->in_len; i++) {
      if (c->in[i] == '\n' && c->in[i - 1] == '\r' && c->in[i - 2] == '\n' &&
          c->in[i - 3] == '\r') {
        requests++;
        start = i + 1;
      }
    }
    memmove(c->in, c->in + start, c->in_len - start);
    c->in_len -= start;
    if (c->in_len == BUF_BYTES) return -1; /* a head longer than the buffer */
    if (requests > 0) {
      char *out = realloc(c->out, c->out_len + requests * RESPONSE_BYTES);
      if (!out) return -1;
      c->out = out;
      for (size_t r = 0; r < requests; r++) {
        memcpy(c->out + c->out_len, RESPONSE, RESPONSE_BYTES);
        c->out_len += RESPONSE_BYTES;
      }
      if (flush(epfd, fd, c) < 0) return -1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PORT\n", argv[0]);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 1024) < 0) {
    perror("listen");
    return 1;
  }
  int epfd = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = lfd};
  epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev);
  struct epoll_event events[MAX_EVENTS];
  for (;;) {
    int ready = epoll_wait(epfd, events, MAX_EVENTS, -1);
    if (ready < 0 && errno != EINTR) return 1;
    for (int i = 0; i < ready; i++) {
      int fd = events[i].data.fd;
      if (fd == lfd) {
        int cfd;
        while ((cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          if (cfd >= MAX_FDS) {
            close(cfd);
            continue;
          }
          setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          conns[cfd] = calloc(1, sizeof(struct conn));
          struct epoll_event cev = {.events = EPOLLIN, .data.fd = cfd};
          if (!conns[cfd] || epoll_ctl(epfd, EPOLL_CTL_ADD, cfd, &cev) < 0) drop(epfd, cfd);
        }
        continue;
      }
      struct conn *c = conns[fd];
      if (!c) continue;
      int failed = (events[i].events & (EPOLLERR | EPOLLHUP)) != 0;
      if (!failed && (events[i].events & EPOLLOUT)) failed = flush(epfd, fd, c) < 0;
      if (!failed && (events[i].events & EPOLLIN)) failed = on_readable(epfd, fd, c) < 0;
      if (failed) drop(epfd, fd);
    }
  }
}
